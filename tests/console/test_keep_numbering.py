"""A question asked again from the summary offers "Keep ..." as option 0, so every other option
keeps the number it had the first time: a number typed means the option shown with it."""

from __future__ import annotations

from bot.console.console_render import render_prompt
from bot.console.parse import parse_line
from conversations import KEEP, ChoiceAnswer, Option, Prompt
from tests.support.words import SHIPPED

REVISITED = Prompt(
    step="pickup_place",
    version=21,
    text="Where should the rider pick the package up?",
    input="place",
    accepts=("location", "choice", "text"),
    options=(
        Option(id=KEEP, label="Keep: Ozone Cinema, Yaba"),
        Option(id="saved:gate", label="UNILAG Main Gate"),
        Option(id="saved:hall", label="Moremi Hall"),
    ),
)


def test_keep_is_zero_and_the_others_keep_their_numbers() -> None:
    shown = render_prompt(SHIPPED, REVISITED)
    assert any(line.strip() == "0. Keep: Ozone Cinema, Yaba" for line in shown)
    assert any(line.strip() == "1. UNILAG Main Gate" for line in shown)
    assert any(line.strip() == "2. Moremi Hall" for line in shown)
    stamp = {"step": "pickup_place", "version": 21}
    assert parse_line(SHIPPED, "0", REVISITED) == ChoiceAnswer(option=KEEP, **stamp)
    assert parse_line(SHIPPED, "1", REVISITED) == ChoiceAnswer(option="saved:gate", **stamp)
    assert parse_line(SHIPPED, "2", REVISITED) == ChoiceAnswer(option="saved:hall", **stamp)


def test_a_lone_keep_is_typed_as_zero() -> None:
    described = Prompt(
        step="package_description",
        version=4,
        text="What is in the package?",
        input="text",
        accepts=("text",),
        options=(Option(id=KEEP, label="Keep: Shoes"),),
    )
    assert "(reply: 0 · type your answer" in render_prompt(SHIPPED, described)[-1]
    assert parse_line(SHIPPED, "0", described) == ChoiceAnswer(
        option=KEEP, step="package_description", version=4
    )
    # Text: there is no option 1 here.
    assert parse_line(SHIPPED, "1", described) == parse_line(SHIPPED, "1", None)
