"""The flows a bot offers. ``order`` (``entry``) is the entry: it lists every flow marked
``listed`` that the business can use now and hands off to the one chosen; every flow can also
be started by name (a deep link, a menu command, ``new <flow>`` in the console).

A new flow is one file in this package and one entry in ``FLOWS``; see docs/flows.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from conversations.flow import Flow, FlowError, FlowRegistry
from conversations.flows.entry import ENTRY, entry_flow
from conversations.flows.errand import ERRAND
from conversations.flows.pharmacy_errand import PHARMACY_ERRAND
from conversations.flows.pickup_delivery import PICKUP_DELIVERY
from conversations.flows.return_parcel import RETURN_PARCEL

ENTRY_FLOW = ENTRY
# The shipped flows, in the order the entry offers them.
FLOWS: tuple[Flow, ...] = (PICKUP_DELIVERY, ERRAND, PHARMACY_ERRAND, RETURN_PARCEL)


def default_registry(
    flows: Sequence[Flow] = FLOWS, *, menu: Sequence[Flow] | None = None
) -> FlowRegistry:
    """A registry of ``flows`` (every shipped flow by default) behind the entry flow, which
    offers the listed ones among ``menu`` (all of ``flows`` by default), in that order.

    A test that asserts the entry menu names its ``menu``, so a flow shipped later, listed in
    the shipped menu, changes nothing it sees (it can still be started by name).
    """
    offered = flows if menu is None else menu
    unknown = [flow.name for flow in offered if flow not in flows]
    if unknown:
        raise FlowError(f"the menu offers flows that are not registered: {unknown}")
    return FlowRegistry((entry_flow(offered), *flows), entry=ENTRY)


__all__ = [
    "ENTRY_FLOW",
    "ERRAND",
    "FLOWS",
    "PHARMACY_ERRAND",
    "PICKUP_DELIVERY",
    "RETURN_PARCEL",
    "default_registry",
]
