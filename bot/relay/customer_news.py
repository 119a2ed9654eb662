"""What one event tells the customer who ordered its delivery: each new fact once, in the bot's
own words and the customer's language.

The facts (``conversations.delivery_facts``) are the status, the rider, the fee once set and
the payment once received; the chat's link keeps those it was told (``DeliveryLink.told``), by
earlier events or by the answer to its create, and only the missing ones are said. The
drop-off code is told by its own message (``planner``), so an event carrying it adds nothing
here, nor does the service's "we received it" (``delivery.created``): the chat's answer to its
create said that.

The service's ``customer_message_hint`` is its own sentence in ``[texts] service_language``: it
is passed on only to a customer reading that language, in place of the bot's sentences for the
facts it tells, and never when it only repeats a fact the chat was told (the status it has, a
rider named in the answer to the create, a payment or fee already said). Everyone else reads
the bot's words alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.config.relay_section import CustomerRelay
from bot.partner.models import WebhookEvent
from bot.store import FINAL_STATUSES, DeliveryLink
from conversations import delivery_facts as facts
from conversations.texts import deliveries_texts as wording
from conversations.texts.catalogue import Catalogue

CREATED_EVENT = "delivery.created"
OTP_EVENT = "delivery.otp_issued"
UPDATED_EVENT = "delivery.updated"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

# Words by which the service's hint tells a fact that is not a status.
_FEE_WORDS = ("fee", "price")
_PAID_WORDS = ("payment", "paid")


@dataclass(frozen=True)
class News:
    """The customer's message for one event (None: nothing new), whether it carries the
    tracking link, and the facts it tells."""

    text: str | None
    tracking_sent: bool
    told: frozenset[str]


@dataclass(frozen=True)
class _Sentence:
    text: str
    fact: str | None  # a ``delivery_facts`` word, or None for the status alone
    said_by: tuple[str, ...] | str  # the hint's words that tell it, or a status


def news_sentences(
    catalogue: Catalogue, event: WebhookEvent, link: DeliveryLink
) -> tuple[list[str], frozenset[str]]:
    """The bot's own sentences for what ``event`` tells that ``link``'s chat was not told,
    said from ``catalogue`` (the customer's), and the facts they tell."""
    if event.type in (CREATED_EVENT, OTP_EVENT):
        return [], frozenset()
    return _said(_new_facts(catalogue, event, link))


def customer_news(
    catalogue: Catalogue,
    event: WebhookEvent,
    link: DeliveryLink,
    settings: CustomerRelay,
    *,
    service_language: str,
) -> News:
    """The message ``event`` owes the customer of ``link``, said from ``catalogue`` (the
    planner picks the customer's); the service's own hint is passed on only to a customer
    reading ``service_language`` (``Texts.service_language``)."""
    delivery = event.data.object
    url = delivery.tracking_url or link.tracking_url
    parts: list[str] = []
    told: frozenset[str] = frozenset()
    # A final status the chat was told already (the answer to its own cancel) is no news.
    finished = delivery.status in FINAL_STATUSES and delivery.status == link.status
    if event.type not in (CREATED_EVENT, OTP_EVENT) and not finished:
        sentences = _new_facts(catalogue, event, link)
        hint = _usable_hint(catalogue, event, link, settings, url, service_language)
        if hint and _repeats(catalogue, hint, event, link, sentences):
            hint = ""
        # The hint tells in the service's words what it names; the bot says the rest (when
        # its own news is on).
        replaced = [s for s in sentences if hint and _hint_tells(catalogue, hint, s.said_by)]
        kept = [s for s in sentences if s not in replaced] if settings.status_updates else []
        parts, told = _said(kept)
        told |= _said(replaced)[1]
        if hint:
            parts.append(hint)
    with_tracking = bool(
        settings.tracking_link
        and url
        and not link.tracking_sent
        and delivery.status not in FINAL_STATUSES
    )
    # The service's hint may already carry the link: do not print it twice.
    if with_tracking and url and not any(url in part for part in parts):
        parts.append(wording.tracking_line(catalogue, url))
    if not parts:
        return News(None, False, told)
    return News(wording.customer_update(catalogue, delivery.id, parts), with_tracking, told)


def _said(sentences: list[_Sentence]) -> tuple[list[str], frozenset[str]]:
    """The sentences' texts (a fact told by another sentence has none) and their facts."""
    return [s.text for s in sentences if s.text], frozenset(s.fact for s in sentences if s.fact)


def _new_facts(catalogue: Catalogue, event: WebhookEvent, link: DeliveryLink) -> list[_Sentence]:
    delivery = event.data.object
    found: list[_Sentence] = []
    rider = facts.rider(delivery)
    moved = delivery.status != link.status
    if delivery.status == "matched":
        # Assigned, or another rider now: unless the chat knows this rider has it (the answer
        # to the create named them, or an earlier event did and nobody took them off since).
        known = rider is not None and rider in link.told and link.status == "matched"
        if not known and (moved or rider is not None):
            found.append(
                _Sentence(wording.status_sentence(catalogue, delivery), rider, delivery.status)
            )
    elif moved:
        found.append(_Sentence(wording.status_sentence(catalogue, delivery), None, delivery.status))
    if delivery.status == "cancelled":
        return found  # nothing is owed on a cancelled delivery: its fee is no news
    fee, amount = facts.fee(delivery), facts.fee_amount(delivery)
    if facts.is_paid(delivery) and facts.PAID not in link.told:
        said = wording.paid_sentence(catalogue, amount, _currency(event))
        # "Received NGN 2,600" tells the fee too: no "the fee is NGN 2,600" after it.
        found.append(_Sentence(said, facts.PAID, _PAID_WORDS))
        if fee is not None:
            found.append(_Sentence("", fee, ()))
    elif fee is not None and amount is not None and _fee_is_news(event, link, fee):
        found.append(
            _Sentence(wording.fee_sentence(catalogue, amount, _currency(event)), fee, _FEE_WORDS)
        )
    return [s for s in found if s.text or s.fact]


def _fee_is_news(event: WebhookEvent, link: DeliveryLink, fee: str) -> bool:
    """A fee the chat was not told, set now: the delivery leaves ``awaiting_price``, or an
    update that moves no status changes it. (A link kept before facts were has none: the fee
    its create's answer said is not repeated by its next move.)"""
    if fee in link.told:
        return False
    priced = link.status == "awaiting_price" or event.data.previous_status == "awaiting_price"
    repriced = event.type == UPDATED_EVENT and event.data.object.status == link.status
    return priced or repriced


def _currency(event: WebhookEvent) -> str:
    payment = event.data.object.payment
    return (payment.currency_code if payment else None) or ""


def _usable_hint(
    catalogue: Catalogue,
    event: WebhookEvent,
    link: DeliveryLink,
    settings: CustomerRelay,
    url: str | None,
    service_language: str,
) -> str:
    """The service's hint when this customer reads the service's language, else ""."""
    hint = (event.customer_message_hint or "").strip()
    if not hint or not settings.customer_message_hint:
        return ""
    if catalogue.language != service_language:
        return ""
    if url and link.tracking_sent:
        hint = _without(hint, url)
    return hint


def _repeats(
    catalogue: Catalogue, hint: str, event: WebhookEvent, link: DeliveryLink, new: list[_Sentence]
) -> bool:
    """Whether ``hint`` tells only what the chat was told: the status it already has, the
    payment or the fee once told, with nothing new in the event."""
    if any(_hint_tells(catalogue, hint, sentence.said_by) for sentence in new):
        return False
    delivery = event.data.object
    same_status = delivery.status == link.status and wording.says_status(
        catalogue, hint, delivery.status
    )
    paid_again = facts.PAID in link.told and _hint_tells(catalogue, hint, _PAID_WORDS)
    fee = facts.fee(delivery)
    fee_again = fee is not None and fee in link.told and _hint_tells(catalogue, hint, _FEE_WORDS)
    return same_status or paid_again or fee_again


def _hint_tells(catalogue: Catalogue, hint: str, said_by: tuple[str, ...] | str) -> bool:
    if isinstance(said_by, str):
        return wording.says_status(catalogue, hint, said_by)
    said = hint.casefold()
    return bool(said_by) and any(word in said for word in said_by)


def _without(hint: str, url: str) -> str:
    """``hint`` without its sentences that carry ``url`` (a link the chat already has)."""
    sentences = _SENTENCE_END.split(hint)
    return " ".join(sentence for sentence in sentences if url not in sentence).strip()
