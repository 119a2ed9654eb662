"""Choosing, in each channel's words: the engine's marks said as buttons or as typing."""

from __future__ import annotations

import re

from conversations.refusals import decide
from conversations.texts import dialogue
from conversations.texts.agent_texts import API_TAPS, MCP_TAPS
from conversations.texts.messages_fr import MESSAGES as FRENCH
from conversations.texts.taps import (
    ANY_COMMAND,
    ANY_OPTION,
    BUTTONS,
    KEYBOARD,
    PHOTOS,
    for_channel,
    tap,
    way,
)
from tests.support.words import SHIPPED, said_in

OPTIONS = ["Cash on delivery", "No cash to collect"]


def test_buttons_are_tapped() -> None:
    text = f"Send more or {tap('!done')}. {tap(ANY_OPTION, capital=True)}, or {tap(ANY_COMMAND)}."
    assert for_channel(SHIPPED, text, BUTTONS) == (
        "Send more or tap Done. Tap one of the options, or tap a button."
    )


def test_the_keyboard_types_commands_as_typed_and_options_by_number() -> None:
    text = f"Send more or {tap('!done')}. {tap(ANY_OPTION, capital=True)}, or {tap(ANY_COMMAND)}."
    assert for_channel(SHIPPED, text, KEYBOARD) == (
        "Send more or type done. Type an option's number or name, or type a command."
    )
    amount = f"Type the amount, or {tap('No cash to collect')}."
    numbered = "Type the amount, or type 2 (No cash to collect)."
    assert for_channel(SHIPPED, amount, KEYBOARD, OPTIONS) == numbered
    assert (
        for_channel(SHIPPED, amount, BUTTONS, OPTIONS)
        == "Type the amount, or tap No cash to collect."
    )
    # An option not on screen is named by its label.
    assert for_channel(SHIPPED, amount, KEYBOARD) == "Type the amount, or type No cash to collect."


def test_no_engine_sentence_says_tap_outside_a_mark() -> None:
    texts = [
        dialogue.EDIT_FROM_SUMMARY.render(SHIPPED),
        dialogue.STUCK.render(SHIPPED),
        dialogue.PICK_AN_OPTION.render(SHIPPED),
    ]
    texts += [dialogue.help_for(SHIPPED, kind) for kind in ("choice", "photos", "place", "confirm")]
    texts.append(dialogue.wrong_kind(SHIPPED, ("choice", "command", "location")))
    for text in texts:
        said = for_channel(SHIPPED, text, KEYBOARD)
        assert "tap" not in said.casefold() and "[[" not in said, said
        assert "[[" not in for_channel(SHIPPED, text, BUTTONS)


def test_each_channel_says_its_own_way_to_give_photos() -> None:
    text = f"Please {way(PHOTOS)}."
    assert for_channel(SHIPPED, text, BUTTONS) == "Please send them here as pictures."
    assert for_channel(SHIPPED, text, KEYBOARD) == "Please type the paths of the photo files."
    api = for_channel(SHIPPED, text, API_TAPS)
    assert "/photos route" in api and "website the business accepts" in api
    mcp = for_channel(SHIPPED, text, MCP_TAPS)
    assert "upload" not in mcp and "website the business accepts" in mcp


def test_an_agent_is_told_to_answer_not_to_tap() -> None:
    for taps in (API_TAPS, MCP_TAPS):
        said = for_channel(
            SHIPPED,
            dialogue.STUCK.render(SHIPPED) + " " + dialogue.refusal(SHIPPED, decide("photo_link")),
            taps,
        )
        assert "tap" not in said.casefold() and "[[" not in said, said
        assert "Answer with help" in said


def test_french_never_puts_a_command_form_after_veuillez_or_merci_de() -> None:
    """French asks politely with an infinitive ("Veuillez toucher", "Merci de taper") or
    with the command form alone ("Touchez ..."); the tap words are command forms, so a
    message that puts one after "Veuillez" or "Merci de" reads wrong in every channel."""
    wrong = re.compile(r"\b(Veuillez|Merci de)\s+(\w+ez)\b")
    french = said_in("fr")
    for channel in (BUTTONS, KEYBOARD, API_TAPS, MCP_TAPS):
        for message_id, template in FRENCH.items():
            said = for_channel(french, template, channel)
            assert not wrong.search(said), (message_id, said)
