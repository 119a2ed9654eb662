"""The entry flow: which service the customer wants, then the flow of that service.

Only enabled kinds are offered (an errand kind without any errand mode cannot be collected);
with one kind there is no question, just a line saying so; the business's default is
pre-selected. Nothing is asked at all when the business cannot take orders (no kind, or no
payment method switched on).
"""

from __future__ import annotations

from enum import StrEnum

from conversations import rules
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Branch, Flow, Handoff, by_answer
from conversations.steps import choice


class State(StrEnum):
    SERVICE_KIND = "service_kind"


def service_kind_options(ctx: Context) -> list[Option]:
    return [
        Option(id=kind, label=rules.SERVICE_KIND_LABELS[kind])
        for kind in rules.service_kinds(ctx.caps)
    ]


def default_kind(ctx: Context) -> str | None:
    return rules.default_service_kind(ctx.caps)


def ordering_problem(ctx: Context) -> str | None:
    return rules.ordering_problem(ctx.caps)


ORDER = Flow(
    name="order",
    title="New order",
    version=1,
    start=State.SERVICE_KIND,
    guard=ordering_problem,
    steps=(
        choice(
            State.SERVICE_KIND,
            title="Service",
            question="What would you like to order?",
            options=service_kind_options,
            default=default_kind,
            single="Only one service is available: {label}.",
            empty=rules.NOTHING_OFFERED,
            fields=("serviceKind",),
            next=Branch(
                "service kind",
                by_answer(State.SERVICE_KIND),
                {"pickup_delivery": Handoff("pickup_delivery"), "errand": Handoff("errand")},
            ),
        ),
    ),
)
