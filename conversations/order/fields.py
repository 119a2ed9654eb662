"""The request's field names grouped by what they mean, and the rules on phones and budgets.

The names are the request's own (``CreateDeliveryRequest``), so a refusal naming a field is read
against these groups as it comes.
"""

from __future__ import annotations

import re

from conversations.order.order_limits import PHONE_DIGITS

ERRAND_FIELDS: tuple[str, ...] = (
    "errandMode",
    "errandLinks",
    "errandBudgetNgn",
    "errandSubstituteOk",
    "shopPhone",
    "pickupLocationUnknown",
)

# Request fields grouped by what a refusal naming them means (the create path decides once,
# in ``conversations.refusals``, what to do for each group).
# The org's allow-list decides these: a refusal naming one means the cached capabilities may
# be out of date.
CAPABILITY_FIELDS: frozenset[str] = frozenset(
    {
        "serviceKind",
        "deliveryMode",
        "warehouseId",
        "customerCollectionMethod",
        "isPODEnabled",
        "podAmount",
        "errandMode",
        "errandLinks",  # curated links come from the capabilities
        "pickupLocationUnknown",
    }
)
# How the delivery is paid: a refusal naming only these is a payment refusal.
PAYMENT_FIELDS: frozenset[str] = frozenset(
    {"customerCollectionMethod", "isPODEnabled", "podAmount"}
)
# Where the rider goes: a coverage refusal asks for these again.
PLACE_FIELDS: tuple[str, ...] = (
    "pickupAddress",
    "pickupCoords",
    "deliveryAddress",
    "deliveryCoords",
)
COORDINATE_FIELDS: frozenset[str] = frozenset({"pickupCoords", "deliveryCoords"})

# What a pickup & delivery must carry beyond every request's fields, and what it is told
# without one (the sandbox answers the same words).
PICKUP_DELIVERY_FIELDS: tuple[str, ...] = ("receiverName", "receiverPhone", "packageImages")
PICKUP_DELIVERY_FIELD_MISSING: dict[str, str] = {
    "receiverName": "is required",
    "receiverPhone": "is required",
    "packageImages": "needs at least 1 image for pickup_delivery",
}

# What an errand without one of them is told (the sandbox answers the same words).
ERRAND_FIELD_MISSING: dict[str, str] = {
    "errandMode": "is required for errands",
    "errandLinks": "is required for errands (send an empty array for none)",
    "errandBudgetNgn": 'is required for errands (send "" for none)',
    "errandSubstituteOk": "is required for errands",
    "shopPhone": 'is required for errands (send "" for none)',
    "pickupLocationUnknown": "is required for errands",
}

_PHONE_CHARS = re.compile(r"^\+?[0-9 ().\-]+$")
_BUDGET = re.compile(r"^[0-9]{1,12}(\.[0-9]{1,2})?$")


def phone_problem(value: str) -> str | None:
    """Why ``value`` is not a phone number, or None: an optional ``+``, then digits with
    spaces, dashes, dots or parentheses, 7 to 15 digits in all (the sandbox's rule too)."""
    if not _PHONE_CHARS.fullmatch(value):
        return "must be a phone number (digits, optionally starting with +)"
    digits = sum(ch.isdigit() for ch in value)
    if not PHONE_DIGITS[0] <= digits <= PHONE_DIGITS[1]:
        return f"must have {PHONE_DIGITS[0]} to {PHONE_DIGITS[1]} digits"
    return None


def errand_budget_problem(value: str) -> str | None:
    """Why ``value`` is not an ``errandBudgetNgn`` amount ("8000", "8,000.50"), or None."""
    if not _BUDGET.fullmatch(value.replace(",", "")):
        return 'must be an amount such as "5000"'
    return None
