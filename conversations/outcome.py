"""What a create came to, as domain values, and how a new delivery is explained to a customer.

``conversations`` may not import the Partner client's error tree, so the bot maps every
``PartnerError`` of a create onto ``Rejected`` with one of a few reasons the flows know how to
handle; a success is ``Created`` with the delivery the service returned.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.partner.models import Delivery

RejectionReason = Literal[
    "validation",  # 400 validation_error: field_errors name the request fields
    "service_disabled",  # 403 service_disabled: the service kind was switched off
    "payment",  # 403: the payment method is no longer allowed
    "coverage",  # 403: a place is outside the business's area
    "image_host",  # 400 image_host_rejected: the photos' host is not allowlisted
    "unavailable",  # 503 / timeouts after the client's own retries: try again later
    "rate_limited",  # 429 longer than the client waits: retry_after says how long
    "other",  # any other refusal (trust checks, a key problem): shown, draft kept
]


class Created(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["created"] = "created"
    delivery: Delivery


class Rejected(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["rejected"] = "rejected"
    reason: RejectionReason
    message: str = ""
    field_errors: dict[str, list[str]] = Field(default_factory=dict)
    retry_after: float | None = None


CreateOutcome = Created | Rejected

_STATUS_WORDS = {
    "awaiting_price": (
        "Your request is in. The team will set the delivery fee and approve it; "
        "you will get a message as soon as it is priced."
    ),
    "pending": "Your delivery is booked and waiting for a rider to be assigned.",
    "picked_up": "The rider has already picked up the package.",
    "in_transit": "The package is on its way.",
    "delivered": "The package has been delivered.",
    "cancelled": "This delivery was cancelled.",
}


def explain_created(delivery: Delivery) -> list[str]:
    """Plain sentences for a freshly created delivery: status, reference and tracking link."""
    lines = [f"Done! Your order reference is {delivery.id}."]
    if delivery.status == "matched":
        rider = delivery.rider.name if delivery.rider and delivery.rider.name else None
        who = f"{rider} has" if rider else "A rider has"
        lines.append(f"{who} already been assigned and will head to the pickup soon.")
    else:
        lines.append(_STATUS_WORDS.get(delivery.status, f"Status: {delivery.status}."))
    if delivery.tracking_url:
        lines.append(f"Track it here: {delivery.tracking_url}")
    return lines
