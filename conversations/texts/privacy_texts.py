"""The customer's data rights in words: what "my data" hands over and what "forget me" erases,
keeps for the books, and leaves until an open delivery ends."""

from __future__ import annotations

from collections.abc import Sequence

from conversations.texts.catalogue import SHIPPED, Catalogue
from conversations.texts.deliveries_texts import short_ref


def forget_answer(catalogue: Catalogue, *, anonymised: int, open_deliveries: Sequence[str]) -> str:
    """What the customer reads once "forget me" ran: erased; the past deliveries kept without
    them (``anonymised``, when any); an open delivery finished first (``open_deliveries``)."""
    sentences = [catalogue.say("privacy.forget_done")]
    if anonymised == 1 and not _only_many_reworded(catalogue):
        sentences.append(catalogue.say("privacy.forget_books_one"))
    elif anonymised:
        count = catalogue.number(anonymised)
        sentences.append(catalogue.say("privacy.forget_books", count=count))
    if open_deliveries:
        refs = ", ".join(short_ref(delivery_id) for delivery_id in open_deliveries)
        sentences.append(catalogue.say("privacy.forget_open", refs=refs))
    return " ".join(sentences)


def _only_many_reworded(catalogue: Catalogue) -> bool:
    """Whether the business reworded ``privacy.forget_books`` but not its singular (a file
    written before the singular was shipped): then its own words are said for one too."""
    shipped = SHIPPED.get(catalogue.language, {})
    many, one = "privacy.forget_books", "privacy.forget_books_one"
    said = catalogue.messages
    return said.get(many) != shipped.get(many) and said.get(one) == shipped.get(one)
