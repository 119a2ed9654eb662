"""``Relay``: the inbox worker that turns stored Partner events into chat messages.

::

    relay = Relay(store, channel, operators=[operator_chat], settings=config.relay)
    app = create_web_app(store=store, signing_secrets=secrets, on_event=relay.wake)
    scheduler.add(relay)                         # a job of bot.jobs: woken, or due

Each pass reads the pending events in the inbox's order (the service's ``created``, then
arrival), plans what each owes the chats (``bot.relay.planner``) and queues those messages per
chat (``bot.relay.chat_queues``: each chat served on its own, in turn with the others, a chat's
backlog sent as one message), then goes on to the next event without waiting for the sends.
An event is marked processed only after every message it owes went out (alone, or inside a
message that gathered a backlog), so a crash at any point means the event is handled again
after a restart, and the sent markers (``bot.relay.outbox``) keep a chat from seeing a message
twice. Each message is claimed (its own commit) before it is sent; once the event's messages
are out, marking them sent, the chat's new view, the tracking link and "processed" are one
commit (``store.relayed``) instead of one each. At most ``RelayTuning.max_in_flight`` events
are queued or being sent at once, which also bounds what a crash can repeat.

Each pass *claims* its events (``inbox.claim_batch``, leased to this store's holder; each
pass renews the leases of what is still in flight), so the relays of every process sharing the
store share the inbox and one delivery's events stay with one of them; on a shared store a
relay also looks at the inbox every half lease (its ``look_seconds``), for the events of a
process that died and to keep its own leases. On a store of its own the claims are the relay's
alone.

Order per delivery: a delivery's events are planned in order, each against the chat's view as
it will be once the earlier ones are out, and finished in that order. While an event waits
(its delivery is not linked yet, or a message failed), the later events of the same delivery
wait behind it; other deliveries go on. That holds within one pass too: an event whose chain
stopped for a retry while the pass was still starting other events holds back its delivery's
later ones in that pass, which would otherwise start a chain of their own, move the chat's view
past it, and leave it to be planned as older and never said.

Waiting for a link: an event can outrun the bot's record of its delivery. An unlinked
delivery may still become a chat's only while a create of the same order is open, recorded and
in flight (``store.create_intents``) or being followed up after its answer was lost
(``store.unconfirmed``) (``bot.relay.open_creates``): its event is then held, looked at
again every ``OPEN_CREATE_RECHECK_SECONDS``, until it is linked (then told in the customer's
channel), the create is settled without it, or ``OPEN_CREATE_HOLD_SECONDS`` after it arrived
(then it goes to operators only). An unlinked delivery no open create matches was ordered
elsewhere (the dashboard, the public portal): its events go to operators only at once (after
``RelayTuning``'s ``link_attempts``, 1 by default).

Failures: a channel error other than ``ChatUnreachable`` leaves the event pending, recorded with
``inbox.record_failure``, and it is retried after a growing, capped delay (``RelayTuning``);
after ``max_attempts`` it is given up and logged. An unexpected error while handling one event
is logged and retried the same way, so it cannot stop the other deliveries. A pass that fails
as a whole (the store) is backed off by the scheduler, by the same delays. The delays live in
memory: after a restart every pending event is tried at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pydantic

from bot.channel_kind import CapabilitiesOf, no_capabilities
from bot.chat_ref import ChatRef
from bot.clocks import Clock, Sleep
from bot.config import RelayConfig
from bot.jobs import Job
from bot.log_context import log_context
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.partner.models import WebhookEvent
from bot.relay.channel_protocol import Channel, ChatTurns, SendFailed
from bot.relay.chat_queues import ChatQueues
from bot.relay.open_creates import open_create_may_have_made
from bot.relay.outbox import Outcome, Sender
from bot.relay.planner import Plan, Planner, history_of
from bot.relay.tuning import RelayTuning
from bot.store import DeliveryLink, InboxEvent, SentReceipt, Store, ViewChange
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS

logger = logging.getLogger(__name__)


# Deliveries found to be ordered elsewhere, so their later events skip the wait for a link.
_FOREIGN_MEMORY = 10_000

#: The longest an event of an unlinked delivery waits, after it arrived, while a create of
#: the same order is open and may still link it: a create in flight is answered within the
#: client's time-outs, one whose process died is taken over a lease (15 s) later, and a lost
#: answer is settled by the follow-up's first looks (2 s, then 15, 30, 60, 120 s apart); past
#: this the service has been unreachable for minutes and the operators are told instead.
OPEN_CREATE_HOLD_SECONDS = 300.0
#: How often such a held event looks for its link.
OPEN_CREATE_RECHECK_SECONDS = 2.0


@dataclass(frozen=True)
class _InFlight:
    """An event whose messages are queued: what it owes, and what became of each message."""

    stored: InboxEvent
    plan: Plan
    outcomes: list[asyncio.Future[Outcome]]


class Relay(Job):
    """Relays the inbox to chats; see the module docstring.

    ``operators`` are the operator chats; ``settings`` the ``[relay]`` section (its defaults
    when None). ``clock`` and ``sleep`` drive the retry delays and a chat's wait for its turn
    (tests inject fakes); ``phone_region`` lets receiver phones written without a country code
    be compared. ``turns`` is each chat's pacing (``bot.channels.Channels`` asks the chat's
    channel), taken before a chat's message is composed; without it a ``PacedChannel`` says
    how far behind a chat is. ``capabilities`` says what each chat's channel can do (its
    registration's): a channel whose customers read news as data gets each event as data.
    ``on_view_changed`` is called after an event moved a chat's view of its delivery.
    """

    name = "relay"

    def __init__(
        self,
        store: Store,
        channel: Channel,
        *,
        operators: Sequence[ChatRef],
        settings: RelayConfig | None = None,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        tuning: RelayTuning | None = None,
        phone_region: str | None = None,
        turns: ChatTurns | None = None,
        metrics: Metrics = NO_METRICS,
        texts: BusinessTexts | None = None,
        capabilities: CapabilitiesOf = no_capabilities,
        on_view_changed: Callable[[], None] | None = None,
    ) -> None:
        # On a shared store a process that died leaves events whose lease runs out without
        # anyone waking this relay, and this relay's own leases on events still being sent
        # need renewing: it looks at least twice a lease.
        super().__init__(look_seconds=store.lease_seconds / 2 if store.shared else None)
        self._store = store
        self._clock = clock
        self._tuning = tuning or RelayTuning()
        # Told when an event moved a chat's view of its delivery (the rider tracker: a rider
        # to start showing, or a delivery that ended), once the move is committed.
        self._on_view_changed = on_view_changed
        # The business's catalogues: each chat told in its order's language, operators in the
        # business's (the shipped ones when none is given).
        texts = texts or BusinessTexts(DEFAULT_TEXTS)
        self._planner = Planner(
            store,
            channel,
            operators=operators,
            settings=settings or RelayConfig.model_validate({}),
            texts=texts,
            phone_region=phone_region,
            capabilities=capabilities,
        )
        self._queues = ChatQueues(
            Sender(store, channel, metrics, texts),
            channel,
            sleep=sleep,
            coalesce_chars=self._tuning.coalesce_chars,
            turns=turns,
        )
        self._lock = asyncio.Lock()
        self._retry_at: dict[str, float] = {}
        self._foreign: OrderedDict[str, None] = OrderedDict()
        # Per delivery with events in flight: those events in order, the task finishing them,
        # and the chat's view as it will be once they are all out.
        self._chains: dict[str, deque[_InFlight]] = {}
        self._finishers: dict[str, asyncio.Task[None]] = {}
        self._projected: dict[str, DeliveryLink | None] = {}
        self._in_flight: set[str] = set()
        # Deliveries whose chain stopped for a retry since this pass began: their later events
        # in the pass must not start a fresh chain ahead of the one left waiting (the next
        # pass reads the inbox again, where that one's retry time holds them).
        self._stopped: set[str] = set()
        self._finish_watchers: list[set[str]] = []  # process_pending's: ids finished

    def retry_in(self) -> float | None:
        """Seconds until the next event falls due for a retry; None when none waits.

        An event already due but still pending after a pass is held behind an earlier event of
        its delivery, whose own retry time is the one that matters.
        """
        now = self._clock()
        return min((at - now for at in self._retry_at.values() if at > now), default=None)

    def in_flight(self) -> int:
        """Events whose messages are queued or being sent."""
        return len(self._in_flight)

    async def run_once(self) -> float | None:
        """One pass (the web app wakes it on new events): queue what may go; the next look is
        due at the next retry."""
        await self._plan_pending()
        return self.retry_in()

    def backoff(self, failures: int) -> float:
        """After a pass that failed (the store), the events' own retry delays."""
        return self._tuning.retry_delay(failures)

    async def stop(self) -> None:
        """Cancel the queues and the finishers (the relay is stopping): their events stay
        pending, and what went out is marked as far as the store allows."""
        await self._queues.close()
        finishers = list(self._finishers.values())
        for finisher in finishers:
            finisher.cancel()
        await asyncio.gather(*finishers, return_exceptions=True)

    async def process_pending(self) -> int:
        """Relay what is pending and wait until it is out; returns how many events were
        processed (taken out of the inbox, given up included)."""
        started: set[str] = set()
        finished: set[str] = set()
        self._finish_watchers.append(finished)
        try:
            while True:
                capped = await self._plan_pending(started)
                while self._finishers:
                    await asyncio.gather(*self._finishers.values())
                if not capped:
                    # Events the scheduled passes had in flight may have finished meanwhile: not
                    # counted.
                    return len(started & finished)
        except BaseException:
            # Cancelled (or the process is going down): nothing of this pass runs on.
            await self.stop()
            raise
        finally:
            self._finish_watchers.remove(finished)

    async def _plan_pending(self, started: set[str] | None = None) -> bool:
        """One pass over the inbox: queue the messages of every event that may go now (their
        ids added to ``started``). True when it stopped at ``max_in_flight`` with events left
        to plan."""
        async with self._lock:
            self._stopped.clear()
            limit = len(self._in_flight) + self._tuning.batch_size
            if self._in_flight:
                # Sends still under way: keep the other processes off their events.
                await self._store.inbox.renew_leases(self._store.holder, self._store.lease_seconds)
            while True:
                batch = await self._store.inbox.claim_batch(
                    self._store.holder, limit, self._store.lease_seconds
                )
                waiting, capped = await self._pass(batch, set() if started is None else started)
                if capped or len(batch) < limit:
                    return capped
                # Waiting and in-flight events stay at the head of the inbox's order: read
                # past them.
                limit = waiting + len(self._in_flight) + self._tuning.batch_size

    async def _pass(self, batch: list[InboxEvent], started: set[str]) -> tuple[int, bool]:
        """Plan the batch's events that may go; returns (events left waiting, capped)."""
        held: set[str] = set()  # deliveries with an earlier event still waiting
        waiting = 0
        now = self._clock()
        for stored in batch:
            delivery_id = stored.delivery_id
            if stored.event_id in self._in_flight:
                continue
            due = self._retry_at.get(stored.event_id, -math.inf) <= now
            # ``_stopped``: an earlier event of the delivery, started in this pass or before,
            # has since been left for a retry (its chain closed): this one waits behind it.
            if delivery_id in held or not due or delivery_id in self._stopped:
                held.add(delivery_id)
                waiting += 1
                continue
            if len(self._in_flight) >= self._tuning.max_in_flight:
                return waiting, True
            if await self._try(stored):
                started.add(stored.event_id)
            else:
                held.add(delivery_id)
                waiting += 1
        return waiting, False

    async def _try(self, stored: InboxEvent) -> bool:
        """``_start``, with an unexpected failure kept to its own event (retried later)."""
        with log_context(event=stored.event_id, delivery=stored.delivery_id):
            logger.debug("relaying %s event %s", stored.event_type, stored.event_id)
            try:
                return await self._start(stored)
            except Exception as exc:
                logger.exception("relaying event %s failed", stored.event_id)
                # If the store itself is failing this raises too, and the scheduler backs off.
                await self._retry_later(stored, f"relay error: {type(exc).__name__}")
                return False

    async def _start(self, stored: InboxEvent) -> bool:
        """Plan one event and queue its messages; False when it waits for a retry."""
        try:
            event = WebhookEvent.model_validate_json(stored.raw_body)
        except pydantic.ValidationError:
            # The web app parsed it before storing it, so this is a bug or a hand-edited file.
            logger.error("inbox event %s is not a webhook event; dropped", stored.event_id)
            await self._finish(stored, Plan())
            return True
        delivery_id = stored.delivery_id
        if delivery_id in self._chains:
            link = self._projected[delivery_id]
        else:
            link = await self._store.deliveries.get(delivery_id)
        if link is None and delivery_id not in self._foreign:
            if stored.attempts + 1 < self._tuning.link_attempts:
                await self._retry_later(stored, "delivery not linked to a chat yet")
                return False
            if await self._open_create_may_link(stored, event):
                self._retry_at[stored.event_id] = self._clock() + OPEN_CREATE_RECHECK_SECONDS
                return False
            # A create settled since the link was read left the open creates in the commit
            # that linked its delivery: read the link again before calling it nobody's.
            link = await self._store.deliveries.get(delivery_id)
            if link is None:
                self._remember_foreign(delivery_id)
                logger.info(
                    "delivery %s is not linked to a chat: event %s goes to operators only",
                    delivery_id,
                    stored.event_id,
                )
        plan = await self._planner.plan(event, link)
        plan = dataclasses.replace(plan, history=history_of(event, stored.received_at))
        if delivery_id in self._stopped:
            # The chain it was planned behind stopped for a retry meanwhile: it waits too.
            return False
        outcomes = [self._queues.submit(message, group=delivery_id) for message in plan.messages]
        self._in_flight.add(stored.event_id)
        self._chains.setdefault(delivery_id, deque()).append(_InFlight(stored, plan, outcomes))
        self._projected[delivery_id] = _projected(link, plan, self._clock())
        if delivery_id not in self._finishers:
            self._finishers[delivery_id] = asyncio.create_task(
                self._finish_chain(delivery_id), name=f"relay delivery {delivery_id}"
            )
        return True

    async def _finish_chain(self, delivery_id: str) -> None:
        """Finish the delivery's in-flight events in order, as their messages go out.

        After one of them has to wait for a retry, the later ones are not finished: what they
        sent is marked, and they wait behind it in the inbox.
        """
        chain = self._chains[delivery_id]
        stopped = False
        try:
            while chain:
                item = chain[0]
                outcomes = [await outcome for outcome in item.outcomes]
                sent = [outcome for outcome in outcomes if isinstance(outcome, SentReceipt)]
                failed = sum(isinstance(outcome, SendFailed) for outcome in outcomes)
                if stopped:
                    await self._record_sent(sent)
                else:
                    stopped = not await self._conclude(item, sent, failed)
                    if stopped:
                        self._stopped.add(delivery_id)
                        self.wake()  # the next pass learns the retry time
                chain.popleft()
                self._in_flight.discard(item.stored.event_id)
        except BaseException:
            # Stopping (or going down): mark what did go out, so it is not sent again.
            await self._record_sent([sent for item in chain for sent in _sent_so_far(item)])
            raise
        finally:
            for item in chain:
                self._in_flight.discard(item.stored.event_id)
            del self._chains[delivery_id], self._projected[delivery_id]
            del self._finishers[delivery_id]
            self.wake()  # room under ``max_in_flight``; later events of the delivery

    async def _conclude(self, item: _InFlight, sent: list[SentReceipt], failed: int) -> bool:
        """Bookkeeping once an event's messages are out (or some failed); True when it is
        processed, False when it waits for a retry."""
        stored = item.stored
        try:
            if failed:
                # Marked now, so the retry sends only what is still missing.
                await self._store.relayed.record_sent(sent)
                sent = []
                attempts = await self._retry_later(stored, f"{failed} message(s) not sent")
                if attempts < self._tuning.max_attempts:
                    return False
                logger.error(
                    "event %s given up after %d attempts: %d message(s) never sent",
                    stored.event_id,
                    attempts,
                    failed,
                )
            await self._finish(stored, item.plan, sent, gave_up=failed > 0)
            return True
        except Exception as exc:
            logger.exception("finishing event %s failed", stored.event_id)
            # What went out is marked on its own if the store lets it, or a restart sends it
            # again, once.
            await self._record_sent(sent)
            with contextlib.suppress(Exception):
                await self._retry_later(stored, f"relay error: {type(exc).__name__}")
            return False

    async def _record_sent(self, sent: list[SentReceipt]) -> None:
        with contextlib.suppress(Exception):
            await self._store.relayed.record_sent(sent)

    async def _open_create_may_link(self, stored: InboxEvent, event: WebhookEvent) -> bool:
        """Whether ``stored``'s delivery may still be linked by a create still open that is
        the same order, within ``OPEN_CREATE_HOLD_SECONDS`` of the event's arrival (see the
        module docstring)."""
        if self._clock() >= stored.received_at + OPEN_CREATE_HOLD_SECONDS:
            return False
        return await open_create_may_have_made(self._store, event.delivery)

    async def _retry_later(self, stored: InboxEvent, reason: str) -> int:
        attempts = await self._store.inbox.record_failure(stored.event_id, reason)
        self._retry_at[stored.event_id] = self._clock() + self._tuning.retry_delay(attempts)
        return attempts

    async def _finish(
        self,
        stored: InboxEvent,
        plan: Plan,
        sent: Sequence[SentReceipt] = (),
        *,
        gave_up: bool = False,
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
            else ViewChange(
                view.status,
                view.created,
                view.tracking_url,
                view.previous_status,
                view.told,
                view.details,
            ),
            tracking_sent=plan.tracking_sent,
            paid=plan.paid,
            gave_up=gave_up,
            history=plan.history,
        )
        self._retry_at.pop(stored.event_id, None)
        for watcher in self._finish_watchers:
            watcher.add(stored.event_id)
        if view is not None and self._on_view_changed is not None:
            self._on_view_changed()

    def _remember_foreign(self, delivery_id: str) -> None:
        self._foreign[delivery_id] = None
        if len(self._foreign) > _FOREIGN_MEMORY:
            self._foreign.popitem(last=False)


def _projected(link: DeliveryLink | None, plan: Plan, now: float) -> DeliveryLink | None:
    """``link`` as ``store.relayed.finish_event`` will leave it after ``plan``'s event."""
    if link is None:
        return None
    view = plan.view
    if view is not None:
        link = dataclasses.replace(
            link,
            status=view.status,
            status_created=view.created,
            tracking_url=view.tracking_url or link.tracking_url,
            told=link.told | view.told,
        )
    if plan.tracking_sent and link.tracking_sent_at is None:
        link = dataclasses.replace(link, tracking_sent_at=now)
    return link


def _sent_so_far(item: _InFlight) -> list[SentReceipt]:
    """The receipts of ``item``'s messages that went out already."""
    done = [
        future
        for future in item.outcomes
        if future.done() and not future.cancelled() and future.exception() is None
    ]
    return [receipt for future in done if isinstance(receipt := future.result(), SentReceipt)]
