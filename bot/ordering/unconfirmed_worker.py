"""``CreateFollowUp``: finishes the creates whose answer was lost.

::

    follow_up = CreateFollowUp(store, client, channel, alert_operators=tell_operators)
    chats = ChatService(engine, store, on_unconfirmed=follow_up.wake)
    scheduler.add(follow_up)                        # a leader-only job of bot.jobs

The Partner client sends a create again only when it surely never left or was rate limited
(``bot.partner.client``); every other failure (a time-out after sending, a dropped connection,
a 5xx) may have made the delivery, so it comes here. ``ChatService`` keeps each such create in
``store.unconfirmed`` (the customer was told it is being checked), due
``FIRST_FOLLOW_UP_SECONDS`` later. For each one that falls due this worker:

1. reads back (``lost_create_lookup.find_created``): a delivery that the lost answer made is
   found even if the service does not deduplicate idempotency keys;
2. otherwise sends the create again with the **same** request and key (once: any failure that
   may have landed comes back here, to be read back before the next try);
3. on a delivery (found or created), links it to the chat exactly as a normal create does
   (``store.deliveries`` with the saved order, so the relay and "repeat" work) and tells the
   customer; on a definite refusal, tells them plainly that it was not placed (and the
   operators when the refusal table says so); on another unknown outcome, or a list that
   cannot be read, tries again later, ``FollowUpTuning.retry_delay`` growing up to its cap;
4. after ``max_attempts`` tells the customer it could not be confirmed and alerts operators.

Creates whose sender died with them in flight come here too: every create is recorded before
it is sent (``store.create_intents``, ``bot.ordering.recorded_creates``), and each pass first
hands the intents whose lease ran out over to ``store.unconfirmed``, due at once, so the steps
above finish them (a kill -9 mid-create: the customer is told a lease, a look and a read-back
later, about 20 s). An intent answered with a delivery (linked) whose turn died before its
reply went out is handed over settled, with its notice: only the notice is sent.

The rows live in the store, so a restart resumes every follow-up where it was. With several
processes on one store (more bots on a shared database; ``deliverybot mcp`` beside
``deliverybot run``) the rows are shared and only one process may work them, or two would read
back and send one create again at once (and alert the operators twice): it is a leader-only job
(``bot.jobs``; the MCP process never runs it), and ``look_seconds`` makes it look for rows the
others kept, which cannot wake it: every ``FIRST_FOLLOW_UP_SECONDS`` while any create is in
flight or kept, every ``IDLE_LOOK_SECONDS`` while none is, and the moment the next row falls due
or the next intent's lease runs out. A pass that finds nothing due is two reads (when the next
row and the next lease are due). So a bot that takes no order costs one such pass every 10 s (a
host of a thousand idle businesses runs a thousand of these); a create another process lost
while none was in flight here is followed up 2 to 10 s after its failure (2 s while creates
are in flight or kept); and an intent another process recorded and died with is still taken
over the moment its lease runs out, since a lease outlasts the idle look. The customer's
notice is said in the language they ordered in (kept with the row; operator alerts are in the
business's default), and goes out through the relay's ``Sender`` under a sent marker: settling
and the notice are two steps, and a crash between them sends the notice after the restart, once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from bot.clocks import Clock, Sleep
from bot.jobs import Job
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.ordering.alerting import AlertOperators, send_alert
from bot.ordering.creator import refusal_for
from bot.ordering.kept_photos import KeptPhotos
from bot.ordering.lost_create_lookup import find_created
from bot.ordering.photo_origin import RehostedPhotos
from bot.ordering.settled_links import settled_link
from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest, Delivery
from bot.partner.retry import exponential_delay
from bot.partner.same_order import CLOCK_SKEW_SECONDS
from bot.relay.channel_protocol import Channel, SendFailed
from bot.relay.outbox import Outgoing, Sender
from bot.store import CreatedLink, SendKey, Store, UnconfirmedCreate
from conversations.texts import dialogue
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS

logger = logging.getLogger(__name__)

NOTICE_KIND = "order_outcome"

#: When the first follow-up of a lost create falls due, in seconds after the failure: soon, so
#: a brief outage costs the customer seconds (the client no longer retries such a create by
#: itself), yet not at once, so that a create the service was still finishing when its answer
#: was lost has landed and shows in the read-back.
FIRST_FOLLOW_UP_SECONDS = 2.0

#: How often the follow-up looks for the creates other processes keep (``look_seconds``: a
#: shared store, or agent channels whose ``deliverybot mcp`` keeps creates) while none is in
#: flight or kept: far less than a create intent's lease, so a dead sender's intent is seen
#: before its lease runs out; every ``FIRST_FOLLOW_UP_SECONDS`` while some are.
IDLE_LOOK_SECONDS = 10.0

#: How long a worker holds a row it follows up: far longer than one follow-up takes (a read-back
#: of a few pages and one create, each within the client's time-outs and the rate budget's
#: wait), so no other worker starts the same attempt; a worker that died mid-way leaves it due
#: again after this.
CLAIM_SECONDS = 300.0


@dataclass(frozen=True)
class FollowUpTuning:
    """How long a lost create is followed up.

    * the first attempt falls due ``FIRST_FOLLOW_UP_SECONDS`` after the failure (set by
      ``ChatService``); after the n-th the next waits ``base * 2**(n-1)`` seconds, at most
      ``cap``;
    * ``max_attempts`` bounds it: 10 attempts at 2 s, then 15 s .. 600 s apart, span about 46
      minutes;
    * ``readback_pages`` pages of 50 of the newest deliveries are searched before each retry;
    * ``clock_skew_seconds``: a delivery the service stamped up to this long before the bot
      first sent the create still counts (the two clocks differ).
    """

    base_seconds: float = 15.0
    cap_seconds: float = 600.0
    max_attempts: int = 10
    readback_pages: int = 4
    clock_skew_seconds: float = CLOCK_SKEW_SECONDS
    batch_size: int = 50

    def __post_init__(self) -> None:
        if not 0 < self.base_seconds <= self.cap_seconds:
            raise ValueError("need 0 < base_seconds <= cap_seconds")
        if self.max_attempts < 1 or self.readback_pages < 1 or self.batch_size < 1:
            raise ValueError("max_attempts, readback_pages and batch_size must be at least 1")

    def retry_delay(self, attempts: int) -> float:
        """Seconds to wait after ``attempts`` attempts."""
        return exponential_delay(attempts, self.base_seconds, self.cap_seconds)


class CreateFollowUp(Job):
    """Follows up ``store.unconfirmed``; see the module docstring. ``sleep`` is ``settle``'s."""

    name = "create-follow-up"
    leader_only = True

    def __init__(
        self,
        store: Store,
        client: PartnerClient,
        channel: Channel,
        *,
        alert_operators: AlertOperators | None = None,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        tuning: FollowUpTuning | None = None,
        rehosted: RehostedPhotos | None = None,
        look_seconds: float | None = None,
        metrics: Metrics = NO_METRICS,
        texts: BusinessTexts | None = None,
    ) -> None:
        # A follower asks to lead as often as a busy leader looks, so a leader that stopped
        # leaves its rows no longer than that.
        follower_look = None if look_seconds is None else min(look_seconds, FIRST_FOLLOW_UP_SECONDS)
        super().__init__(look_seconds=look_seconds, follower_look=follower_look)
        # The business's catalogues: each notice in its order's language, alerts in the
        # business's (the shipped ones when none is given).
        self._texts = texts or BusinessTexts(DEFAULT_TEXTS)
        self._store = store
        self._metrics = metrics  # the business's: counts the creates found settled later
        self._rehosted = rehosted or RehostedPhotos(None)
        self._kept = KeptPhotos(self._rehosted, store.media, store.clock)
        self._client = client
        self._sender = Sender(store, channel, metrics, self._texts)
        self._alert_operators = alert_operators
        self._clock = clock
        self._sleep = sleep
        self.tuning = tuning or FollowUpTuning()
        self._lock = asyncio.Lock()

    async def run_once(self) -> float | None:
        """Take over the creates whose sender died, then follow up what is due
        (``ChatService`` wakes it when it keeps a create); the next look is due when the next
        row falls due or the next intent's lease runs out, and with ``look_seconds`` (other
        processes keep creates too) at most ``FIRST_FOLLOW_UP_SECONDS`` away while any is
        in flight or kept. With none, two reads and the next look after ``look_seconds``."""
        dues = await self._dues()
        if dues and min(dues) <= self._clock():
            await self._store.create_intents.hand_over_expired(
                self._clock(), self.tuning.batch_size
            )
            await self.process_due()
            dues = await self._dues()
        if not dues:
            return None
        wait = min(dues) - self._clock()
        if self.look_seconds is not None:
            # Creates are being made: another process's may be lost any moment, due soon.
            wait = min(wait, FIRST_FOLLOW_UP_SECONDS)
        return wait

    async def _dues(self) -> list[float]:
        """When the next kept row falls due and the next intent's lease runs out (those
        there are)."""
        dues = (
            await self._store.unconfirmed.next_due(),
            await self._store.create_intents.next_expiry(),
        )
        return [due for due in dues if due is not None]

    def backoff(self, failures: int) -> float:
        """After a pass that failed (the store): the rows wait there, looked at again after
        the tuning's growing delay, not every ``look_seconds``."""
        return self.tuning.retry_delay(failures)

    async def process_due(self) -> int:
        """One pass over the rows due now; returns how many were handled."""
        async with self._lock:
            rows = await self._store.unconfirmed.due(self._clock(), self.tuning.batch_size)
            handled = 0
            for row in rows:
                # Another worker may have it (a leader that lost its lock mid-pass, and the
                # next one): one read-back and one re-send per attempt, whoever makes it.
                until = self._clock() + CLAIM_SECONDS
                if not await self._store.unconfirmed.claim(row, until):
                    continue
                handled += 1
                try:
                    await self._follow(row)
                except Exception:
                    logger.exception("following up create %s failed", row.idempotency_key)
                    await (self._later(row) if row.settled else self._unknown(row))
            return handled

    async def settle(self) -> None:
        """Follow up until no row is left, sleeping (the injected ``sleep``) until each falls
        due: the demo's ``:wait`` and tests over a fake clock."""
        while True:
            await self.process_due()
            due = await self._store.unconfirmed.next_due()
            if due is None:
                return
            await self._sleep(max(due - self._clock(), 0.0))

    # --- one row ----------------------------------------------------------------------------

    async def _follow(self, row: UnconfirmedCreate) -> None:
        if row.settled:
            await self._tell(row)
            return
        request = CreateDeliveryRequest.model_validate_json(row.request)
        since = row.created_at - self.tuning.clock_skew_seconds
        try:
            found = await find_created(
                self._client,
                request,
                since=since,
                pages=self.tuning.readback_pages,
                skip=self._linked,
            )
        except errors.PartnerError as error:
            # Without the read-back a retry could duplicate on a service that does not
            # deduplicate keys: wait for the list instead.
            logger.info("read-back for create %s failed: %s", row.idempotency_key, error)
            await self._unknown(row)
            return
        if found is not None:
            logger.info("create %s found by read-back: %s", row.idempotency_key, found.id)
            await self._created(row, found)
            return
        logger.info("create %s not found by read-back: sent again", row.idempotency_key)
        try:
            delivery = await self._client.create_delivery(request)
        except errors.PartnerError as error:
            photos = request.packageImages
            given = bool(self._rehosted.given(photos))
            # Photos that expired while the answer was lost are nobody's setting to fix.
            gone = isinstance(error, errors.ImageHostRejected) and bool(
                await self._kept.gone(photos)
            )
            await self._refused(row, error, given_photos=given, gone_photos=gone)
            return
        await self._created(row, delivery)

    async def _linked(self, delivery_id: str) -> bool:
        return await self._store.deliveries.get(delivery_id) is not None

    async def _created(self, row: UnconfirmedCreate, delivery: Delivery) -> None:
        link = settled_link(delivery, sent_at=row.created_at)
        notice = dialogue.went_through(self._texts.catalogue_for(row.language), delivery)
        if await self._settle(row, notice, link):
            self._metrics.count_settled_later(row.saved_order)

    async def _refused(
        self,
        row: UnconfirmedCreate,
        error: errors.PartnerError,
        *,
        given_photos: bool,
        gone_photos: bool,
    ) -> None:
        refused = refusal_for(error, given_photos=given_photos, gone_photos=gone_photos)
        if refused.outcome_unknown:
            logger.info("create %s still unanswered: %s", row.idempotency_key, error)
            await self._unknown(row)
            return
        if refused.reason == "rate_limited":
            wait = max(refused.retry_after or 0.0, self.tuning.retry_delay(row.attempts + 1))
            await self._store.unconfirmed.retry_later(
                row.idempotency_key, row.attempts + 1, self._clock() + wait
            )
            return
        logger.warning("create %s refused on follow-up (%s)", row.idempotency_key, refused.reason)
        notice = dialogue.NOT_PLACED.render(self._texts.catalogue_for(row.language))
        if not await self._settle(row, notice):
            return  # settled elsewhere, and the operators told there
        alert = dialogue.operator_alert(self._texts.business_catalogue(), refused)
        if alert is not None:
            await self._alert(alert, kind="create_refused")

    async def _unknown(self, row: UnconfirmedCreate) -> None:
        attempts = row.attempts + 1
        if attempts < self.tuning.max_attempts:
            at = self._clock() + self.tuning.retry_delay(attempts)
            await self._store.unconfirmed.retry_later(row.idempotency_key, attempts, at)
            return
        logger.error("create %s unconfirmed after %d attempts", row.idempotency_key, attempts)
        notice = dialogue.STILL_UNKNOWN.render(self._texts.catalogue_for(row.language))
        if not await self._settle(row, notice):
            return
        request = CreateDeliveryRequest.model_validate_json(row.request)
        place = f"{request.pickupAddress} to {request.deliveryAddress}"
        await self._alert(
            dialogue.still_unknown_alert(
                self._texts.business_catalogue(),
                row.idempotency_key,
                row.chat.id,
                place,
                request.packageDescription,
                attempts,
            ),
            kind="create_unconfirmed",
        )

    async def _settle(
        self, row: UnconfirmedCreate, notice: str, link: CreatedLink | None = None
    ) -> bool:
        """Settle ``row`` and tell its customer; False when it was settled already."""
        if not await self._store.unconfirmed.settle(row, notice, link):
            return False
        settled = await self._store.unconfirmed.get(row.idempotency_key)
        if settled is not None:
            await self._tell(settled)
        return True

    async def _tell(self, row: UnconfirmedCreate) -> None:
        assert row.notice is not None
        key = SendKey(f"create:{row.idempotency_key}", row.chat, NOTICE_KIND)
        try:
            await self._sender.deliver(Outgoing(key, row.notice))
        except SendFailed:
            if row.attempts + 1 < 2 * self.tuning.max_attempts:
                await self._later(row)
                return
            logger.error("the outcome of create %s could not be told", row.idempotency_key)
        await self._store.unconfirmed.remove(row.idempotency_key)

    async def _later(self, row: UnconfirmedCreate) -> None:
        """Try a settled row's notice (or an open row after a bug) again later."""
        attempts = row.attempts + 1
        at = self._clock() + self.tuning.retry_delay(attempts)
        await self._store.unconfirmed.retry_later(row.idempotency_key, attempts, at)

    async def _alert(self, text: str, *, kind: str) -> None:
        await send_alert(self._alert_operators, text, kind=kind)
