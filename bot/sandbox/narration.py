"""The words in a webhook: ``summary``, ``customer_message_hint`` and ``agent_notes``.

Written for a bot that relays them: the summary is one plain sentence for operators, the hint is
a sentence that may be sent to the customer as is (never the OTP: that goes to the receiver
only), and the notes are short practical instructions that depend on the org's settings. All of
them are plain words staff can act on: no request or event field names, no API paths.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.sandbox.scenario import Scenario
from bot.sandbox.state import DeliveryRecord, RiderRecord

STATUS_PHRASES = {
    "awaiting_price": "waiting for staff to set the delivery fee",
    "pending": "waiting for a rider",
    "matched": "assigned to a rider",
    "picked_up": "with the rider",
    "in_transit": "on its way to the drop-off",
    "delivered": "delivered",
    "cancelled": "cancelled",
}
PAYMENT_TIMING_NOTES = {
    "before_dispatch": "Payment is due before dispatch: the rider sets off once the fee is paid.",
    "after_delivery": "The fee is collected after delivery; the job can run before payment.",
    "off_platform": "The fee is settled outside the service: there is no checkout step.",
}


@dataclass(frozen=True)
class Story:
    """What happened, with everything the texts may mention."""

    change: str
    record: DeliveryRecord
    scenario: Scenario
    tracking_url: str
    rider: RiderRecord | None = None
    previous_status: str | None = None
    otp_reason: str | None = None


@dataclass(frozen=True)
class Narration:
    summary: str
    customer_message_hint: str | None
    agent_notes: list[str]


def money(amount: float, currency: str) -> str:
    text = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
    return f"{currency} {text}"


def _place(address: str) -> str:
    return address if len(address) <= 60 else address[:59] + "…"


def _rider(rider: RiderRecord | None) -> str:
    if rider is None:
        return "a rider"
    return f"{rider.name} ({rider.vehicle_type})" if rider.vehicle_type else rider.name


def _first_name(rider: RiderRecord | None) -> str:
    return rider.name.split()[0] if rider and rider.name.strip() else "A rider"


def _masked(phone: str | None) -> str:
    digits = "".join(ch for ch in phone or "" if ch.isdigit())
    return f"phone ending {digits[-4:]}" if len(digits) >= 4 else "the receiver's phone"


def narrate(story: Story) -> Narration:
    """Summary, customer hint and agent notes for one change of one delivery."""
    writer = _WRITERS[story.change]
    return writer(story)


def _ref(story: Story) -> str:
    kind = "Errand" if story.record.order.service_kind == "errand" else "Delivery"
    return f"{kind} {story.record.short_ref}"


def _fee(story: Story) -> str | None:
    record = story.record
    return money(record.fee, record.currency) if record.fee is not None else None


def _otp_note(story: Story) -> str:
    record = story.record
    if not record.require_otp:
        return "No drop-off code for this delivery: the rider takes a photo as proof of delivery."
    if record.otp_via_webhook:
        return (
            "The drop-off code comes by webhook once the fee is paid; it is for the receiver only."
        )
    return "The service texts the drop-off code to the receiver after payment; do not send one."


def _created(story: Story) -> Narration:
    record, org = story.record, story.scenario.organization
    request = story.scenario.capabilities.publicRequest
    order, fee = record.order, _fee(story)
    summary = (
        f"New {'errand' if order.service_kind == 'errand' else 'delivery'} {record.short_ref} from "
        f"{_place(order.pickup_address)} to {_place(order.delivery_address)} was created "
        f"through the API; it is {STATUS_PHRASES[record.status]}."
    )
    if fee is None:
        hint = "We have received your delivery request. We will confirm the delivery fee shortly."
    else:
        hint = (
            f"We have received your delivery request. The delivery fee is {fee}. "
            f"You can follow it here: {story.tracking_url}"
        )
    notes = []
    if org.customer_delivery_messages:
        notes.append(
            "The service also messages the customer; share the tracking link if you have not."
        )
    else:
        notes.append(
            "Customer delivery messages are off: the service sends the customer nothing, so "
            "share the tracking link with the customer."
        )
    if request.requireApproval:
        notes.append(
            "This business approves requests first: the delivery waits for a price until "
            "staff approve and price it, and no rider is assigned automatically."
        )
    elif fee is None:
        notes.append("Fee not set yet: the delivery waits until staff price it.")
    else:
        notes.append(PAYMENT_TIMING_NOTES[story.scenario.capabilities.paymentTiming])
    dispatch = None if request.requireApproval else _dispatch_note(story, fee)
    if dispatch:
        notes.append(dispatch)
    notes.append(_otp_note(story))
    if order.pod_enabled and order.pod_amount:
        notes.append(
            f"The rider collects {money(order.pod_amount, record.currency)} in cash from the "
            "receiver at drop-off."
        )
    return Narration(summary, hint, notes)


def _dispatch_note(story: Story, fee: str | None) -> str | None:
    """How a new delivery gets its rider (approval, when required, is said before this)."""
    if not story.scenario.capabilities.publicRequest.autoDispatch:
        return "Automatic dispatch is off: staff assign a rider."
    if story.record.status == "matched":
        return "A rider was assigned automatically; a status update follows."
    if fee is not None:
        return (
            "No available rider with a fresh GPS fix was near the pickup: the delivery stays "
            "pending until a rider is assigned."
        )
    return None


def _assigned(story: Story) -> Narration:
    record = story.record
    verb = "reassigned" if story.previous_status == "matched" else "assigned"
    summary = (
        f"{_ref(story)} to {_place(record.order.delivery_address)} was {verb} to rider "
        f"{_rider(story.rider)}."
    )
    hint = f"Good news: {_first_name(story.rider)} is your rider and is heading to the pickup."
    notes = [
        "Tell the customer who their rider is; share the tracking link for live progress.",
        "The rider can still be changed until pickup (take them off, or assign another).",
    ]
    if (
        story.scenario.capabilities.paymentTiming == "before_dispatch"
        and record.payment_status != "paid"
    ):
        notes.append("The fee is not paid yet: the rider sets off once it is.")
    return Narration(summary, hint, notes)


def _unassigned(story: Story) -> Narration:
    record = story.record
    summary = (
        f"Rider {_rider(story.rider)} was unassigned from {_ref(story)}; it is "
        f"{STATUS_PHRASES[record.status]} again."
    )
    notes = ["Assign another rider now, or leave it to staff."]
    if record.status == "awaiting_price":
        notes.append("Fee not set yet: a rider cannot be assigned until staff price it.")
    return Narration(summary, "We are finding another rider for your delivery.", notes)


def _priced(story: Story) -> Narration:
    fee = _fee(story) or "an amount"
    moved = story.change == "priced"
    summary = f"{_ref(story)} was priced at {fee}" + (
        "; it is waiting for a rider." if moved else " (the fee changed)."
    )
    hint = f"The delivery fee for your request is {fee}."
    notes = [PAYMENT_TIMING_NOTES[story.scenario.capabilities.paymentTiming]]
    if moved:
        notes.append("A rider can now be assigned.")
    return Narration(summary, hint, notes)


def _paid(story: Story) -> Narration:
    record, fee = story.record, _fee(story) or "the fee"
    summary = f"The delivery fee for {_ref(story)} ({fee}) was marked paid."
    notes = []
    if record.require_otp and record.otp_via_webhook:
        notes.append("The drop-off code follows by webhook, for the receiver only.")
    elif record.require_otp:
        notes.append("The service now texts the drop-off code to the receiver.")
    notes.append("No further payment step is needed for this fee.")
    return Narration(summary, f"We have received your payment of {fee}. Thank you!", notes)


def _picked_up(story: Story) -> Narration:
    summary = f"Rider {_rider(story.rider)} picked up the package for {_ref(story)}."
    notes = ["The delivery can no longer be cancelled: the rider has the package."]
    if story.record.require_otp and story.record.otp_code:  # issued, not merely expected
        notes.append("The rider will ask the receiver for the drop-off code at the door.")
    return Narration(summary, "Your package has been picked up and is on its way.", notes)


def _in_transit(story: Story) -> Narration:
    dropoff = _place(story.record.order.delivery_address)
    summary = f"{_ref(story)} is in transit to {dropoff}."
    if story.record.require_otp and story.record.otp_code:
        note = "If the receiver lost the drop-off code, staff can send it again."
    else:
        note = _otp_note(story)
    return Narration(summary, f"Your package is on its way to {dropoff}.", [note])


def _delivered(story: Story) -> Narration:
    record, order = story.record, story.record.order
    receiver = order.receiver_name or "the receiver"
    summary = f"{_ref(story)} was delivered to {receiver} at {_place(order.delivery_address)}."
    org = story.scenario.organization.name
    notes = ["The delivery is finished; no further status changes will follow."]
    if order.pod_enabled and order.pod_amount:
        notes.append(f"The rider collected {money(order.pod_amount, record.currency)} in cash.")
    if record.fee is not None and record.payment_status != "paid":
        notes.append("The delivery fee is still unpaid.")
    return Narration(summary, f"Your package has been delivered. Thank you for using {org}!", notes)


def _cancelled(story: Story) -> Narration:
    record = story.record
    reason = record.cancellation_reason or "no reason given"
    summary = f"{_ref(story)} was cancelled: {reason}"
    summary += "" if summary.endswith((".", "!", "?")) else "."
    notes = ["No rider will be sent; a cancelled delivery cannot be reopened (create a new one)."]
    if story.rider is not None:
        notes.append(f"Rider {story.rider.name} was released from the job.")
    return Narration(summary, "Your delivery has been cancelled.", notes)


def _otp(story: Story) -> Narration:
    record = story.record
    why = "the fee was paid" if story.otp_reason == "payment" else "staff resent it"
    summary = f"The drop-off code for {_ref(story)} is ready ({why})."
    phone = record.order.receiver_phone or record.order.sender_phone
    notes = [
        f"Send the code only to the receiver ({_masked(phone)}), never to anyone else or to "
        "a group chat.",
        "Use the code exactly as given; never invent or change it.",
    ]
    if story.otp_reason == "resend":
        notes.append("This is a resend: the code is the same as before.")
    hint = "The receiver will get a drop-off code to give the rider at delivery."
    return Narration(summary, hint, notes)


_WRITERS = {
    "created": _created,
    "assigned": _assigned,
    "unassigned": _unassigned,
    "priced": _priced,
    "repriced": _priced,
    "paid": _paid,
    "picked_up": _picked_up,
    "in_transit": _in_transit,
    "delivered": _delivered,
    "cancelled": _cancelled,
    "otp": _otp,
}
