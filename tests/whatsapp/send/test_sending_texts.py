"""The sending side's words: every one in English and French, with the same placeholders."""

from __future__ import annotations

from bot.whatsapp.sending_texts import WHATSAPP_SENDING_TEXTS
from conversations.texts.catalogue import placeholders


def test_every_sentence_has_both_languages_with_the_same_placeholders() -> None:
    english, french = WHATSAPP_SENDING_TEXTS.messages["en"], WHATSAPP_SENDING_TEXTS.messages["fr"]
    assert set(english) == set(french)
    for key, text in english.items():
        assert placeholders(text) == placeholders(french[key]), key
        assert french[key] != text, key
