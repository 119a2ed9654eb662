"""The shipped words a test expects: the default business's catalogue with every channel's own.

What a bot built from a config without ``[texts]`` says to a customer whose client asks for no
shipped language, and to its staff: the shipped English catalogue with the words of every
channel this bot ships (Telegram's, the map page's, the console's). A test that builds a
business with other texts reads that business's ``BusinessTexts`` instead.
"""

from __future__ import annotations

from bot.channel_texts import shipped_channel_texts
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue, Texts

SHIPPED_TEXTS: Texts = DEFAULT_TEXTS.with_channels(*shipped_channel_texts())
"""Every shipped catalogue with every shipped channel's words (the business default English)."""

SHIPPED: Catalogue = SHIPPED_TEXTS.business_catalogue()
"""The catalogue the default business speaks to a customer in no shipped language and to staff."""


def say(message_id: str, /, **values: object) -> str:
    """Message ``message_id`` as the default business says it (``SHIPPED``)."""
    return SHIPPED.say(message_id, **values)


def said_in(language: str) -> Catalogue:
    """The default business's catalogue for a customer whose client says ``language``."""
    return SHIPPED_TEXTS.catalogue_for(language)
