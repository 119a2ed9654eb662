"""``RiderTracker``: the leader-only job that shows each tracked delivery's rider to its customer.

Every ``[tracking] interval_seconds`` the leading process (``bot.jobs``: of the instances on
one store, one tracks for all) reads the deliveries to track (``store.rider_positions``:
``matched``, ``picked_up`` or ``in_transit`` with a rider), and when some customer's channel
shows riders, reads every rider's last fix with **one** ``GET /riders`` for all of them, never
one call per delivery. For each delivery it judges the rider's fix (``fixes``: fresh, recent,
not a jump), estimates the arrival (``arrival``), says it in the customer's language
(``tracking_texts``) and hands the view to the chat's channel (``RiderMap``), which shows it its
own way. It keeps the last fix shown and the channel's record, one row per delivery, and when
the delivery ends, loses its rider or changes rider, has the channel stop what it shows and
drops the row, fix and all. With nothing tracked a pass reads the store only: no API call.

The rate budget: the API key's per-minute limit is shared with every customer chat, so the read
is made only while the key has room for the customers' share on top
(``RequestLimiter.expected_wait``, which on a shared store counts every instance's requests);
otherwise the pass shows nothing new and the next one tries again. One request per interval is
3 a minute at the default 20 s, counted apart from the orders' calls
(``deliverybot_tracking_reads_total``).

Privacy: a view is built from the one rider the delivery's record names and goes to the chat of
that delivery's link only (``store.rider_positions.tracked`` joins them), and only while the
delivery is active.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from bot.clocks import Clock
from bot.config.tracking_section import TrackingConfig
from bot.jobs import Job
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import Rider
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.store import Store
from bot.store.rider_positions import Fix, TrackedDelivery
from bot.tracking.arrival import eta_minutes, remaining_km
from bot.tracking.fixes import judge_fix, reported_fix
from bot.tracking.rider_map import NOTHING_SHOWN, RiderMap, RiderMaps
from bot.tracking.rider_view import RiderView
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.tracking_texts import rider_text

log = logging.getLogger(__name__)

UNREACHABLE: Final = "unreachable"
"""The record of a chat that cannot be messaged (it blocked the bot): nothing more is shown
there for the delivery, and its channel is never asked again."""

CUSTOMERS_SHARE: Final = 0.5
"""Of the key's per-minute limit, the part the read leaves to customers' requests: the read
waits for a pass when the key could not take that many more right now."""

_ASSUMED_REQUESTS_PER_MINUTE: Final = 60  # the smallest plan's, while the limit is unknown


@dataclass(frozen=True)
class TrackingPass:
    """What one pass did: deliveries looked at, whether the riders were read (and if not, why),
    views shown (a channel was called with one) and deliveries closed."""

    tracked: int = 0
    read: str = "none"  # none (nothing to show), ok, busy (the key's budget), failed
    shown: int = 0
    ended: int = 0


class RiderTracker(Job):
    """The tracking job; see the module docstring. ``maps`` are the channels
    (``bot.channels.Channels``); ``texts`` the business's (each customer's language)."""

    name = "rider-tracker"
    leader_only = True

    def __init__(
        self,
        store: Store,
        client: PartnerClient,
        maps: RiderMaps,
        *,
        settings: TrackingConfig,
        texts: BusinessTexts,
        clock: Clock = time.time,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        super().__init__(look_seconds=settings.interval_seconds)
        self._store = store
        self._client = client
        self._maps = maps
        self._settings = settings
        self._texts = texts
        self._clock = clock
        self._metrics = metrics

    async def run_once(self) -> float:
        """One pass; the next starts an interval after this one started (a pass for hundreds
        of deliveries takes seconds of Telegram's pace, which must not stretch the interval),
        or at a wake."""
        started = time.monotonic()
        await self.track_once()
        return max(0.0, self._settings.interval_seconds - (time.monotonic() - started))

    def backoff(self, failures: int) -> float:
        """A failed pass (the store) is followed by the next one an interval later."""
        return self._settings.interval_seconds

    async def track_once(self) -> TrackingPass:
        """One pass over every tracked delivery; see the module docstring."""
        tracked = await self._store.rider_positions.tracked()
        if not tracked:
            return TrackingPass()
        to_show = any(d.active and self._maps.rider_map(d.chat) is not None for d in tracked)
        riders: Mapping[str, Rider] | None = None
        read = "none"
        if to_show:
            read, riders = await self._read_riders()
            self._metrics.count_tracking_read(read)
        shown = ended = 0
        for delivery in tracked:
            outcome = await self._track(delivery, riders)
            shown += outcome == "shown"
            ended += outcome == "ended"
        return TrackingPass(len(tracked), read, shown, ended)

    async def _read_riders(self) -> tuple[str, Mapping[str, Rider] | None]:
        limiter = self._client.limiter
        per_minute = limiter.requests_per_minute or _ASSUMED_REQUESTS_PER_MINUTE
        if await limiter.expected_wait(ahead=int(per_minute * CUSTOMERS_SHARE)) > 0:
            return "busy", None  # customers' requests go first; the next pass reads
        try:
            riders = await self._client.list_riders()
        except errors.PartnerError as exc:
            # The code or the error's type only: a service's text never goes further.
            log.warning("reading the riders' positions failed (%s)", _reason(exc))
            return "failed", None
        return "ok", {rider.id: rider for rider in riders}

    async def _track(self, delivery: TrackedDelivery, riders: Mapping[str, Rider] | None) -> str:
        """Show, end or leave one delivery; what was done (shown, ended, kept)."""
        rider_map = self._maps.rider_map(delivery.chat)
        kept = delivery.kept
        if not delivery.active or rider_map is None or delivery.rider_id is None:
            return await self._close(delivery, rider_map)
        if kept is not None and kept.rider_id != delivery.rider_id:
            # Another rider took the delivery: the first one's position is shown no more.
            if await self._close(delivery, rider_map) != "ended":
                return "kept"
            kept = None
        if kept is not None and kept.shown == UNREACHABLE:
            return "kept"
        if riders is None:
            return "kept"  # not read this pass: nothing new to show
        rider = riders.get(delivery.rider_id)
        judged = judge_fix(
            reported_fix(rider),
            None if kept is None else kept.fix,
            now=self._clock(),
            max_age_seconds=self._settings.max_fix_age_seconds,
        )
        view = self._view(delivery, delivery.rider_id, rider, judged.fix)
        before = NOTHING_SHOWN if kept is None else kept.shown
        try:
            shown = await rider_map.show(delivery.chat, view, before)
        except ChatUnreachable:
            shown = UNREACHABLE
        except SendFailed as exc:
            log.info("the rider of %s was not shown this time (%s)", view.ref, exc)
            return "kept"
        self._metrics.count_tracking_shown(delivery.chat.channel, judged.fix is not None)
        if kept is None or kept.fix != judged.fix or kept.shown != shown:
            await self._store.rider_positions.keep(
                delivery.delivery_id, delivery.rider_id, judged.fix, shown
            )
        return "shown"

    async def _close(self, delivery: TrackedDelivery, rider_map: RiderMap | None) -> str:
        """Stop what the chat shows of the delivery's rider and drop the row: "ended", or
        "kept" when the channel could not stop it this time (the fix is dropped anyway)."""
        kept = delivery.kept
        if kept is None:
            return "ended"
        if rider_map is not None and kept.shown not in (NOTHING_SHOWN, UNREACHABLE):
            try:
                await rider_map.end(delivery.chat, None, kept.shown)
            except ChatUnreachable:
                pass
            except SendFailed as exc:
                log.info(
                    "tracking of %s not stopped this time (%s)",
                    short_ref(delivery.delivery_id),
                    exc,
                )
                if kept.fix is not None:  # the position goes now; the stop is tried again
                    await self._store.rider_positions.keep(
                        delivery.delivery_id, kept.rider_id, None, kept.shown
                    )
                return "kept"
        await self._store.rider_positions.drop(delivery.delivery_id)
        return "ended"

    def _view(
        self, delivery: TrackedDelivery, rider_id: str, rider: Rider | None, fix: Fix | None
    ) -> RiderView:
        catalogue = self._texts.catalogue_for(delivery.language)
        to_pickup = delivery.status == "matched"
        vehicle = None if rider is None else rider.vehicle_type
        name = delivery.rider_name or (None if rider is None else rider.name)
        eta: int | None = None
        if fix is not None and delivery.dropoff is not None:
            km = remaining_km(
                fix.point, pickup=delivery.pickup, dropoff=delivery.dropoff, to_pickup=to_pickup
            )
            eta = eta_minutes(km, self._settings.speed_kmh(vehicle))
        text = rider_text(
            catalogue,
            delivery_id=delivery.delivery_id,
            rider_name=name,
            to_pickup=to_pickup,
            eta_minutes=eta,
            shown=fix is not None,
        )
        return RiderView(
            delivery_id=delivery.delivery_id,
            ref=short_ref(delivery.delivery_id),
            milestone=delivery.status,
            rider_id=rider_id,
            rider_name=name,
            vehicle_type=vehicle,
            position=fix,
            eta_minutes=eta,
            text=text,
        )


def _reason(error: errors.PartnerError) -> str:
    code = getattr(error, "code", None)
    return str(code) if code else type(error).__name__
