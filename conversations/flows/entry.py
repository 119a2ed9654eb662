"""The entry flow: which of the listed flows the customer wants, then that flow.

It offers every listed flow the business can use now (a flow whose guard finds no problem:
an errand needs the errand kind and a mode; a return needs a usable warehouse). With one such
flow there is no question, just a line saying so; the flow of the business's default service
kind is pre-selected. Nothing is asked at all when the business cannot take orders (no kind,
or no payment method switched on).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from conversations import rules
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Branch, Flow, Handoff, by_answer
from conversations.steps import choice
from conversations.texts.said import said

ENTRY = "order"


class State(StrEnum):
    SERVICE_KIND = "service_kind"


def entry_flow(flows: Sequence[Flow]) -> Flow:
    """The entry over ``flows``: those marked ``listed`` are offered, in this order."""
    listed = [flow for flow in flows if flow.listed]

    def usable(ctx: Context) -> list[Flow]:
        return [flow for flow in listed if flow.guard is None or flow.guard(ctx) is None]

    def options(ctx: Context) -> list[Option]:
        return [Option(id=flow.name, label=flow.menu_label(ctx.catalogue)) for flow in usable(ctx)]

    def default(ctx: Context) -> str | None:
        kind = rules.default_service_kind(ctx.caps)
        return next((flow.name for flow in usable(ctx) if flow.service_kind == kind), None)

    def ordering_problem(ctx: Context) -> str | None:
        return rules.ordering_problem(ctx.catalogue, ctx.caps)

    return Flow(
        name=ENTRY,
        title=said("flows.entry.title"),
        version=1,
        start=State.SERVICE_KIND,
        guard=ordering_problem,
        steps=(
            choice(
                State.SERVICE_KIND,
                title=said("flows.entry.title.service"),
                question=said("flows.entry.question"),
                options=options,
                default=default,
                single=said("flows.entry.single"),
                empty=rules.NOTHING_OFFERED,
                # The chosen flow sends its own kind; this is where a refusal of the kind
                # (``service_disabled``) comes back to.
                fields=("serviceKind",),
                writes=False,
                next=Branch(
                    "service",
                    by_answer(State.SERVICE_KIND),
                    {flow.name: Handoff(flow.name) for flow in listed},
                ),
            ),
        ),
    )
