"""What a create came to, as domain values.

``conversations`` may not import the Partner client's error tree, so the bot turns every
``PartnerError`` of a create into a ``Refused`` value through ``conversations.refusals.decide``:
the refusal already carries the one decision the engine follows (which request fields to ask
again, whether to refresh the capabilities, keep the idempotency key, alert the operators). A
success is ``Created`` with the delivery the service returned.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from conversations.order.delivery import Delivery

RefusalReason = Literal[
    "validation",  # 400 validation_error: field_errors name the request fields
    "service_disabled",  # 403 service_disabled: the service kind was switched off
    "payment",  # the payment method or cash-to-collect is no longer allowed
    "coverage",  # 403: a place is outside the business's area
    "image_host",  # 400 image_host_rejected: the bot's own photo host is not allowlisted
    "photo_link",  # 400 image_host_rejected for photos the customer gave as links
    "photos_expired",  # the bot's own re-hosted photos are no longer stored (sent or not)
    "unavailable",  # 503 / time-outs / a lost answer after the client's retries: outcome unknown
    "rate_limited",  # 429 longer than the client waits: retry_after says how long
    "other",  # any other refusal (trust checks, a key problem): the business must act
    "duplicate_held",  # not sent: an identical order of the customer's is still unconfirmed
]


class Created(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["created"] = "created"
    delivery: Delivery


class Refused(BaseModel):
    """A create the service did not accept, and what to do about it (see ``refusals``).

    ``reask`` names the request fields whose steps are asked again (none: back to the
    summary). ``message`` and ``field_errors`` are the service's own words, for logs and
    operators. ``outcome_unknown`` is set when the delivery may exist after all (the answer was
    lost): the order then ends and its runner finishes the create in the background.
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["refused"] = "refused"
    reason: RefusalReason
    reask: tuple[str, ...] = ()
    refresh: bool = False
    keep_key: bool = False
    alert_operators: bool = False
    outcome_unknown: bool = False
    message: str = ""
    field_errors: dict[str, list[str]] = Field(default_factory=dict)
    retry_after: float | None = None


CreateOutcome = Created | Refused
