"""The quote: a delivery fee set after the order, put to its customer as one question ("Keep
the order, or cancel it?"), and every answer to it, for the customer and for operators.

``bot.relay.quote_question`` asks it; ``bot.ordering.quote_desk`` answers it. Statuses are
said as words (``status_label``); no service text or code reaches the customer from here.
"""

from __future__ import annotations

from typing import Literal

from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label


def question(catalogue: Catalogue, amount: float, currency: str) -> str:
    """``Delivery fee: NGN 2,600. Keep the order, or cancel it?`` (under the delivery's
    heading)."""
    return catalogue.say("quote.question", amount=catalogue.money(amount, currency))


def keep_label(catalogue: Catalogue) -> str:
    return catalogue.say("quote.keep")


def cancel_label(catalogue: Catalogue) -> str:
    return catalogue.say("quote.cancel")


def typed_line(catalogue: Catalogue, keep: str, cancel: str) -> str:
    """How to answer where there are no buttons: the words to type for each choice."""
    return catalogue.say("quote.typed", keep=keep, cancel=cancel)


Told = Literal["kept", "cancelled", "already_answered", "not_asked"]
"""The answers that name only the delivery: taken (kept, cancelled), or nothing to take."""


def told(catalogue: Catalogue, delivery_id: str, what: Told) -> str:
    """``Thank you: delivery 3F2A9C1E goes ahead.`` and the other answers of ``Told``."""
    return catalogue.say(f"quote.{what}", ref=short_ref(delivery_id))


def moved_on(catalogue: Catalogue, delivery_id: str, status: str) -> str:
    """The delivery left the statuses a fee can be declined in (picked up, cancelled...)."""
    return catalogue.say(
        "quote.moved_on", ref=short_ref(delivery_id), status=status_label(catalogue, status)
    )


def try_again(catalogue: Catalogue, delivery_id: str, trouble: str) -> str:
    """The service could not be asked: ``trouble`` in plain words, and the answer still open."""
    return catalogue.say("quote.try_again", ref=short_ref(delivery_id), trouble=trouble)


def cancel_reason(catalogue: Catalogue) -> str:
    """The reason sent with the cancel (the business's language: staff read it)."""
    return catalogue.say("quote.cancel_reason")


def for_operators(catalogue: Catalogue, delivery_id: str, outcome: str, status: str = "") -> str:
    """The customer's choice, for the operators' chat: ``kept``, ``cancelled`` or
    ``not_cancelled`` (the service refused: the delivery is ``status`` now)."""
    ref = short_ref(delivery_id)
    if outcome == "kept":
        return catalogue.say("quote.ops_kept", ref=ref)
    if outcome == "cancelled":
        return catalogue.say("quote.ops_cancelled", ref=ref)
    return catalogue.say("quote.ops_not_cancelled", ref=ref, status=status_label(catalogue, status))
