"""An agent confirms an order with the total the summary showed the person.

At the summary (``"input": "confirm"``) the prompt carries ``total``: the fee as the business
states it before an order is priced (``publicRequest.pricingMode``), as a program reads it.

- ``fixed`` and ``starting_from``: ``{"amount": 1500, "currency": "NGN", "quote_token": null}``;
  the confirm carries ``"total": {"amount": 1500, "currency": "NGN"}``.
- ``quote_on_review`` and ``hidden`` (the fee is set later, after the order): no amount, but a
  ``quote_token`` that names this summary (the conversation, the question's version and the
  pricing it said); the confirm carries ``"total": {"quote_token": "q_…"}``.

The check compares the confirm with the total as it is *now*, from the capabilities the create
would go out under: a total the summary never showed, or a fee changed since (the capabilities
were refreshed in between), is refused with the current summary, so the agent reads that one
to the person before confirming again. ``answer_schema`` publishes the shape of ``total`` and
requires it with the confirm option; the values are this module's to judge.

The bot does not ask the person itself (MCP elicitation): the agent host stands between the
person and the bot, and the ``answer`` tool is marked destructive so that hosts ask before it
runs; the total proves the person was shown the price the order is placed at.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from typing import Any

from bot.partner.models import Capabilities
from conversations.dialog import Prompt

PRICED_AHEAD = ("fixed", "starting_from")  # the summary states an amount
QUOTE_PREFIX = "q_"

AMOUNT_TOTAL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "amount": {"type": "number", "minimum": 0},
        "currency": {"type": "string", "minLength": 1, "maxLength": 8},
    },
    "required": ["amount", "currency"],
    "additionalProperties": False,
}
TOKEN_TOTAL: dict[str, Any] = {
    "type": "object",
    "properties": {"quote_token": {"type": "string", "minLength": 1, "maxLength": 100}},
    "required": ["quote_token"],
    "additionalProperties": False,
}


def summary_total(caps: Capabilities, conversation_id: str, prompt: Prompt) -> dict[str, Any]:
    """The total the summary ``prompt`` of ``conversation_id`` states under ``caps``."""
    pricing = caps.publicRequest
    if pricing.pricingMode in PRICED_AHEAD:
        return {"amount": pricing.pricingAmountNgn, "currency": caps.currency, "quote_token": None}
    said = "\n".join(
        [conversation_id, prompt.step, str(prompt.version), pricing.pricingMode, caps.currency]
    )
    token = QUOTE_PREFIX + hashlib.sha256(said.encode("utf-8")).hexdigest()[:24]
    return {"amount": None, "currency": caps.currency, "quote_token": token}


def total_schema(total: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of the ``total`` a confirm of this summary carries."""
    return TOKEN_TOTAL if total["quote_token"] is not None else AMOUNT_TOTAL


def confirms_total(confirm: dict[str, Any], total: dict[str, Any]) -> bool:
    """Whether the answer ``confirm`` carries ``total``."""
    given = confirm.get("total")
    if not isinstance(given, dict):
        return False
    token = total["quote_token"]
    if token is not None:
        presented = given.get("quote_token")
        return isinstance(presented, str) and hmac.compare_digest(
            presented.encode("utf-8", "replace"), token.encode("utf-8")
        )
    amount, currency = given.get("amount"), given.get("currency")
    return (
        isinstance(amount, int | float)
        and not isinstance(amount, bool)
        and math.isclose(float(amount), float(total["amount"]), abs_tol=0.005)
        and isinstance(currency, str)
        and currency.strip().upper() == str(total["currency"]).upper()
    )
