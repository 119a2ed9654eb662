"""``TurnCatalogues``: the catalogue a customer's turn is said from, picked once per turn.

The turn-takers (``ChatService``, ``OrderStarts``) pick it from the business's
``BusinessTexts`` by the language code the channel gives (Telegram's ``language_code``, an
agent's ``language``, the console's) and pass it on explicitly: on ``TurnContext``, to the
engine, to the guards. A call that gives no language code is said in the business default.
"""

from __future__ import annotations

from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue


class TurnCatalogues:
    """The business's texts, and the catalogue each turn of theirs is said from."""

    def __init__(self, texts: BusinessTexts) -> None:
        self.texts = texts

    def pick(self, language: str | None) -> Catalogue:
        """The catalogue for a customer whose client says ``language``: the business's in that
        language, or in its default (None, or a language not shipped)."""
        return self.texts.catalogue_for(language)
