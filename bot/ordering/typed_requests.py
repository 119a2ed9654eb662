"""What a customer's typed words ask besides answering the open question, for the channels
where commands are typed (the terminal console, WhatsApp): the values, and the desk's words.

``new``, ``repeat``, ``human`` and the quote question's answer are read by each channel in its
own way (the console takes ``new <flow>``, WhatsApp offers a menu); the customer desk's requests
(``status [ref]``, ``deliveries [page]``, ``cancel_delivery <ref> <why>``) and what a line asks
once the order has ended ("annuler", "où est mon colis ?") are read here, once for both.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.relay.quote_question import QuoteChoice
from conversations.keywords import after_order
from conversations.texts.catalogue import Catalogue


@dataclass(frozen=True)
class NewOrder:
    """The customer asked for a new order: in the entry flow, or in ``flow`` by name
    (``new return_parcel``)."""

    flow: str | None = None


@dataclass(frozen=True)
class RepeatLast:
    """The customer asked to order the same as last time."""


@dataclass(frozen=True)
class AskPerson:
    """``human``: the customer asks to talk to a person (``bot.handoff``)."""


@dataclass(frozen=True)
class AskStatus:
    """``status [ref]``: one of the customer's deliveries (``ref`` empty: the latest)."""

    ref: str = ""


@dataclass(frozen=True)
class ListDeliveries:
    """``deliveries [page]``: a page of the customer's deliveries (``page`` from 1)."""

    page: int = 1


@dataclass(frozen=True)
class CancelDelivery:
    """``cancel_delivery <ref> <reason>`` (either may be missing: the desk says how)."""

    ref: str
    reason: str


@dataclass(frozen=True)
class AnswerQuote:
    """``quote keep <ref>`` / ``quote cancel <ref>``: the answer to a fee set after the order
    (``bot.relay.quote_question``; the relay's question says what to type)."""

    choice: QuoteChoice
    ref: str


DeskRequest = AskStatus | ListDeliveries | CancelDelivery


def desk_request(word: str, rest: str) -> DeskRequest | None:
    """``status [ref]``, ``deliveries [page]``, ``cancel_delivery [ref [reason]]`` (``word``
    the keyword, ``rest`` what follows it); None for anything else (``status`` followed by
    several words is an answer, not a command)."""
    if word == "status" and " " not in rest:
        return AskStatus(rest)
    if word == "deliveries" and (not rest or rest.isdigit()):
        return ListDeliveries(int(rest) if rest else 1)
    if word == "cancel_delivery":
        ref, _, reason = rest.partition(" ")
        return CancelDelivery(ref, reason.strip())
    return None


def after_order_request(catalogue: Catalogue, text: str) -> DeskRequest | None:
    """What a line asks of the desk when no order is open: the latest delivery's status
    ("statut", "où est mon colis ?") or how to cancel it ("annuler")."""
    match after_order(catalogue, text):
        case "status" | "where_is_my_parcel":
            return AskStatus()
        case "cancel":
            return CancelDelivery("", "")
    return None
