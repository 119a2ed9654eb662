"""A delivery in plain words, wherever it is spoken of: the short reference chats use, its status
as a label and as a sentence for its customer, and the texts the relay builds around the
service's events (the customer's update, the operators' summary, the drop-off code notices).

Every channel and the relay say a delivery's status through ``status_sentence`` and
``status_label``, so a customer reads the same words in an update and in an answer to a
question. Texts that carry a drop-off code are built only here, from the code the caller was
given (the event's ``data.otp.code``, or the code a hand-off kept for the receiver).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.partner.models import Delivery

_STATUS_SENTENCES = {
    "awaiting_price": "Your request is waiting for the team to set the delivery fee.",
    "pending": "Your delivery is booked and waiting for a rider.",
    "picked_up": "The rider has picked up your package.",
    "in_transit": "Your package is on its way to the drop-off.",
    "delivered": "Your package has been delivered.",
}


# Words by which a sentence (the service's customer_message_hint) tells a status: a hint that
# has them says the news, and ``status_sentence`` would only repeat it.
_STATUS_WORDS = {
    "awaiting_price": ("fee", "price"),
    "pending": ("waiting for a rider", "booked"),
    "matched": ("rider",),
    "picked_up": ("picked up", "collected"),
    "in_transit": ("on its way", "in transit"),
    "delivered": ("delivered",),
    "cancelled": ("cancel",),
}


def says_status(text: str, status: str) -> bool:
    """Whether ``text`` tells a customer the delivery is now ``status``."""
    said = text.casefold()
    return any(word in said for word in _STATUS_WORDS.get(status, (status_label(status),)))


def short_ref(delivery_id: str) -> str:
    """A short reference for chats: the id's first block, upper-cased (``3F2A9C1E``).

    The service's own summaries name deliveries the same way.
    """
    head = delivery_id.split("-")[0]
    return head.upper() if head else delivery_id


def status_label(status: str) -> str:
    """A status as words: ``picked_up`` -> ``picked up``."""
    return status.replace("_", " ").strip() or "unknown"


def status_sentence(delivery: Delivery) -> str:
    """The delivery's status as one sentence for its customer."""
    status = delivery.status
    if status == "matched":
        return f"{_rider(delivery)} is assigned and heading to pickup."
    if status == "cancelled":
        reason = (delivery.cancellation_reason or "").strip()
        return "Your delivery was cancelled." + (f" Reason: {reason}" if reason else "")
    sentence = _STATUS_SENTENCES.get(status)
    return sentence or f"Your delivery's status is now {status_label(status)}."


def _rider(delivery: Delivery) -> str:
    rider = delivery.rider
    if rider is None:
        return "A rider"
    name = (rider.name or "").split()
    details = [part for part in (name[0] if name else None, rider.vehicle_type) if part]
    return f"A rider ({', '.join(details)})" if details else "A rider"


def customer_update(delivery_id: str, parts: Sequence[str]) -> str:
    """One message to the customer: the delivery's reference, then each part on its own line."""
    return "\n".join([f"Delivery {short_ref(delivery_id)}", *parts])


def tracking_line(url: str) -> str:
    return f"Track it here: {url}"


def operator_update(summary: str | None, notes: Sequence[str]) -> str | None:
    """The summary and agent notes for operator chats, or None when there is nothing to say."""
    lines = [summary.strip()] if summary and summary.strip() else []
    lines += [f"• {note.strip()}" for note in notes if note.strip()]
    return "\n".join(lines) if lines else None


def otp_for_receiver(delivery_id: str, code: str) -> str:
    """The drop-off code, for a chat proven to belong to the receiver."""
    return (
        f"Your drop-off code for delivery {short_ref(delivery_id)} is {code}. "
        "Give it to the rider only once the package is in your hands."
    )


def otp_link_for_customer(delivery_id: str, link: str) -> str:
    """The hand-off link, for a customer who is not (or not proven to be) the receiver."""
    return (
        f"The drop-off code for delivery {short_ref(delivery_id)} is ready. Only the receiver "
        f"may see it, so please forward this link to them:\n{link}\n"
        "They open it and share their own phone number to get the code."
    )


def otp_link_for_self(delivery_id: str, link: str) -> str:
    """The hand-off link, for a customer who is the receiver (an errand) but whose own phone
    is not proven yet: no one else is named."""
    return (
        f"The drop-off code for delivery {short_ref(delivery_id)} is ready. It goes only to the "
        f"receiver's phone, which is yours: open this link and share your own contact to get "
        f"it:\n{link}"
    )


def otp_waiting_for_operators(delivery_id: str) -> str:
    """Tells operators a code is held back, without the code."""
    return (
        f"The drop-off code for delivery {short_ref(delivery_id)} is waiting for the receiver "
        "to verify their phone number."
    )


def otp_unrelayed_for_operators(delivery_id: str) -> str:
    """Tells operators a code arrived for a delivery no chat of this bot ordered."""
    return (
        f"The drop-off code for delivery {short_ref(delivery_id)} arrived, but that delivery "
        "was not ordered through this bot, so the bot did not send the code to anyone."
    )


def polled_summary(delivery_id: str, status: str) -> str:
    """The summary of a status change seen by polling (the service wrote none)."""
    return f"Delivery {short_ref(delivery_id)} is now {status_label(status)} (seen by polling)."
