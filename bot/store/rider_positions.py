"""``store.rider_positions``: the deliveries whose rider a customer may follow on a map, and the
one last GPS fix kept for each while it moves.

A delivery is *tracked* while its status is ``matched``, ``picked_up`` or ``in_transit`` and it
has a rider (``deliveries.rider_id``, as the service last showed it). For each one the tracking
job (``bot.tracking``) keeps one row: the rider the row is about, that rider's last accepted fix
(only the last: an older one is overwritten, never appended), and what the customer's channel
shows of it (``shown``: the channel's own record, e.g. Telegram's live message ids, as text the
store does not read). When the delivery ends (delivered, cancelled) or loses its rider, the job
stops what the channel shows and drops the row, fix and all: a rider's position is kept only
while the delivery it belongs to is active.

The route (``pickup`` and ``dropoff``) is what the service showed of the delivery
(``ListedDetails``), read here for the estimate of arrival and the console's map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef

TRACKED_STATUSES: Final = ("matched", "picked_up", "in_transit")
"""The statuses in which a delivery's rider is on the way: assigned, then carrying it."""


@dataclass(frozen=True)
class Point:
    """A place on Earth, in degrees."""

    latitude: float
    longitude: float


@dataclass(frozen=True)
class Fix:
    """A rider's GPS fix: where, and when it was taken (unix seconds)."""

    point: Point
    taken_at: float


@dataclass(frozen=True)
class KeptPosition:
    """The row kept for a tracked delivery: the rider it is about, their last accepted fix
    (None: none yet), what the customer's channel shows (``shown``, the channel's record; ""
    before anything was shown), and when tracking began (unix seconds)."""

    rider_id: str
    fix: Fix | None
    shown: str
    started_at: float


@dataclass(frozen=True)
class TrackedDelivery:
    """A delivery the tracking job looks at: an active one with a rider, or one that has a kept
    row still (ended, or its rider taken off), which the job closes.

    ``status``, ``rider_id`` and ``rider_name`` are the delivery's as the service last showed
    them; ``kept`` the job's row (None: not tracked yet); ``language`` the shipped language the
    customer ordered in (None: the business default).
    """

    delivery_id: str
    chat: ChatRef
    language: str | None
    status: str
    rider_id: str | None
    rider_name: str | None
    pickup: Point | None
    dropoff: Point | None
    kept: KeptPosition | None

    @property
    def active(self) -> bool:
        """Whether the customer may follow the rider now (tracked status, a rider)."""
        return self.status in TRACKED_STATUSES and self.rider_id is not None


@dataclass(frozen=True)
class RiderOnMap:
    """One active delivery's rider as the operators' console draws it: the delivery, its
    status, the rider, the last fix kept (None: none yet) and the drop-off."""

    delivery_id: str
    status: str
    rider_id: str
    rider_name: str | None
    fix: Fix | None
    dropoff: Point | None
