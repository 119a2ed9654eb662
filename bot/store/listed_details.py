"""What the operators' console lists of a delivery besides its status, as the service last
showed it: kept with the delivery's link from the create's answer, and moved by each event
that moves the chat's view (never by an older one). The route (pickup and drop-off) is kept
the same way, for the rider on the map (``bot.store.rider_positions``).

The store keeps these as given; ``bot.partner.listed`` reads them off a delivery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.store.database import Executor
from bot.store.delivery_changes import NEXT_CHANGE
from bot.store.rider_positions import Point


@dataclass(frozen=True)
class ListedDetails:
    """A delivery's fee (None until set), its currency, its rider (None when none is
    assigned), the sender's name and phone on the order, and where it is picked up and
    dropped off (None: not shown)."""

    fee: float | None = None
    currency: str | None = None
    rider_id: str | None = None
    rider_name: str | None = None
    customer_name: str | None = None
    sender_phone: str | None = None
    pickup: Point | None = None
    dropoff: Point | None = None


NOTHING_LISTED: Final = ListedDetails()
"""The details of a delivery whose service showed none (a link made from a bare answer)."""

# A fee, its currency, the sender and the route once known are kept when an event leaves them
# out; the rider is the event's own (an unassign takes them off). A place's two coordinates
# are given together or not at all, so a kept place is never half another one.
# Both take the next change number, for the console's live list (``delivery_changes``).
_NOTE_DETAILS = f"""UPDATE deliveries SET fee = coalesce(?, fee), currency = coalesce(?, currency),
        rider_id = ?, rider_name = ?, customer_name = coalesce(?, customer_name),
        sender_phone = coalesce(?, sender_phone), pickup_lat = coalesce(?, pickup_lat),
        pickup_lng = coalesce(?, pickup_lng), dropoff_lat = coalesce(?, dropoff_lat),
        dropoff_lng = coalesce(?, dropoff_lng), change_seq = {NEXT_CHANGE}
    WHERE delivery_id = ?"""  # noqa: S608 (fixed text only)
_NOTE_NEWS_FAILED = f"""UPDATE deliveries SET news_failed_at = ?, change_seq = {NEXT_CHANGE}
    WHERE delivery_id = ? AND news_failed_at IS NULL"""  # noqa: S608 (fixed text only)


async def note_details(db: Executor, delivery_id: str, details: ListedDetails) -> bool:
    """Keep ``details`` for the delivery (see ``_NOTE_DETAILS``); False when it is unknown."""
    params = (
        details.fee,
        details.currency,
        details.rider_id,
        details.rider_name,
        details.customer_name,
        details.sender_phone,
        *route_columns(details),
        delivery_id,
    )
    return await db.execute(_NOTE_DETAILS, params) > 0


def route_columns(details: ListedDetails) -> tuple[float | None, ...]:
    """The route's four columns of ``details``: pickup's latitude and longitude, then the
    drop-off's (None where a place is not shown)."""
    return (*_coordinates(details.pickup), *_coordinates(details.dropoff))


def _coordinates(point: Point | None) -> tuple[float | None, float | None]:
    return (None, None) if point is None else (point.latitude, point.longitude)


async def note_news_failed(db: Executor, delivery_id: str, at: float) -> bool:
    """Record that some news about the delivery was given up on (the first time is kept)."""
    return await db.execute(_NOTE_NEWS_FAILED, (at, delivery_id)) > 0
