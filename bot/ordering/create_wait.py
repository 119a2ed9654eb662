"""``CreateWaitNotice``: a customer whose create the API key's request limit holds back is told.

The Partner API allows a key so many requests a minute, and the client's ``RequestLimiter``
holds a create back rather than let the service refuse it. When many customers confirm at once
that wait can be long; silence that long reads like a broken bot. So just before a create
goes out (the engine's ``before_create``), the limiter is asked how long a request starting now
would wait (across every instance, when they share the key's budget on PostgreSQL), and a
wait over ``threshold_seconds`` is said to the chat, with how long; then the create goes on, in
its turn.
"""

from __future__ import annotations

import logging
from typing import Final

from bot.partner.request_limiter import RequestLimiter
from bot.relay.channel_protocol import Channel, ChatUnreachable, SendFailed
from conversations.texts import dialogue

logger = logging.getLogger(__name__)

QUIET_SECONDS: Final = 3.0  # a wait longer than this is said to the customer


class CreateWaitNotice:
    """Tells a chat when its create is about to wait for the request limit (see the module)."""

    def __init__(
        self,
        limiter: RequestLimiter,
        channel: Channel,
        *,
        threshold_seconds: float = QUIET_SECONDS,
    ) -> None:
        self._limiter = limiter
        self._channel = channel
        self._threshold = threshold_seconds

    async def before_create(self, chat_id: int) -> float:
        """Say the wait to ``chat_id`` when it is over the threshold; the wait, in seconds."""
        wait = await self._limiter.expected_wait()
        if wait <= self._threshold:
            return wait
        try:
            await self._channel.send(chat_id, dialogue.create_waiting(wait))
        except (ChatUnreachable, SendFailed) as error:
            # The create goes on regardless: its answer is what matters to the customer.
            logger.info("chat %s not told of its create's wait (%s)", chat_id, error)
        return wait
