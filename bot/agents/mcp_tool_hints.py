"""What each MCP tool is, for an agent host: its title and its behaviour hints.

An agent host reads ``readOnlyHint``, ``destructiveHint``, ``idempotentHint`` and
``openWorldHint`` to decide which calls need the person's go-ahead, so each hint says what the
tool really does (``tests/agents/test_mcp_tool_hints.py`` checks them against behaviour):

- ``answer`` places the order when it confirms the summary: a delivery the customer pays for,
  created through the delivery service. That is why it is destructive and open-world, as
  peers mark their place-order tools; every other answer only moves the conversation.
- ``cancel_order`` throws away the answers given so far (after the flow's own question when
  there are any), ``cancel_delivery`` cancels a delivery at the service: both destructive.
  Cancelling one delivery twice leaves it cancelled: idempotent.
- ``my_deliveries`` and ``delivery_events`` read the bot's own records; ``delivery_status``
  asks the delivery service for the delivery as it is now (open-world, but read-only).
- ``go_back``, ``edit_answer`` and ``start_order`` change only the conversation.
- ``my_data`` reads the bot's own records (it is audited, which changes nothing the agent
  sees); ``forget_me`` erases the customer's data for good: destructive, and idempotent (a
  second call finds nothing left to erase).
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp.types import ToolAnnotations


@dataclass(frozen=True)
class ToolHints:
    """A tool's title and annotations."""

    title: str
    annotations: ToolAnnotations


def _hints(
    title: str, *, read_only: bool, destructive: bool, idempotent: bool, open_world: bool
) -> ToolHints:
    return ToolHints(
        title,
        ToolAnnotations(
            title=title,
            read_only_hint=read_only,
            destructive_hint=destructive,
            idempotent_hint=idempotent,
            open_world_hint=open_world,
        ),
    )


TOOL_HINTS: dict[str, ToolHints] = {
    "start_order": _hints(
        "Start a delivery order",
        read_only=False,
        destructive=False,
        idempotent=False,
        open_world=False,
    ),
    "answer": _hints(
        "Answer the open question (the confirm places the order)",
        read_only=False,
        destructive=True,
        idempotent=False,
        open_world=True,
    ),
    "go_back": _hints(
        "Go back one question",
        read_only=False,
        destructive=False,
        idempotent=False,
        open_world=False,
    ),
    "edit_answer": _hints(
        "Change one answer from the summary",
        read_only=False,
        destructive=False,
        idempotent=False,
        open_world=False,
    ),
    "cancel_order": _hints(
        "Cancel the order being made",
        read_only=False,
        destructive=True,
        idempotent=False,
        open_world=False,
    ),
    "my_deliveries": _hints(
        "List the customer's deliveries",
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=False,
    ),
    "delivery_status": _hints(
        "Show one delivery as it is now",
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=True,
    ),
    "cancel_delivery": _hints(
        "Cancel a delivery",
        read_only=False,
        destructive=True,
        idempotent=True,
        open_world=True,
    ),
    "delivery_events": _hints(
        "Read news about the conversation's deliveries",
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=False,
    ),
    # Cancel cancels at the service; the question is answered once (a second answer: nothing).
    "answer_quote": _hints(
        "Answer a delivery's fee question (keep or cancel)",
        read_only=False,
        destructive=True,
        idempotent=True,
        open_world=True,
    ),
    "my_data": _hints(
        "Give the customer everything kept about them",
        read_only=True,
        destructive=False,
        idempotent=True,
        open_world=False,
    ),
    "forget_me": _hints(
        "Erase what is kept about the customer (after their yes)",
        read_only=False,
        destructive=True,
        idempotent=True,
        open_world=False,
    ),
    # Asking again while a hand-off waits opens no second one (its message is passed on).
    "handoff": _hints(
        "Hand the customer to a person",
        read_only=False,
        destructive=False,
        idempotent=False,
        open_world=True,
    ),
}
