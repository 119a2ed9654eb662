"""``CreateWaitNotice``: a customer whose create the API key's request limit holds back is told.

The Partner API allows a key so many requests a minute, and the client's ``RequestLimiter``
holds a create back rather than let the service refuse it. When many customers confirm at once
that wait can be long; silence that long reads like a broken bot. So just before a create
goes out (the engine's ``before_create``), the limiter is asked how long a request starting now
would wait (across every process sharing the key's budget through the store), and a
wait over ``threshold_seconds`` is said to the chat, with how long; then the create goes on, in
its turn. That look ahead cannot see the creates other processes ask for at the same moment
(100 customers confirming at once across three bots), so when it says "no wait" the
create's request is watched instead (the ``HeldBack`` that ``before_create`` hands back, which
the turn's creates carry to the client's limiter: ``TurnCreates.held_back``): still waiting for
its start after half the threshold, the customer is told then, with the wait as it looks by
that time.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef
from bot.partner.request_limiter import HeldBack, RequestLimiter
from bot.relay.channel_protocol import Channel, ChatUnreachable, SendFailed
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue

logger = logging.getLogger(__name__)

QUIET_SECONDS: Final = 3.0  # a wait longer than this is said to the customer


@dataclass(frozen=True)
class ForeseenWait:
    """What ``CreateWaitNotice.before_create`` saw: the wait in ``seconds``, and, when it was
    short enough to go unsaid, the watch (``HeldBack``) for the create's request to carry."""

    seconds: float
    held_back: HeldBack | None = None


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

    async def before_create(self, chat: ChatRef, catalogue: Catalogue) -> ForeseenWait:
        """Say the wait to ``chat`` (from its turn's ``catalogue``) when it is over the
        threshold; the wait, with the watch for the create's request when it went unsaid."""
        wait = await self._limiter.expected_wait()
        if wait <= self._threshold:
            if not math.isfinite(self._threshold):  # an infinite threshold: never told
                return ForeseenWait(wait)
            later = functools.partial(self._held_back, chat, catalogue)
            return ForeseenWait(wait, HeldBack(self._threshold / 2, later))
        await self._say(chat, catalogue, wait)
        return ForeseenWait(wait)

    async def _held_back(self, chat: ChatRef, catalogue: Catalogue) -> None:
        """The create's request still waits although none was foreseen: say it now."""
        await self._say(chat, catalogue, await self._limiter.expected_wait())

    async def _say(self, chat: ChatRef, catalogue: Catalogue, wait: float) -> None:
        try:
            await self._channel.send(chat, dialogue.create_waiting(catalogue, wait))
        except (ChatUnreachable, SendFailed) as error:
            # The create goes on regardless: its answer is what matters to the customer.
            logger.info("chat %s not told of its create's wait (%s)", chat.for_log, error)
