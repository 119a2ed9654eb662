"""What a customer is told about their own deliveries: one delivery's status, the list of them,
and cancelling one. ``bot.ordering.customer_desk`` says these for every channel.

Sentences that point the customer to a command take the channel's ``ChannelWords``: Telegram
says ``/status``, the console ``status``; nothing else differs between channels. The service's
own texts, error codes and enum values never reach a customer from here: only a status,
said as words (``status_label``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.partner.models import CANCEL_REASON_LENGTH, Delivery
from conversations.rules import format_money
from conversations.texts.deliveries_texts import (
    short_ref,
    status_label,
    status_sentence,
    tracking_line,
)


@dataclass(frozen=True)
class ChannelWords:
    """How a channel names what a customer can do, for the sentences that point to it."""

    new: str  # start an order: "/new"
    status: str  # one delivery: "/status"
    deliveries: str  # the list: "/deliveries"
    cancel_delivery: str  # "/cancel_delivery"
    share_contact: str  # where to share one's own contact: "the button below"
    share_own_contact: str  # the same, named: "the “Share my contact” button below"


# --- when the service cannot answer -------------------------------------------------------------

BUSY = "The delivery service is busy right now. Please try again in a minute."
UNREACHABLE = "I couldn't reach the delivery service just now. Please try again in a few minutes."
NOT_ACCEPTED = (
    "The delivery service did not accept that just now. Please try again later; if it keeps "
    "happening, please contact the business."
)

# --- finding one of the customer's deliveries ---------------------------------------------------

DELIVERIES_PRIVATE_ONLY = (
    "Please ask me in a private chat: your deliveries are not shown in groups."
)
_ECHO_LENGTH = 40


def echo(typed: str) -> str:
    """What the customer typed, short enough to repeat back."""
    return typed if len(typed) <= _ECHO_LENGTH else typed[: _ECHO_LENGTH - 1] + "…"


def unknown_delivery(typed: str, words: ChannelWords) -> str:
    """The answer to a reference that is none of the customer's: unknown or someone else's."""
    return f"I can't find a delivery {echo(typed)} among yours. {words.deliveries} lists them."


def none_yet(words: ChannelWords) -> str:
    return f"You have no deliveries yet. Send {words.new} to order one."


# --- one delivery -------------------------------------------------------------------------------


def delivery_details(delivery: Delivery, tracking_url: str | None = None) -> str:
    """A delivery for its customer: status, rider, fee, route, tracking (``tracking_url`` when
    the service's view has none)."""
    lines = [f"Delivery {short_ref(delivery.id)}", status_sentence(delivery)]
    rider = delivery.rider
    if rider is not None:
        vehicle = f" ({rider.vehicle_type})" if rider.vehicle_type else ""
        lines.append(f"Rider: {rider.name or 'assigned'}{vehicle}")
    payment = delivery.payment
    if payment is not None and payment.delivery_fee is not None:
        fee = format_money(payment.delivery_fee, payment.currency_code or "").strip()
        paid = payment.delivery_payment_status
        lines.append(f"Fee: {fee}" + (f" (payment {status_label(paid)})" if paid else ""))
    elif delivery.status == "awaiting_price":
        lines.append("Fee: not set yet")
    if delivery.pickup is not None and delivery.pickup.address:
        lines.append(f"From: {delivery.pickup.address}")
    if delivery.dropoff is not None and delivery.dropoff.address:
        lines.append(f"To: {delivery.dropoff.address}")
    tracking = delivery.tracking_url or tracking_url
    if tracking:
        lines.append(tracking_line(tracking))
    return "\n".join(lines)


def last_known(delivery_id: str, status: str, tracking_url: str | None, trouble: str) -> str:
    """What the chat was last told, when the service cannot be asked now; ``trouble`` says why."""
    lines = [f"Delivery {short_ref(delivery_id)}", f"Last known status: {status_label(status)}."]
    if tracking_url:
        lines.append(tracking_line(tracking_url))
    return "\n".join([*lines, "", trouble])


# --- the list -----------------------------------------------------------------------------------

LIST_ENTRY = "• {ref}: {status}, ordered {date}"
"""One delivery in the list; a channel may mark up the fields (Telegram shows ``ref`` as code)."""


def list_title(page: int, pages: int) -> str:
    """The list's first line; ``page`` counts from 0."""
    return f"Your deliveries (page {page + 1} of {pages}):" if pages > 1 else "Your deliveries:"


def ordered_on(created_at: float) -> str:
    """The day a delivery was ordered, as the list shows it (``07 Jan 2027``)."""
    return datetime.fromtimestamp(created_at, UTC).strftime("%d %b %Y")


def list_entry(ref: str, status: str, created_at: float) -> str:
    return LIST_ENTRY.format(ref=ref, status=status_label(status), date=ordered_on(created_at))


def details_hint(example_ref: str, words: ChannelWords) -> str:
    return f"Send {words.status} {example_ref} (or any reference above) for details."


def other_pages(page: int, pages: int, words: ChannelWords) -> str | None:
    """For channels without page buttons: how to see the next and previous pages (from 0)."""
    ways = []
    if page + 1 < pages:
        ways.append(f"{words.deliveries} {page + 2} for the next page")
    if page > 0:
        ways.append(f"{words.deliveries} {page} for the previous one")
    return f"Send {' or '.join(ways)}." if ways else None


def not_your_list(words: ChannelWords) -> str:
    return f"This list belongs to someone else. Send {words.deliveries} for yours."


def stale_list_button(words: ChannelWords) -> str:
    return f"This button no longer works. Send {words.deliveries} again."


# --- cancelling ---------------------------------------------------------------------------------


def cancel_usage(words: ChannelWords) -> str:
    command = words.cancel_delivery
    return (
        f"To cancel, send {command}, the delivery and your reason, e.g.\n"
        f"{command} 3F2A9C1E I ordered it twice"
    )


def bad_reason(length: int, words: ChannelWords) -> str:
    low, high = CANCEL_REASON_LENGTH
    return (
        f"Please give a reason of {low} to {high} characters (yours has {length}).\n\n"
        f"{cancel_usage(words)}"
    )


def cancelled(delivery_id: str) -> str:
    return f"Delivery {short_ref(delivery_id)} is cancelled."


def not_cancellable(delivery_id: str, status: str) -> str:
    """The service's ``cancel_not_allowed``, said by what the chat last knew of the status."""
    ref = short_ref(delivery_id)
    if status == "cancelled":
        return f"Delivery {ref} is already cancelled."
    if status == "delivered":
        return f"Delivery {ref} was delivered, so it can no longer be cancelled."
    return f"Delivery {ref} can no longer be cancelled: the rider already has the package."
