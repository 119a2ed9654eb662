"""A small console's worth of deliveries, as the bot's relay and create would have written them
(``store.deliveries``, ``store.relayed``, ``store.audit``): four deliveries in different states
and channels, one with a history of events, messages and an audit entry, and its rider's last
position (``store.rider_positions``). The accessibility test and ``make console-screenshots``
draw the console over it."""

from __future__ import annotations

from typing import Final

from bot.chat_ref import ChatRef
from bot.store import Fix, ListedDetails, Point, SendKey, SentReceipt, Store
from bot.store.delivery_history import CUSTOMER, OPERATORS, HistoryEvent, HistoryMessage, Place

WITH_HISTORY: Final = "3f2a9c1e-1111-4bbb-8ccc-000000000001"
OPERATORS_CHAT: Final = ChatRef("telegram", -100500)
_PICKUP: Final = Place("12 Herbert Macaulay Way, Yaba", 6.5095, 3.3711)
_DROPOFF: Final = Place("Unilag Hostel, Akoka", 6.5158, 3.3896)
_ROWS: Final = (
    # id, customer's chat, minutes before now, status, fee, rider, customer, phone
    (WITH_HISTORY, ChatRef("telegram", 42), 95, "in_transit", 2600.0, "Musa Bello", "Ada Obi"),
    ("7c1d0b2e-2222-4bbb-8ccc-000000000002", ChatRef("telegram", 43), 60, "pending", None, None,
     "Bola Ahmed"),
    ("a90e4f51-3333-4bbb-8ccc-000000000003", ChatRef("agents", 7), 30, "matched", 1800.0,
     "Ife Okon", "Chidi Eze"),
    ("d4b7a6c3-4444-4bbb-8ccc-000000000004", ChatRef("telegram", 44), 10, "delivered", 3100.0,
     "Musa Bello", "Kemi Ade"),
)  # fmt: skip


async def seed(store: Store, now: float) -> None:
    """The deliveries of ``_ROWS``, created before ``now``, and one's history."""
    for delivery_id, chat, minutes, status, fee, rider, name in _ROWS:
        details = ListedDetails(
            fee=fee,
            currency="NGN",
            rider_id=None if rider is None else f"rdr_{len(rider)}",
            rider_name=rider,
            customer_name=name,
            sender_phone=f"+23480312345{chat.id:02d}",
        )
        created = now - minutes * 60
        phone = f"+23480312345{chat.id:02d}"
        await store.deliveries.add(
            delivery_id, chat, chat.id, created, phone, None, status, details=details
        )
    # The rider on the map kept the in-transit rider's last fix, two minutes ago.
    await store.rider_positions.keep(
        WITH_HISTORY, "rdr_10", Fix(Point(6.5126, 3.3802), now - 120), ""
    )
    await _history(store, now - 95 * 60)


async def _history(store: Store, created: float) -> None:
    chat = _ROWS[0][1]
    steps = (("pending", None, 5), ("matched", "pending", 20), ("in_transit", "matched", 50))
    for index, (status, previous, minutes) in enumerate(steps):
        event_id = f"evt_seed_{index}"
        at = created + minutes * 60
        event = HistoryEvent(
            event_id, WITH_HISTORY, "delivery.status_changed", int(at), at + 1, status, previous,
            f"The delivery is now {status.replace('_', ' ')}.", None,
            ("Call the receiver before arriving.",) if status == "in_transit" else (),
            _PICKUP, _DROPOFF,
        )  # fmt: skip
        await store.relayed.finish_event(event_id, WITH_HISTORY, history=event)
        receipts = [
            SentReceipt(
                SendKey(event_id, to, "update" if to == chat else "operator"),
                index,
                HistoryMessage(
                    WITH_HISTORY,
                    event_id,
                    to,
                    "update",
                    CUSTOMER if to == chat else OPERATORS,
                    f"Delivery 3F2A9C1E: {status.replace('_', ' ')}.",
                    at + 2,
                ),
            )
            for to in (chat, OPERATORS_CHAT)
        ]
        await store.relayed.record_sent(receipts)
    await store.audit.record("telegram:1900", "assign", WITH_HISTORY, "done", "rdr_10")
