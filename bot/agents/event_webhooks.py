"""``EventWebhooks``: each agent event POSTed to its channel's own webhook URL, signed, once in
effect.

The body is the event's JSON as kept in ``store.agent_events`` (its ``event_id`` lets the
receiver drop a repeat). The signature is the Partner API's own scheme
(``bot.partner.signing``): ``Deliverybot-Signature: t=<unix>,v1=<hex>``, HMAC-SHA256 over
``<t>.<raw body>`` keyed by the channel's ``webhook_secret``. A 2xx marks the event sent; anything
else (or no answer) tries it again later, waiting longer each time, up to ``max_attempts``;
events of one channel go out in order. The rows are the outbox, so a restart resumes where the
last process stopped; a crash between the 2xx and the mark sends that one event again, which
its ``event_id`` (in the body, and in the ``Deliverybot-Event`` header) makes harmless.

A leader-only job (``bot.jobs``): of the processes sharing a store one posts for all, or each
would post every event, and a channel's events would no longer arrive in order. Events the
other processes' relays keep cannot wake it, so it also looks every ``look_seconds``; a pass
that finds nothing due is one read. Without any channel's webhook it has nothing to post,
ever: it neither looks nor reads, and a follower asks to lead only when woken (a host's
thousand businesses whose agents take their events over ``/api`` or MCP would otherwise ask
every second for nothing). A pass that fails (the store) is followed by the scheduler's
default pause.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping

import httpx

from bot.clocks import Clock
from bot.jobs import Job
from bot.partner.signing import sign
from bot.settings import ChannelHook
from bot.store import DueHook, Store

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "Deliverybot-Signature"
EVENT_ID_HEADER = "Deliverybot-Event"
OTHER_INSTANCES_LOOK_SECONDS = 1.0
"""How often the posting process looks for events other processes' relays kept."""
_NOTHING_TO_POST_LOOK = 86_400.0
"""How often a follower without any webhook asks to lead, unwoken: it would have nothing to
post, so leading does not matter (the scheduler wants some number)."""


class EventWebhooks(Job):
    """Posts due agent events to their channel's webhook (woken by every kept event)."""

    name = "agent-webhooks"
    leader_only = True

    def __init__(
        self,
        store: Store,
        hooks: Mapping[str, ChannelHook],
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = time.time,
        max_attempts: int = 12,
        batch_size: int = 50,
        look_seconds: float | None = None,
    ) -> None:
        if hooks:
            super().__init__(look_seconds=look_seconds)
        else:
            super().__init__(follower_look=_NOTHING_TO_POST_LOOK)
        self._store = store
        self._hooks = dict(hooks)
        # A client (its TLS context, its pool) only where there is a webhook to post to: most
        # businesses of a host have none, and each client costs memory and start-up time.
        self._client = httpx.AsyncClient(transport=transport, timeout=10.0) if hooks else None
        self._clock = clock
        self._max_attempts = max_attempts
        self._batch_size = batch_size
        self._lock = asyncio.Lock()

    async def run_once(self) -> float | None:
        """Post what is due; the next look is due at the next retry."""
        if not self._hooks:
            return None
        next_at = await self._store.agent_events.next_hook_at(list(self._hooks))
        if next_at is not None and next_at <= self._clock():
            await self.process_due()
            next_at = await self._store.agent_events.next_hook_at(list(self._hooks))
        return None if next_at is None else next_at - self._clock()

    async def process_due(self) -> int:
        """One pass; how many events the channels took."""
        async with self._lock:
            due = await self._store.agent_events.due_hooks(list(self._hooks), self._batch_size)
            failed_channels: set[str] = set()
            taken = 0
            for hook in due:
                if hook.channel in failed_channels:
                    continue  # in order per channel: wait behind the one that failed
                if await self._post(hook):
                    taken += 1
                else:
                    failed_channels.add(hook.channel)
            return taken

    async def aclose(self) -> None:
        """Close the HTTP client."""
        if self._client is not None:
            await self._client.aclose()

    async def _post(self, due: DueHook) -> bool:
        hook = self._hooks[due.channel]
        assert self._client is not None  # a due event is of a channel with a webhook
        body = due.body.encode("utf-8")
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(body, hook.secret, int(self._clock())),
            EVENT_ID_HEADER: due.event_id,
        }
        try:
            response = await self._client.post(hook.url, content=body, headers=headers)
            ok = 200 <= response.status_code < 300
            reason = f"HTTP {response.status_code}"
        except httpx.HTTPError as error:
            ok, reason = False, type(error).__name__
        if ok:
            await self._store.agent_events.hook_sent(due.seq)
            return True
        attempts = due.attempts + 1
        if attempts >= self._max_attempts:
            logger.error("agent event %s for %s given up (%s)", due.seq, due.channel, reason)
            await self._store.agent_events.hook_given_up(due.seq)
            return False
        delay = min(2.0**attempts, 3600.0)
        logger.warning("agent event %s for %s not taken (%s)", due.seq, due.channel, reason)
        await self._store.agent_events.hook_failed(due.seq, self._clock() + delay)
        return False
