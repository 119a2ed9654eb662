"""The delivery fee from the scenario's rules, or none (the delivery then awaits a price).

Rules are tried in order; the first enabled rule for the job's service kind whose
``max_distance_km`` covers the straight-line pickup-to-drop-off distance sets the fee:
``max(minimum_fee, base_fee + per_km * km)``, rounded up to a multiple of ``round_to``.

The business's public pricing then has the last word, so the fee matches what a client may show
from the capabilities: ``fixed`` charges ``pricingAmountNgn`` for every covered job, and
``starting_from`` never charges less than it. ``quote_on_review`` and ``hidden`` leave the rule's
fee as it is.
"""

from __future__ import annotations

import math

from bot.sandbox.geo import distance_km
from bot.sandbox.scenario_parts import PricingSettings, PublicRequestSettings
from bot.sandbox.validated_order import CreateOrder


def quote(
    settings: PricingSettings, order: CreateOrder, public: PublicRequestSettings | None = None
) -> float | None:
    """The fee for ``order``, or None when no rule covers it (status ``awaiting_price``)."""
    fee = _rule_fee(settings, order)
    if fee is None or public is None or public.pricingAmountNgn <= 0:
        return fee
    if public.pricingMode == "fixed":
        return float(public.pricingAmountNgn)
    if public.pricingMode == "starting_from":
        return max(fee, float(public.pricingAmountNgn))
    return fee


def _rule_fee(settings: PricingSettings, order: CreateOrder) -> float | None:
    km = distance_km(order.pickup_lat, order.pickup_lng, order.delivery_lat, order.delivery_lng)
    for rule in settings.rules:
        if not rule.enabled or order.service_kind not in rule.service_kinds:
            continue
        if rule.max_distance_km is not None and km > rule.max_distance_km:
            continue
        fee = max(rule.minimum_fee, rule.base_fee + rule.per_km * km)
        fee = math.ceil(fee / settings.round_to) * settings.round_to
        return float(fee) if fee > 0 else None
    return None
