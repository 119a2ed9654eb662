"""Commands as words: what a WhatsApp customer's typed message asks, beside answering.

WhatsApp has no slash-command menu, so the commands are words, in every shipped language
(``conversations.keywords``: "back" or "retour", "status" or "statut"; a leading "/" is fine):

==================================  ===============================================
typed                               means
==================================  ===============================================
``back`` ``cancel`` ``help``        navigation, at the open question
``done`` ``skip``                   finish the photos / skip an optional question
``menu`` (``help`` with no order)   the list of these words, with a menu to tap
``new`` ``repeat``                  a new order / the last order again
``human``                           a person of the business's team (``bot.handoff``)
``status [ref]``                    one of the customer's deliveries (the latest)
``deliveries [page]``               their deliveries, newest first, a page at a time
``cancel_delivery <ref> <why>``     cancel one of them
``quote keep|cancel <ref>``         the answer to a fee set after the order
``my data``                         everything the bot keeps about the customer, as a
                                    file (the whole message; ``privacy_requests``)
``forget me``                       erase it, once the customer confirms
a number                            the option shown with it (not where numbers are
                                    answers themselves: a room "12")
anything else                       text, which answers the open question (an option's
                                    label typed is read by the engine)
==================================  ===============================================

"my data" and "forget me" ("mes données", "oubliez-moi") are read before this table, at any
point, a person awaited or not (``bot.whatsapp.privacy_requests``). Once the order has ended,
"cancel", "status" and "where is my parcel?" are the desk's, as in
the console and on Telegram. Navigation carries the open question's step and version, so a word
typed against a question that just changed is refused kindly like a stale tap.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ordering.typed_requests import (
    AnswerQuote,
    AskPerson,
    AskStatus,
    CancelDelivery,
    ListDeliveries,
    NewOrder,
    RepeatLast,
    after_order_request,
    desk_request,
)
from bot.relay import quote_question
from conversations import ChoiceAnswer, CommandAnswer, CommandName, Prompt, TextAnswer
from conversations.keywords import keyword_named
from conversations.texts.catalogue import Catalogue

NAVIGATION: dict[str, CommandName] = {
    "back": "back",
    "cancel": "cancel",
    "help": "help",
    "done": "done",
    "skip": "skip",
}
MENU = "menu"


@dataclass(frozen=True)
class ShowMenu:
    """ "menu" (or "help" with no order open): the words, and a menu to tap."""


Said = (
    NewOrder
    | RepeatLast
    | AskPerson
    | ShowMenu
    | AskStatus
    | ListDeliveries
    | CancelDelivery
    | AnswerQuote
    | CommandAnswer
    | ChoiceAnswer
    | TextAnswer
)


def read_words(catalogue: Catalogue, typed: str, prompt: Prompt | None) -> Said | None:
    """What ``typed`` means with ``prompt`` open (None: no order open); None for an empty
    message. ``catalogue`` is the customer's (its own words for the keywords count too)."""
    text = typed.strip()
    if not text:
        return None
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if word.casefold() in ("quote", "/quote"):
        quote = quote_question.parse(text)
        if quote is not None:
            return AnswerQuote(*quote)
    keyword = keyword_named(catalogue, word)
    bare = word.casefold().removeprefix("/")
    if not rest:
        if bare == MENU or (keyword == "help" and prompt is None):
            return ShowMenu()
        if keyword == "new":
            return NewOrder()
        if keyword == "repeat":
            return RepeatLast()
        if keyword == "human":
            return AskPerson()
    if prompt is None:
        ended = after_order_request(catalogue, text)  # "annuler", "où est mon colis ?"
        if ended is not None:
            return ended
    desk = desk_request(keyword or bare, rest)
    if desk is not None:
        return desk
    stamp = {"step": prompt.step, "version": prompt.version} if prompt is not None else {}
    command = NAVIGATION.get(keyword or "")
    if command is not None and not rest:
        return CommandAnswer(name=command, **stamp)
    if prompt is not None and text.isdigit() and prompt.options and not prompt.numbers_are_values:
        number = int(text)
        if 1 <= number <= len(prompt.options):
            return ChoiceAnswer(option=prompt.options[number - 1].id, **stamp)
    return TextAnswer(text=text)
