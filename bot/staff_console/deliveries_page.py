"""``deliveries_page``: one page of the deliveries list as a staff member reads it.

::

    page = await deliveries_page(store, catalogue, filters, after=None)
    for row in page.rows: ...           # words and times ready to draw
    page.next_after                     # the next page's cursor text, None on the last page

Statuses in plain words (``status_label``), money with its currency (``catalogue.money``),
times in the business's zone (``DeliveryFilters.zone``), the channel's name and the kinds of
attention in the console's words (``console_web_texts``), all in ``catalogue``'s language.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Final

from bot.chat_ref import ChatRef
from bot.staff_console.delivery_filters import DeliveryFilters, cursor_text
from bot.store import Store
from bot.store.delivery_list import Attention, ListCursor, ListedDelivery
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import payment_label, short_ref, status_label

PAGE_SIZE: Final = 50


@dataclass(frozen=True)
class DeliveryRow:
    """One delivery as the list shows it: values to link and sort by, words to read."""

    delivery_id: str
    reference: str  # the short reference chats show (``3F2A9C1E``)
    chat: ChatRef
    customer: str  # the name the order gave, else the customer's chat
    channel_label: str
    status: str
    status_label: str
    fee: str  # the amount with its currency, or that there is none yet
    priced: bool
    paid: bool
    payment_label: str
    rider: str  # the rider's name (their id when unnamed), or that there is none
    assigned: bool
    created_at: datetime  # in the business's zone
    created_label: str
    changed_at: datetime
    changed_label: str
    attention: frozenset[Attention]
    attention_labels: tuple[str, ...]


@dataclass(frozen=True)
class DeliveriesPage:
    """A page of rows, newest first, and the cursor text of the next (None: the last)."""

    rows: tuple[DeliveryRow, ...]
    next_after: str | None


async def deliveries_page(
    store: Store,
    catalogue: Catalogue,
    filters: DeliveryFilters,
    after: ListCursor | None = None,
    *,
    size: int = PAGE_SIZE,
) -> DeliveriesPage:
    """The page of deliveries ``filters`` select after ``after`` (the first page for None),
    ``size`` rows at most, said from ``catalogue``."""
    # One row more than shown tells whether another page follows.
    listed = await store.delivery_list.page(filters.query(), after=after, limit=size + 1)
    shown = listed[:size]
    next_after = cursor_text(shown[-1].cursor) if len(listed) > size else None
    rows = tuple(delivery_row(catalogue, filters.zone, delivery) for delivery in shown)
    return DeliveriesPage(rows, next_after)


def delivery_row(catalogue: Catalogue, zone: tzinfo, delivery: ListedDelivery) -> DeliveryRow:
    """``delivery`` in words, its times in ``zone``."""
    created = datetime.fromtimestamp(delivery.created_at, zone)
    changed = datetime.fromtimestamp(delivery.updated_at, zone)
    rider = delivery.rider_name or delivery.rider_id
    return DeliveryRow(
        delivery_id=delivery.delivery_id,
        reference=short_ref(delivery.delivery_id),
        chat=delivery.chat,
        customer=delivery.customer_name or str(delivery.chat),
        channel_label=channel_label(catalogue, delivery.chat.channel),
        status=delivery.status,
        status_label=status_label(catalogue, delivery.status),
        fee=_fee(catalogue, delivery),
        priced=delivery.fee is not None,
        paid=delivery.paid,
        payment_label=payment_label(catalogue, "paid" if delivery.paid else "unpaid"),
        rider=rider if rider else catalogue.say("console_web.no_rider"),
        assigned=rider is not None,
        created_at=created,
        created_label=_at(catalogue, created),
        changed_at=changed,
        changed_label=_at(catalogue, changed),
        attention=delivery.attention,
        attention_labels=tuple(
            catalogue.say(f"console_web.attention.{kind.value}")
            for kind in Attention
            if kind in delivery.attention
        ),
    )


def channel_label(catalogue: Catalogue, channel: str) -> str:
    """A channel's name in words; a channel the console has no words for yet, as named."""
    key = f"console_web.channel.{channel}"
    return catalogue.say(key) if key in catalogue.messages else channel


def _fee(catalogue: Catalogue, delivery: ListedDelivery) -> str:
    if delivery.fee is None:
        return catalogue.say("console_web.no_fee")
    return catalogue.money(delivery.fee, delivery.currency or "")


def _at(catalogue: Catalogue, when: datetime) -> str:
    return catalogue.say("console_web.at", day=catalogue.day(when.date()), time=f"{when:%H:%M}")
