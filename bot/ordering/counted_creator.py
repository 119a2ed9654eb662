"""``CountedCreator``: the engine's creator, each outcome counted in the business's
``deliverybot_creates_total{flow,outcome}``.

Outcomes: ``created``; ``held`` (an order identical to an unconfirmed one, ``duplicate_held``);
``unconfirmed`` (the answer was lost: the follow-up finishes it, and counts ``settled_later``
when it finds it created); ``refused`` (any other refusal of the decision table). The flow is
the one the engine names with the create (``DeliveryCreator.create``'s ``flow``).
"""

from __future__ import annotations

from bot.metrics.business_metrics import Metrics
from bot.ordering.request_creator import RequestCreator
from bot.ordering.turn_creates import of_turn
from bot.partner.models import CreateDeliveryRequest
from conversations.outcome import Created, CreateOutcome, Refused


class CountedCreator:
    """A ``DeliveryCreator`` around ``inner`` that counts what each create came to in
    ``metrics`` (the business's)."""

    def __init__(self, inner: RequestCreator, metrics: Metrics) -> None:
        self._inner = inner
        self._metrics = metrics

    async def create(
        self, request: CreateDeliveryRequest, turn: object = None, *, flow: str
    ) -> CreateOutcome:
        outcome = await self._inner.create(request, turn)
        creates = of_turn(turn)
        if isinstance(outcome, Refused) and not outcome.outcome_unknown and creates is not None:
            creates.refusal = outcome.reason  # the funnel counts the re-ask it leads to
        self._metrics.count_create(flow, outcome_label(outcome))
        return outcome


def outcome_label(outcome: CreateOutcome) -> str:
    """The ``outcome`` label of one create's outcome (see the module docstring)."""
    if isinstance(outcome, Created):
        return "created"
    if outcome.reason == "duplicate_held":
        return "held"
    return "unconfirmed" if outcome.outcome_unknown else "refused"
