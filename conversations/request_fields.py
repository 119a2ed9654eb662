"""Which request fields a create of each service kind must carry, read from the request model.

A flow that creates names its kind; every route of it from the start to the create must fill
these fields (a step that writes them, or the flow's ``fixed`` values), or the flow is refused
when it is built (``Flow``), not at a customer's confirm. An errand's six fields are sent even
when empty (``errandBudgetNgn`` and ``shopPhone`` as ``""``): a flow that does not ask for one
fixes it.
"""

from __future__ import annotations

from typing import get_args

from conversations.order.fields import ERRAND_FIELDS, PICKUP_DELIVERY_FIELDS
from conversations.order.kinds import ServiceKind
from conversations.order.request import CreateDeliveryRequest

# What the model's rules require of each kind beyond every request's own required fields.
_KIND_FIELDS: dict[ServiceKind, tuple[str, ...]] = {
    "pickup_delivery": PICKUP_DELIVERY_FIELDS,
    "errand": ERRAND_FIELDS,
}
ALWAYS: tuple[str, ...] = tuple(
    name for name, info in CreateDeliveryRequest.model_fields.items() if info.is_required()
)
SERVICE_KINDS: tuple[ServiceKind, ...] = get_args(ServiceKind)


def required_fields(kind: ServiceKind) -> tuple[str, ...]:
    """The fields a request of ``kind`` must carry, in the request model's order."""
    wanted = set(ALWAYS) | set(_KIND_FIELDS[kind])
    return tuple(name for name in CreateDeliveryRequest.model_fields if name in wanted)


def kind_only(kind: ServiceKind) -> tuple[str, ...]:
    """The fields only ``kind`` requires (not every request)."""
    return tuple(name for name in required_fields(kind) if name not in ALWAYS)


def table_markdown() -> str:
    """The doc's table of required fields per kind (docs/flows.md shows this very text)."""
    lines = [
        "| Service kind | Required of every request | Required of this kind |",
        "|---|---|---|",
    ]
    every = ", ".join(f"`{name}`" for name in ALWAYS)
    for kind in SERVICE_KINDS:
        own = ", ".join(f"`{name}`" for name in kind_only(kind))
        lines.append(f"| `{kind}` | {every} | {own} |")
    return "\n".join(lines) + "\n"
