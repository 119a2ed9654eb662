"""The flows a bot offers. ``order`` is the entry: it asks for the service kind (or says which
one there is) and hands off to ``pickup_delivery`` or ``errand``; both can also be started
directly (a deep link to "errand", say)."""

from __future__ import annotations

from conversations.flow import Flow, FlowRegistry
from conversations.flows.errand import ERRAND
from conversations.flows.order import ORDER
from conversations.flows.pickup_delivery import PICKUP_DELIVERY

ENTRY_FLOW = ORDER.name
FLOWS: tuple[Flow, ...] = (ORDER, PICKUP_DELIVERY, ERRAND)


def default_registry() -> FlowRegistry:
    """A registry of every flow shipped with the bot."""
    return FlowRegistry(FLOWS)


__all__ = ["ENTRY_FLOW", "ERRAND", "FLOWS", "ORDER", "PICKUP_DELIVERY", "default_registry"]
