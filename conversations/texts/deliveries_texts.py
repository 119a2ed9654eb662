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

from conversations.order.delivery import Delivery
from conversations.texts.catalogue import Catalogue

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


def says_status(catalogue: Catalogue, text: str, status: str) -> bool:
    """Whether ``text`` tells a customer the delivery is now ``status``."""
    said = text.casefold()
    return any(
        word in said for word in _STATUS_WORDS.get(status, (status_label(catalogue, status),))
    )


def short_ref(delivery_id: str) -> str:
    """A short reference for chats: the id's first block, upper-cased (``3F2A9C1E``).

    The service's own summaries name deliveries the same way.
    """
    head = delivery_id.split("-")[0]
    return head.upper() if head else delivery_id


def status_label(catalogue: Catalogue, status: str) -> str:
    """A status as words: ``picked_up`` -> ``picked up`` (a status the catalogue does not
    name yet is said as its words, never with underscores)."""
    return _named(catalogue, "status", status)


def payment_label(catalogue: Catalogue, payment_status: str) -> str:
    """A payment state as words: ``paid`` -> ``paid``, ``unpaid`` -> ``not paid yet``."""
    return _named(catalogue, "payment", payment_status)


def vehicle_label(catalogue: Catalogue, vehicle_type: str) -> str:
    """A rider's vehicle type as words in the turn's language: ``motorbike`` -> ``moto``."""
    return _named(catalogue, "vehicle", vehicle_type)


def _named(catalogue: Catalogue, kind: str, value: str) -> str:
    """``value`` as the catalogue's ``<kind>.<value>`` says it; a value it does not name yet
    is said as its words (never with underscores)."""
    key = value.strip().casefold().replace(" ", "_").replace("-", "_")
    message_id = f"{kind}.{key}"
    if message_id in catalogue.messages:
        return catalogue.say(message_id)
    return value.replace("_", " ").strip() or catalogue.say("status.unknown")


def fee_sentence(catalogue: Catalogue, amount: float | None, currency: str) -> str:
    """The fee, now set, for the customer."""
    return catalogue.say("delivery.fee_set", amount=catalogue.money(amount or 0, currency))


def paid_sentence(catalogue: Catalogue, amount: float | None, currency: str) -> str:
    """The fee marked paid, with its amount when it is known."""
    if amount is None:
        return catalogue.say("delivery.paid")
    return catalogue.say("delivery.paid_amount", amount=catalogue.money(amount, currency))


_STATUS_SENTENCES = frozenset({"awaiting_price", "pending", "picked_up", "in_transit", "delivered"})


def status_sentence(catalogue: Catalogue, delivery: Delivery) -> str:
    """The delivery's status as one sentence for its customer."""
    status = delivery.status
    if status == "matched":
        return catalogue.say("delivery.status.matched", rider=_rider(catalogue, delivery))
    if status == "cancelled":
        reason = (delivery.cancellation_reason or "").strip()
        if reason:
            return catalogue.say("delivery.status.cancelled_reason", reason=reason)
        return catalogue.say("delivery.status.cancelled")
    if status in _STATUS_SENTENCES:
        return catalogue.say(f"delivery.status.{status}")
    return catalogue.say("delivery.status.other", status=status_label(catalogue, status))


def _rider(catalogue: Catalogue, delivery: Delivery) -> str:
    rider = delivery.rider
    if rider is None:
        return catalogue.say("delivery.a_rider")
    name = (rider.name or "").split()
    vehicle = vehicle_label(catalogue, rider.vehicle_type) if rider.vehicle_type else None
    details = [part for part in (name[0] if name else None, vehicle) if part]
    if not details:
        return catalogue.say("delivery.a_rider")
    return catalogue.say("delivery.a_rider_with", details=", ".join(details))


def heading(catalogue: Catalogue, delivery_id: str) -> str:
    """A message's first line naming the delivery: ``Delivery 3F2A9C1E``."""
    return catalogue.say("delivery.heading", ref=short_ref(delivery_id))


