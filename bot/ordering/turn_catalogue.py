"""``TurnCatalogues``: the catalogue a customer's turn is said from, picked once per turn.

The turn-takers (``ChatService``, ``OrderStarts``) pick it from the business's
``BusinessTexts`` by the language code the channel gives (Telegram's ``language_code``, an
agent's ``language``) and pass it on explicitly: on ``TurnContext``, to the engine, to the
guards. Two bridges remain for the bot code not yet given its catalogue (issue 35), and this
module is the ordering's only door to ``bot.turn_speech``:

* a caller that gives no language code (the Telegram adapter, the console) keeps the
  catalogue its entry point is speaking (``speaking_language``);
* while the turn runs, that catalogue is also the one being spoken, for what the turn
  reaches that still reads it (an operator's ``[limits]`` alert).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.turn_speech import current, speaking
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue


class TurnCatalogues:
    """The business's texts, and the catalogue each turn of theirs is said from."""

    def __init__(self, texts: BusinessTexts) -> None:
        self.texts = texts

    def pick(self, language: str | None) -> Catalogue:
        """The catalogue for a customer whose client says ``language`` (the business's in that
        language, or in its default); None keeps the one being spoken (the entry point's)."""
        return current() if language is None else self.texts.catalogue_for(language)

    @asynccontextmanager
    async def speaking(self, catalogue: Catalogue) -> AsyncIterator[Catalogue]:
        """The turn said from ``catalogue``, also for what still reads the one being spoken."""
        with speaking(catalogue):
            yield catalogue
