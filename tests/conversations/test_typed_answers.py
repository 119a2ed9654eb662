"""Answers the way people type them: an option by its label or the start of it, in any case,
accents ignored; an empty answer re-asked with its reason; a long answer quoted short in a
refusal; a name needs a letter."""

from __future__ import annotations

from conversations.dialog import Option
from conversations.engine.option_names import option_named
from conversations.texts.dialogue import QUOTE_LENGTH, quoted

SIZES = [
    Option(id="small", label="Small"),
    Option(id="medium", label="Medium"),
    Option(id="large", label="Large"),
]
PAYING = [
    Option(id="cash_on_delivery", label="Espèces à la livraison"),
    Option(id="online_checkout", label="Payer en ligne"),
]


def test_an_option_by_label_id_or_unambiguous_start_in_any_case() -> None:
    assert option_named("MEDIUM", SIZES, prefixes=True) == SIZES[1]
    assert option_named("  sm ", SIZES, prefixes=True) == SIZES[0]
    assert option_named("especes", PAYING, prefixes=True) == PAYING[0]  # accents ignored
    assert option_named("en ligne", PAYING, prefixes=True) is None  # not a start of a word run
    assert option_named("ligne", PAYING, prefixes=True) == PAYING[1]  # a word of the label
    assert option_named("online", PAYING, prefixes=True) == PAYING[1]  # its id


def test_no_guess_when_several_options_start_alike_or_the_step_takes_text() -> None:
    both = [Option(id="a", label="Moremi Hall"), Option(id="b", label="Moremi Library")]
    assert option_named("moremi", both, prefixes=True) is None
    assert option_named("m", SIZES, prefixes=True) is None  # one letter names too much
    rooms = [Option(id="12", label="12"), Option(id="13", label="13")]
    assert option_named("1", rooms, prefixes=False) is None
    assert option_named("12", rooms, prefixes=False) == rooms[0]  # a whole label still counts


def test_a_refusal_quotes_at_most_sixty_characters() -> None:
    assert len(quoted("A017 " * 120)) <= QUOTE_LENGTH == 60
    assert quoted("A017") == "A017"


async def test_a_typed_label_answers_a_choice_and_a_name_needs_a_letter(new_world) -> None:
    chat = new_world().chat()
    await chat.start("pickup_delivery")
    first = chat.step
    await chat.say("")
    assert "That answer was empty" in chat.said and chat.step == first
    prompt = chat.prompt
    assert prompt is not None and prompt.options
    await chat.say(prompt.options[0].label.upper())
    assert chat.step != first
