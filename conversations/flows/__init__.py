"""The flows a bot offers. ``order`` is the entry: it asks for the service kind (or says which
one there is) and hands off to ``pickup_delivery`` or ``errand``; both can also be started
directly (a deep link to "errand", say). ``repeat_last`` starts from the customer's last order
(a /repeat command) and hands off to the flow of its kind."""

from __future__ import annotations

from conversations.flow import Flow, FlowRegistry
from conversations.flows.errand import ERRAND
from conversations.flows.order import ORDER
from conversations.flows.pickup_delivery import PICKUP_DELIVERY
from conversations.flows.repeat_last import REPEAT_LAST

ENTRY_FLOW = ORDER.name
REPEAT_FLOW = REPEAT_LAST.name
FLOWS: tuple[Flow, ...] = (ORDER, PICKUP_DELIVERY, ERRAND, REPEAT_LAST)


def default_registry() -> FlowRegistry:
    """A registry of every flow shipped with the bot."""
    return FlowRegistry(FLOWS)


__all__ = [
    "ENTRY_FLOW",
    "ERRAND",
    "FLOWS",
    "ORDER",
    "PICKUP_DELIVERY",
    "REPEAT_FLOW",
    "REPEAT_LAST",
    "default_registry",
]
