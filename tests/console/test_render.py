"""render_turn: messages, the question, numbered options, and how to answer."""

from __future__ import annotations

from bot.console.console_render import render_turn, said, ways_to_answer
from conversations import Option, PhotoCount, Prompt, Turn
from conversations.texts.taps import tap
from tests.support.words import SHIPPED


def test_messages_then_the_question_with_numbered_options() -> None:
    prompt = Prompt(
        step="delivery_mode",
        version=2,
        text="How will the rider get the package?",
        input="choice",
        accepts=("choice",),
        options=(
            Option(id="pickup", label="A rider picks it up"),
            Option(id="warehouse", label="Warehouse", detail="14 Allen Avenue"),
        ),
        default="pickup",
        commands=("back",),
    )
    lines = render_turn(SHIPPED, Turn(messages=("Only one service is available.",), prompt=prompt))
    assert lines == [
        "bot: Only one service is available.",
        "bot: How will the rider get the package?",
        "       1. A rider picks it up  [default]",
        "       2. Warehouse (14 Allen Avenue)",
        "     (reply: a number · Enter for the default · back · cancel · help)",
    ]


def test_a_message_of_several_lines_is_indented() -> None:
    assert said("Please check:\n• Size: Small\n\nFee: NGN 1,500") == [
        "bot: Please check:",
        "     • Size: Small",
        "",
        "     Fee: NGN 1,500",
    ]
    assert said("the bot restarted", "demo") == ["demo: the bot restarted"]


def test_long_lists_are_laid_out_in_columns() -> None:
    rooms = tuple(Option(id=f"A{n:03d}", label=f"A{n:03d}") for n in range(1, 41))
    prompt = Prompt(
        step="dropoff_unit", version=1, text="Which room?", input="choice",
        accepts=("choice",), options=rooms,
    )  # fmt: skip
    lines = render_turn(SHIPPED, Turn(prompt=prompt))
    grid = lines[1:-1]
    assert len(grid) < 10 and all(len(line) <= 100 for line in grid)
    assert grid[0].split()[:2] == ["1.", "A001"]
    listed = " ".join(grid)
    assert all(f"{n}. A{n:03d}" in listed for n in range(1, 41))


def test_how_to_answer_follows_what_the_question_accepts() -> None:
    place = Prompt(
        step="pickup_place", version=1, text="Where?", input="place",
        accepts=("location", "choice", "text"), options=(Option(id="saved:1", label="Gate"),),
    )  # fmt: skip
    assert ways_to_answer(SHIPPED, place) == [
        "1",
        "type the address",
        "location <lat> <lng> [address]",
        "cancel",
        "help",
    ]
    contact = Prompt(
        step="sender_name", version=1, text="Name?", input="contact", accepts=("text", "contact")
    )
    assert "contact <phone> [name]" in ways_to_answer(SHIPPED, contact)
    photos = Prompt(
        step="photos", version=1, text="Photos?", input="photos", accepts=("photos",),
        commands=("back", "done"), photos=PhotoCount(have=1, min=1, max=6),
    )  # fmt: skip
    lines = render_turn(SHIPPED, Turn(prompt=photos))
    assert "     (photos so far: 1; at least 1, up to 6)" in lines
    assert lines[-1] == "     (reply: photo file paths · back · done · cancel · help)"
    summary = Prompt(
        step="summary", version=1, text="Check", input="confirm", accepts=("choice",),
        options=(Option(id="confirm", label="Confirm"),),
    )  # fmt: skip
    assert "edit <step>" in ways_to_answer(SHIPPED, summary)


def test_the_console_says_type_where_the_engine_asks_to_choose() -> None:
    prompt = Prompt(
        step="pod_amount",
        version=1,
        text=f"Type the amount in NGN, or {tap('No cash to collect')}.",
        input="text",
        accepts=("text", "choice"),
        options=(Option(id="none", label="No cash to collect"),),
    )
    said = f"Got 1 photo. Send more or {tap('!done')}."
    lines = render_turn(SHIPPED, Turn(messages=(said,), prompt=prompt))
    assert lines[0] == "bot: Got 1 photo. Send more or type done."
    assert lines[1] == "bot: Type the amount in NGN, or type 1 (No cash to collect)."


def test_options_are_not_numbered_where_a_typed_number_is_an_answer() -> None:
    rooms = Prompt(
        step="dropoff_unit", version=1, text="Which room?", input="choice",
        accepts=("choice", "text"), numbers_are_values=True,
        options=(Option(id="A012", label="A012"), Option(id="B012", label="B012")),
    )  # fmt: skip
    assert render_turn(SHIPPED, Turn(prompt=rooms)) == [
        "bot: Which room?",
        "       A012",
        "       B012",
        "     (reply: type one as shown · cancel · help)",
    ]
