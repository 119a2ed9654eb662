"""The audit trail of operator actions in Telegram: ``/assign`` and ``/unassign`` are kept with
the operator, the delivery, the rider and how each ended (a refusal by the API's code), on both
store backends; ``deliverybot audit`` lists them (``tests/test_safety_commands.py``)."""

from __future__ import annotations

from tests.e2e.conftest import ADA, OLU, OPERATORS, BotStack
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]


async def test_rider_assignments_are_kept_with_who_and_how_they_ended(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()

    await stack.command(OLU, "unassign", delivery_id, chat=OPERATORS)
    await stack.command(OLU, "unassign", delivery_id, chat=OPERATORS)  # pending: refused
    await stack.command(OLU, "assign", f"{delivery_id} rdr_emeka", chat=OPERATORS)

    trail = await stack.bot.store.audit.since(0)
    assert [(e.actor, e.action, e.subject, e.outcome, e.detail) for e in trail] == [
        ("telegram:1900", "unassign", delivery_id, "done", None),
        ("telegram:1900", "unassign", delivery_id, trail[1].outcome, None),
        ("telegram:1900", "assign", delivery_id, "done", "rdr_emeka"),
    ]
    assert trail[1].outcome.startswith("refused: ")
