"""The quote question: when a delivery ordered without a fee gets one, its customer is asked
once whether to keep the order at that fee or cancel it.

The fee arrives on whatever event carries it (``delivery.updated``, ``status_changed``, the
move out of ``awaiting_price``); the question is due when the delivery was created without a
fee (``delivery_facts.UNPRICED``, kept by the answer to the create, even when the service said
``pending``), or the chat last saw it ``awaiting_price`` (or the event moves it out of there);
when the chat was never told a fee and never asked; and only while a cancel can still be asked
for (before pickup) and the fee is not paid. A delivery priced at its create is never asked.

What the chat was told is kept in the store with the link (``DeliveryLink.told``), so the
question is asked once across instances and restarts: ``quote:<amount>`` once asked, and
``quote_answer:keep`` / ``quote_answer:cancel`` once answered (``bot.ordering.quote_desk``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from bot.partner.models import WebhookEvent
from bot.relay.asking import Asking, Choice
from bot.store import DeliveryLink
from conversations import delivery_facts as facts
from conversations.texts import quote_texts
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref

QuoteChoice = Literal["keep", "cancel"]

KEEP: Final = "keep"
CANCEL: Final = "cancel"
ASKED_PREFIX: Final = "quote:"
ANSWERED_PREFIX: Final = "quote_answer:"
ASKABLE: Final = frozenset({"awaiting_price", "pending", "matched"})
"""Statuses in which the customer may still decline the fee (the spec's cancel before
pickup; later the rider has the package)."""

_SILENT_EVENTS: Final = frozenset({"delivery.created", "delivery.otp_issued", "delivery.cancelled"})
DATA: Final = re.compile(r"^/?quote (keep|cancel) ([0-9A-Za-z_-]{6,64})$", re.IGNORECASE)
"""What a quote choice carries, typed or tapped: ``quote keep 3F2A9C1E``."""


@dataclass(frozen=True)
class Question:
    """The question for one delivery: the text, its choices, and the facts it tells."""

    text: str
    asking: Asking
    told: frozenset[str]


def was_asked(told: frozenset[str]) -> bool:
    return any(fact.startswith(ASKED_PREFIX) for fact in told)


def answer_of(told: frozenset[str]) -> QuoteChoice | None:
    """The choice recorded for the delivery's question, if any."""
    for fact in told:
        if fact == ANSWERED_PREFIX + KEEP:
            return "keep"
        if fact == ANSWERED_PREFIX + CANCEL:
            return "cancel"
    return None


def answered_fact(choice: QuoteChoice) -> str:
    return ANSWERED_PREFIX + choice


def is_due(event: WebhookEvent, link: DeliveryLink) -> bool:
    """Whether ``event`` owes ``link``'s chat the quote question (see the module docstring)."""
    delivery = event.data.object
    if event.type in _SILENT_EVENTS or delivery.status not in ASKABLE:
        return False
    if facts.fee_amount(delivery) is None or facts.is_paid(delivery):
        return False
    if was_asked(link.told) or any(fact.startswith("fee:") for fact in link.told):
        return False
    unpriced = facts.UNPRICED in link.told or link.status == "awaiting_price"
    return unpriced or event.data.previous_status == "awaiting_price"


def choice_data(choice: QuoteChoice, delivery_id: str) -> str:
    """What answers the question with ``choice``: ``quote keep 3F2A9C1E``."""
    return f"quote {choice} {short_ref(delivery_id)}"


def parse(text: str) -> tuple[QuoteChoice, str] | None:
    """``(choice, reference)`` of a typed or tapped ``quote keep 3F2A9C1E``; None otherwise."""
    match = DATA.fullmatch(text.strip())
    if match is None:
        return None
    choice: QuoteChoice = "keep" if match[1].casefold() == KEEP else "cancel"
    return choice, match[2]


def question(catalogue: Catalogue, event: WebhookEvent) -> Question:
    """The question about ``event``'s delivery, said from ``catalogue`` (the planner gives the
    customer's); only for an event ``is_due`` said owes it."""
    delivery = event.data.object
    amount = facts.fee_amount(delivery)
    assert amount is not None, "is_due checks the fee is set"
    currency = (delivery.payment.currency_code if delivery.payment else None) or ""
    keep, cancel = choice_data("keep", delivery.id), choice_data("cancel", delivery.id)
    choices = (
        Choice(quote_texts.keep_label(catalogue), keep),
        Choice(quote_texts.cancel_label(catalogue), cancel),
    )
    asking = Asking(choices, quote_texts.typed_line(catalogue, keep, cancel))
    told = frozenset(fact for fact in (facts.fee(delivery), facts.quote(delivery)) if fact)
    return Question(quote_texts.question(catalogue, amount, currency), asking, told)
