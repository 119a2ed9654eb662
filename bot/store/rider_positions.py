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

``RiderPositions`` (``store.rider_positions``) reads the tracked deliveries and keeps or drops
their rows (schema step 28); the values it hands out come first below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase
from bot.store.store_errors import UnknownDeliveryError

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


# A delivery is active while this holds: the condition of the partial index
# ``deliveries_tracked`` (schema step 28) word for word, so the active ones are read from it
# and no delivered row is.
_ACTIVE = (
    f"d.status IN ({', '.join(repr(status) for status in TRACKED_STATUSES)})"
    " AND d.rider_id IS NOT NULL"
)
_DELIVERY = """d.delivery_id, d.created_at, d.channel, d.chat_id, d.language, d.status,
        d.rider_id, d.rider_name, d.pickup_lat, d.pickup_lng, d.dropoff_lat, d.dropoff_lng"""
_KEPT = "p.rider_id, p.latitude, p.longitude, p.fix_at, p.shown, p.started_at"
# The active deliveries, each with its row if any; then the rows whose delivery is no longer
# active (few: the job drops them on its next pass), each delivery found by its key: the
# CROSS JOIN keeps SQLite's loop on the rows, whatever its statistics say of the two tables
# (PostgreSQL reads it as a plain join). One statement, so both halves are read at one
# moment: a delivery that ends in between is in exactly one of them.
_TRACKED = f"""SELECT {_DELIVERY}, {_KEPT}
    FROM deliveries d LEFT JOIN rider_positions p ON p.delivery_id = d.delivery_id
    WHERE {_ACTIVE}
    UNION ALL
    SELECT {_DELIVERY}, {_KEPT}
    FROM rider_positions p CROSS JOIN deliveries d
    WHERE d.delivery_id = p.delivery_id AND NOT ({_ACTIVE})"""  # noqa: S608 (fixed text only)
_ON_MAP = f"""SELECT d.delivery_id, d.created_at, d.status, d.rider_id, d.rider_name,
        d.dropoff_lat, d.dropoff_lng, p.rider_id, p.latitude, p.longitude, p.fix_at
    FROM deliveries d LEFT JOIN rider_positions p ON p.delivery_id = d.delivery_id
    WHERE {_ACTIVE}"""  # noqa: S608 (fixed text only)
_DELIVERY_EXISTS = "SELECT 1 FROM deliveries WHERE delivery_id = ?"
# The first keep's ``started_at`` stays; everything else is the newest keep's.
_KEEP = """INSERT INTO rider_positions (delivery_id, rider_id, latitude, longitude, fix_at,
        shown, started_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (delivery_id) DO UPDATE SET rider_id = excluded.rider_id,
        latitude = excluded.latitude, longitude = excluded.longitude, fix_at = excluded.fix_at,
        shown = excluded.shown, updated_at = excluded.updated_at"""
_DROP = "DELETE FROM rider_positions WHERE delivery_id = ?"


class RiderPositions:
    """``store.rider_positions``: the tracked deliveries, and the one row the tracking job keeps
    for each (its rider, their last fix, what the channel shows)."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def tracked(self) -> list[TrackedDelivery]:
        """Every active delivery (a tracked status and a rider) with its kept row if any, and
        every delivery that still has a row but is no longer active (ended, or its rider taken
        off), which the job closes; oldest delivery first."""
        rows = await self._db.fetch_all(_TRACKED)
        # Sorted here: the union's two halves come each in its own order (a few rows).
        rows.sort(key=_oldest_first)
        return [_tracked(row) for row in rows]

    async def keep(self, delivery_id: str, rider_id: str, fix: Fix | None, shown: str) -> None:
        """Keep exactly this as the delivery's row: ``rider_id``, ``fix`` (None clears the one
        kept: only the last fix is ever kept) and ``shown``. The first keep starts tracking
        (``started_at``); later ones replace the rest.

        Raises ``UnknownDeliveryError`` for a delivery not linked through ``store.deliveries``.
        """
        point = None if fix is None else fix.point
        now = self._clock()
        params = (
            delivery_id,
            rider_id,
            None if point is None else point.latitude,
            None if point is None else point.longitude,
            None if fix is None else fix.taken_at,
            shown,
            now,  # started_at, kept by a row already there
            now,
        )
        async with self._db.transaction() as tx:
            if await tx.fetch_one(_DELIVERY_EXISTS, (delivery_id,)) is None:
                raise UnknownDeliveryError(delivery_id)
            await tx.execute(_KEEP, params)

    async def drop(self, delivery_id: str) -> bool:
        """Forget the delivery's row, its rider's fix with it; False when there was none."""
        return await self._db.execute(_DROP, (delivery_id,)) > 0

    async def on_map(self) -> list[RiderOnMap]:
        """The active deliveries' riders for the operators' console map, oldest delivery
        first: each with the fix kept of that same rider (None: none yet, or the row is still
        about a rider taken off since) and the drop-off."""
        rows = await self._db.fetch_all(_ON_MAP)
        rows.sort(key=_oldest_first)
        return [_on_map(row) for row in rows]


def _oldest_first(row: Row) -> tuple[float, str]:
    return float(row[1]), str(row[0])


def _tracked(row: Row) -> TrackedDelivery:
    return TrackedDelivery(
        delivery_id=str(row[0]),
        chat=ChatRef(str(row[2]), int(row[3])),
        language=_text(row[4]),
        status=str(row[5]),
        rider_id=_text(row[6]),
        rider_name=_text(row[7]),
        pickup=_point(row[8], row[9]),
        dropoff=_point(row[10], row[11]),
        kept=None if row[12] is None else _kept(row[12:]),
    )


def _kept(row: Row) -> KeptPosition:
    point = _point(row[1], row[2])
    return KeptPosition(
        rider_id=str(row[0]),
        fix=None if point is None or row[3] is None else Fix(point, float(row[3])),
        shown=str(row[4]),
        started_at=float(row[5]),
    )


def _on_map(row: Row) -> RiderOnMap:
    rider_id = str(row[3])
    point = _point(row[8], row[9])
    # A row kept about another rider (reassigned since) is not this rider's position.
    same_rider = row[7] is not None and str(row[7]) == rider_id
    fix = Fix(point, float(row[10])) if same_rider and point and row[10] is not None else None
    return RiderOnMap(
        delivery_id=str(row[0]),
        status=str(row[2]),
        rider_id=rider_id,
        rider_name=_text(row[4]),
        fix=fix,
        dropoff=_point(row[5], row[6]),
    )


def _point(latitude: float | None, longitude: float | None) -> Point | None:
    if latitude is None or longitude is None:
        return None
    return Point(float(latitude), float(longitude))


def _text(value: object) -> str | None:
    return None if value is None else str(value)