def customer_update(catalogue: Catalogue, delivery_id: str, parts: Sequence[str]) -> str:
    """One message to the customer: the delivery's reference, then each part on its own line."""
    return "\n".join([heading(catalogue, delivery_id), *parts])


def tracking_line(catalogue: Catalogue, url: str) -> str:
    return catalogue.say("delivery.tracking", url=url)


def operator_update(catalogue: Catalogue, summary: str | None, notes: Sequence[str]) -> str | None:
    """The summary and agent notes for operator chats, or None when there is nothing to say."""
    lines = [summary.strip()] if summary and summary.strip() else []
    lines += [catalogue.say("delivery.note", note=note.strip()) for note in notes if note.strip()]
    return "\n".join(lines) if lines else None


def note_tracking_sent(catalogue: Catalogue) -> str:
    """For operators, in place of a service note asking to share the tracking link the bot
    has already sent the customer."""
    return catalogue.say("delivery.note_tracking_sent")


def note_code_handled(catalogue: Catalogue) -> str:
    """For operators, in place of the service's notes about a drop-off code the bot hands to
    the receiver itself."""
    return catalogue.say("delivery.note_code_handled")


# A digest names at most this many deliveries; /deliveries lists every one.
DIGEST_REFS = 20


def operator_digest_more(catalogue: Catalogue, count: int, refs: Sequence[str]) -> str:
    """The closing line of an operator digest: ``count`` more updates, left out so the chat
    keeps up with the news, and the deliveries they were about (the first ``DIGEST_REFS``)."""
    named = list(dict.fromkeys(ref for ref in refs if ref))
    shown = ", ".join(named[:DIGEST_REFS]) + (", …" if len(named) > DIGEST_REFS else "")
    return catalogue.say("delivery.operator_digest_more", count=count, refs=shown)


def otp_for_receiver(catalogue: Catalogue, delivery_id: str, code: str) -> str:
    """The drop-off code, for a chat proven to belong to the receiver."""
    return catalogue.say("delivery.otp_for_receiver", ref=short_ref(delivery_id), code=code)


def otp_link_for_customer(catalogue: Catalogue, delivery_id: str, link: str) -> str:
    """The hand-off link, for a customer who is not (or not proven to be) the receiver."""
    return catalogue.say("delivery.otp_link_for_customer", ref=short_ref(delivery_id), link=link)


def otp_link_for_self(catalogue: Catalogue, delivery_id: str, link: str) -> str:
    """The hand-off link, for a customer who is the receiver (an errand) but whose own phone
    is not proven yet: no one else is named."""
    return catalogue.say("delivery.otp_link_for_self", ref=short_ref(delivery_id), link=link)


def otp_waiting_for_operators(catalogue: Catalogue, delivery_id: str) -> str:
    """Tells operators a code is held back, without the code."""
    return catalogue.say("delivery.otp_waiting_for_operators", ref=short_ref(delivery_id))


def otp_setting_off_for_operators(catalogue: Catalogue, delivery_id: str) -> str:
    """Tells operators the service sent a code by webhook while ``[relay] otp_via_webhook`` is
    off (the summaries promise a text message from the service)."""
    return catalogue.say("delivery.otp_setting_off_for_operators", ref=short_ref(delivery_id))


def otp_unrelayed_for_operators(catalogue: Catalogue, delivery_id: str) -> str:
    """Tells operators a code arrived for a delivery no chat of this bot ordered."""
    return catalogue.say("delivery.otp_unrelayed_for_operators", ref=short_ref(delivery_id))


def polled_summary(catalogue: Catalogue, delivery_id: str, status: str) -> str:
    """The summary of a status change seen by polling (the service wrote none)."""
    return catalogue.say(
        "delivery.polled_summary",
        ref=short_ref(delivery_id),
        status=status_label(catalogue, status),
    )
