"""Deliveries on their way and their riders, as the relay and the tracking job would have kept
them (``store.deliveries`` with the rider and route the service showed, ``store.rider_positions``
with each rider's last fix): what the console's riders page draws."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef
from bot.store import Fix, ListedDetails, Point, Store


@dataclass(frozen=True)
class Seeded:
    """One seeded delivery: its id, status, rider's name, and the fix kept (None: none)."""

    delivery_id: str
    status: str
    rider: str | None
    fix: Fix | None
    dropoff: Point | None


AKOKA: Final = Point(6.5158, 3.3898)
IKOYI: Final = Point(6.4500, 3.4380)
YABA: Final = Point(6.5095, 3.3711)
SURULERE: Final = Point(6.5005, 3.3581)


async def seed_riders(store: Store, now: float) -> list[Seeded]:
    """Three deliveries on their way (a fix 150 s old, none, a fix 20 s old), oldest first, and
    two the page must not show (waiting for a rider; delivered, its row not dropped yet)."""
    on_way = [
        Seeded("5e1a0c01-0001-4aaa-8bbb-000000000001", "matched", "Musa Bello",
               Fix(YABA, now - 150), AKOKA),
        Seeded("6f2b1d02-0002-4aaa-8bbb-000000000002", "picked_up", None, None, IKOYI),
        Seeded("7a3c2e03-0003-4aaa-8bbb-000000000003", "in_transit", "Ife Okon",
               Fix(SURULERE, now - 20), None),
    ]  # fmt: skip
    for minutes, seeded in zip((50, 40, 30), on_way, strict=True):
        rider_id = f"rdr_{seeded.delivery_id[-1]}"
        details = ListedDetails(rider_id=rider_id, rider_name=seeded.rider, dropoff=seeded.dropoff)
        await _add(store, seeded.delivery_id, now - minutes * 60, seeded.status, details)
        if seeded.fix is not None:
            await store.rider_positions.keep(seeded.delivery_id, rider_id, seeded.fix, "")
    waiting = "8b4d3f04-0004-4aaa-8bbb-000000000004"
    await _add(store, waiting, now - 20 * 60, "pending", ListedDetails(dropoff=AKOKA))
    ended = "9c5e4a05-0005-4aaa-8bbb-000000000005"
    rider = ListedDetails(rider_id="rdr_5", rider_name="Kemi Ade", dropoff=IKOYI)
    await _add(store, ended, now - 10 * 60, "delivered", rider)
    await store.rider_positions.keep(ended, "rdr_5", Fix(IKOYI, now - 60), "")
    return on_way


async def _add(
    store: Store, delivery_id: str, at: float, status: str, details: ListedDetails
) -> None:
    chat = ChatRef("telegram", 700 + int(delivery_id[-1]))
    await store.deliveries.add(delivery_id, chat, chat.id, at, None, None, status, details=details)
