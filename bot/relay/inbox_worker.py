"""``Relay``: the inbox worker that turns stored Partner events into chat messages.

::

    relay = Relay(store, channel, operators=[operator_chat_id], settings=config.relay)
    app = create_web_app(store=store, signing_secrets=secrets, on_event=relay.wake)
    task = asyncio.create_task(relay.run())      # until cancelled

Each pass reads the pending events in the inbox's order (the service's ``created``, then
arrival) and handles them one by one. An event is marked processed only after every message it
owes went out (see ``bot.relay.planner`` for what is owed), so a crash at any point means the
event is handled again after a restart, and the sent markers (``bot.relay.outbox``) keep a
chat from seeing a message twice. Each message is claimed (its own commit) before it is sent;
once the event's messages are out, marking them sent, the chat's new view, the tracking link and
"processed" are one commit (``store.relayed``) instead of one each.

Several instances on one PostgreSQL database: each pass *claims* its events
(``inbox.claim_batch``, leased to this store's holder and renewed while a long batch runs), so
the relays of all instances share the inbox and one delivery's events stay with one of them;
an idle relay also looks at the inbox every half lease, for the events of an instance that died.
On SQLite a claim is a plain read.

Order per delivery: while an event waits (its delivery is not linked yet, or a message failed),
the later events of the same delivery wait behind it; other deliveries go on.

Failures: a channel error other than ``ChatUnreachable`` leaves the event pending, recorded with
``inbox.record_failure``, and it is retried after a growing, capped delay (``RelayTuning``);
after ``max_attempts`` it is given up and logged. An unexpected error while handling one event
is logged and retried the same way, so it cannot stop the other deliveries. The delays live in
memory: after a restart every pending event is tried at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Sequence

import pydantic

from bot.clocks import Clock, Sleep
from bot.config import RelayConfig
from bot.partner.models import WebhookEvent
from bot.relay.channel_protocol import Channel, SendFailed
from bot.relay.outbox import Outgoing, Sender
from bot.relay.planner import Plan, Planner
from bot.relay.tuning import RelayTuning
from bot.store import InboxEvent, SentReceipt, Store, ViewChange

logger = logging.getLogger(__name__)


# Deliveries found to be ordered elsewhere, so their later events skip the wait for a link.
_FOREIGN_MEMORY = 10_000


class Relay:
    """Relays the inbox to chats; see the module docstring.

    ``operators`` are the operator chat ids; ``settings`` the ``[relay]`` section (its defaults
    when None). ``clock`` and ``sleep`` drive the retry delays (tests inject fakes);
    ``phone_region`` lets receiver phones written without a country code be compared.
    """

    def __init__(
        self,
        store: Store,
        channel: Channel,
        *,
        operators: Sequence[int],
        settings: RelayConfig | None = None,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        tuning: RelayTuning | None = None,
        phone_region: str | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._sleep = sleep
        self._tuning = tuning or RelayTuning()
        self._planner = Planner(
            store,
            channel,
            operators=operators,
            settings=settings or RelayConfig.model_validate({}),
            phone_region=phone_region,
        )
        self._sender = Sender(store, channel)
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._retry_at: dict[str, float] = {}
        self._foreign: OrderedDict[str, None] = OrderedDict()

    def wake(self) -> None:
        """Tell ``run`` that new events are in the inbox (the web app calls this)."""
        self._wake.set()

    def retry_in(self) -> float | None:
        """Seconds until the next event falls due for a retry; None when none waits.

        An event already due but still pending after a pass is held behind an earlier event of
        its delivery, whose own retry time is the one that matters.
        """
        now = self._clock()
        return min((at - now for at in self._retry_at.values() if at > now), default=None)

    async def run(self) -> None:
        """Process the inbox whenever woken or a retry falls due, until cancelled."""
        failures = 0
        while True:
            self._wake.clear()
            try:
                await self.process_pending()
                failures = 0
                delay = self._next_look(self.retry_in())
            except Exception:
                # A store error must not end the worker; the next pass retries, later each time.
                failures += 1
                logger.exception("relay pass failed")
                delay = self._tuning.retry_delay(failures)
            await self._idle(delay)

    async def process_pending(self) -> int:
        """One pass over the inbox; returns how many events were processed."""
        async with self._lock:
            done = 0
            limit = self._tuning.batch_size
            while True:
                batch = await self._store.inbox.claim_batch(
                    self._store.holder, limit, self._store.lease_seconds
                )
                handled, waiting = await self._pass(batch)
                done += handled
                if len(batch) < limit:
                    return done
                # Waiting events stay at the head of the inbox's order: read past them.
                limit = waiting + self._tuning.batch_size

    async def _pass(self, batch: list[InboxEvent]) -> tuple[int, int]:
        held: set[str] = set()  # deliveries with an earlier event still pending
        handled = waiting = 0
        now = renewed = self._clock()
        for stored in batch:
            if self._clock() - renewed > self._store.lease_seconds / 2:
                # A long batch (slow sends): keep the other instances off the rest of it.
                await self._store.inbox.renew_leases(self._store.holder, self._store.lease_seconds)
                renewed = self._clock()
            due = self._retry_at.get(stored.event_id, -math.inf) <= now
            if stored.delivery_id in held or not due or not await self._try(stored):
                held.add(stored.delivery_id)
                waiting += 1
            else:
                handled += 1
        return handled, waiting

    async def _try(self, stored: InboxEvent) -> bool:
        """``_handle``, with an unexpected failure kept to its own event (retried later)."""
        try:
            return await self._handle(stored)
        except Exception as exc:
            logger.exception("relaying event %s failed", stored.event_id)
            # If the store itself is failing this raises too, and ``run`` backs off.
            await self._retry_later(stored, f"relay error: {type(exc).__name__}")
            return False

    async def _handle(self, stored: InboxEvent) -> bool:
        """Handle one event; True when it is processed, False when it waits for a retry."""
        try:
            event = WebhookEvent.model_validate_json(stored.raw_body)
        except pydantic.ValidationError:
            # The web app parsed it before storing it, so this is a bug or a hand-edited file.
            logger.error("inbox event %s is not a webhook event; dropped", stored.event_id)
            await self._finish(stored, Plan())
            return True
        link = await self._store.deliveries.get(stored.delivery_id)
        if link is None and stored.delivery_id not in self._foreign:
            if stored.attempts + 1 < self._tuning.link_attempts:
                await self._retry_later(stored, "delivery not linked to a chat yet")
                return False
            self._remember_foreign(stored.delivery_id)
            logger.info(
                "delivery %s is not linked to a chat: event %s goes to operators only",
                stored.delivery_id,
                stored.event_id,
            )
        plan = await self._planner.plan(event, link)
        sent: list[SentReceipt] = []  # sent and not yet marked
        try:
            failed = await self._send(plan.messages, sent)
            if failed:
                # Marked now, so the retry sends only what is still missing.
                await self._store.relayed.record_sent(sent)
                sent.clear()
                attempts = await self._retry_later(stored, f"{failed} message(s) not sent")
                if attempts < self._tuning.max_attempts:
                    return False
                logger.error(
                    "event %s given up after %d attempts: %d message(s) never sent",
                    stored.event_id,
                    attempts,
                    failed,
                )
            await self._finish(stored, plan, sent)
            sent.clear()
        finally:
            if sent:
                # The commit that marks them did not happen (the store failed, or the relay was
                # cancelled): mark what went out on its own, or this process would hold their
                # claims unmarked. If this fails too, a restart sends them again, once.
                with contextlib.suppress(Exception):
                    await self._store.relayed.record_sent(sent)
        return True

    async def _send(self, messages: list[Outgoing], sent: list[SentReceipt]) -> int:
        """Send each message, adding what went out to ``sent``; how many failed."""
        failed = 0
        for message in messages:
            try:
                receipt = await self._sender.send(message)
            except SendFailed:
                failed += 1
                continue
            if receipt is not None:
                sent.append(receipt)
        return failed

    async def _retry_later(self, stored: InboxEvent, reason: str) -> int:
        attempts = await self._store.inbox.record_failure(stored.event_id, reason)
        self._retry_at[stored.event_id] = self._clock() + self._tuning.retry_delay(attempts)
        return attempts

    async def _finish(
        self, stored: InboxEvent, plan: Plan, sent: Sequence[SentReceipt] = ()
    ) -> None:
        if plan.finished:
            # Its own commit, before the event's: a crash between them handles the event
            # again, and discarding twice is harmless.
            await self._store.otp.discard(stored.delivery_id)
        view = plan.view
        await self._store.relayed.finish_event(
            stored.event_id,
            stored.delivery_id,
            sent=sent,
            view=None
            if view is None
            else ViewChange(view.status, view.created, view.tracking_url, view.previous_status),
            tracking_sent=plan.tracking_sent,
        )
        self._retry_at.pop(stored.event_id, None)

    def _remember_foreign(self, delivery_id: str) -> None:
        self._foreign[delivery_id] = None
        if len(self._foreign) > _FOREIGN_MEMORY:
            self._foreign.popitem(last=False)

    def _next_look(self, retry_in: float | None) -> float | None:
        """When to look at the inbox again unwoken: at the next retry; and with several
        instances (PostgreSQL) at least twice a lease, since an instance that died leaves
        events whose lease runs out without anyone waking this relay."""
        if self._store.dialect != "postgres":
            return retry_in
        half_lease = self._store.lease_seconds / 2
        return half_lease if retry_in is None else min(retry_in, half_lease)

    async def _idle(self, delay: float | None) -> None:
        """Wait for ``wake()``, or at most ``delay`` seconds when a retry is due then."""
        if delay is None:
            await self._wake.wait()
            return
        if delay <= 0:
            return
        woken = asyncio.ensure_future(self._wake.wait())
        slept = asyncio.ensure_future(self._sleep(delay))
        try:
            await asyncio.wait({woken, slept}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (woken, slept):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
