"""Callback data: compact, under 64 bytes, and a tap on an old keyboard reads as stale."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.telegram.callbacks import (
    COMMANDS,
    MAX_CALLBACK_BYTES,
    PATTERN,
    Button,
    PageTurn,
    UnknownButton,
    command_data,
    decode,
    encode,
    option_data,
    page_count,
    page_data,
    resolve,
    step_tag,
)
from bot.telegram.turn_messages import render_turn
from conversations import (
    ChoiceAnswer,
    CommandAnswer,
    CommandName,
    Engine,
    Option,
    Prompt,
)
from conversations.texts.dialogue import STALE
from tests.support.words import SHIPPED


def prompt(
    step: str = "package_size", version: int = 3, options: int = 3, **extra: object
) -> Prompt:
    return Prompt.model_validate(
        {
            "step": step,
            "version": version,
            "text": "How big is it?",
            "input": "choice",
            "accepts": ("choice",),
            "options": [Option(id=f"size-{i}", label=f"Size {i}") for i in range(options)],
            **extra,
        }
    )


def test_every_option_round_trips_to_its_id() -> None:
    asked = prompt(options=5)
    for index, option in enumerate(asked.options):
        answer = resolve(option_data(asked, index), asked)
        assert answer == ChoiceAnswer(option=option.id, step="package_size", version=3)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_round_trips(name: CommandName) -> None:
    asked = prompt()
    assert resolve(command_data(asked, name), asked) == CommandAnswer(
        name=name, step="package_size", version=3
    )


def test_the_command_table_covers_every_command_once() -> None:
    assert sorted(COMMANDS) == sorted(get_args(CommandName))


def test_a_page_button_turns_the_page() -> None:
    asked = prompt(options=20)
    assert page_count(asked) == 3
    assert resolve(page_data(asked, 2), asked) == PageTurn(2)
    with pytest.raises(IndexError):
        page_data(asked, 3)


def test_data_fits_64_bytes_however_long_the_step_and_many_the_options() -> None:
    asked = Prompt(
        step="s" * 500,
        version=10**15,
        text="?",
        input="choice",
        accepts=("choice",),
        options=tuple(Option(id="x" * 300 + str(i), label=str(i)) for i in range(5000)),
    )
    every = [option_data(asked, i) for i in range(len(asked.options))]
    every += [page_data(asked, p) for p in range(page_count(asked))]
    every += [command_data(asked, name) for name in COMMANDS]
    assert max(len(data.encode()) for data in every) <= MAX_CALLBACK_BYTES
    assert all("sss" not in data and "xxx" not in data for data in every)
    assert resolve(every[4999], asked) == ChoiceAnswer(
        option="x" * 300 + "4999", step="s" * 500, version=10**15
    )


def test_a_tap_on_an_older_version_of_the_same_step_carries_its_old_version() -> None:
    old, now = prompt(version=3), prompt(version=7)
    answer = resolve(option_data(old, 1), now)
    assert isinstance(answer, ChoiceAnswer)
    assert (answer.step, answer.version) == ("package_size", 3)


def test_a_tap_on_another_step_carries_a_step_no_flow_has() -> None:
    old, now = prompt(step="service_kind", version=7), prompt(step="package_size", version=7)
    answer = resolve(option_data(old, 0), now)
    assert isinstance(answer, ChoiceAnswer)
    assert answer.step == f"#{step_tag('service_kind')}" and answer.version == 7
    stale_command = resolve(command_data(old, "cancel"), now)
    assert isinstance(stale_command, CommandAnswer) and stale_command.step != "package_size"


def test_a_keyboard_of_another_session_is_stale_when_sessions_are_tagged() -> None:
    asked = prompt(version=1)
    earlier_order = option_data(asked, 0, session_id="session-a")
    answer = resolve(earlier_order, asked, session_id="session-b")
    assert isinstance(answer, ChoiceAnswer) and answer.step != asked.step
    current = resolve(option_data(asked, 0, session_id="session-b"), asked, session_id="session-b")
    assert current == ChoiceAnswer(option="size-0", step="package_size", version=1)


def test_a_stale_page_turn_is_a_stale_answer_not_a_page() -> None:
    old, now = prompt(options=20, version=2), prompt(options=20, version=3)
    answer = resolve(page_data(old, 1), now)
    assert isinstance(answer, ChoiceAnswer) and answer.version == 2


def test_a_tap_with_no_open_question_is_still_an_answer_the_engine_can_refuse() -> None:
    answer = resolve(option_data(prompt(), 0), None)
    assert isinstance(answer, ChoiceAnswer) and answer.step.startswith("#")


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "hello",
        "dl:page:2",  # another handler's data
        "q1:o:short:1:1",
        "q1:x:AAAAAAAA:1:1",
        "q1:o:AAAAAAAA:1",
        "q1:o:AAAAAAAA:1:1:1",
        "q1:o:AAAAAAAA:-1:1",
        "q1:o:AAAAAAAA:1z!:1",
        "q1:o:AAAAAAAA:" + "z" * 13 + ":1",
        "q1:o:AAAAAAAA:1:1\n",
        "q1:o:AAAAAAAA:١:1",  # a non-ASCII digit
        "x" * 200,
    ],
)
def test_garbage_is_an_unknown_button(data: str | None) -> None:
    assert isinstance(decode(data), UnknownButton)
    assert isinstance(resolve(data, prompt()), UnknownButton)


def test_indexes_past_the_end_of_the_open_prompt_are_unknown() -> None:
    asked = prompt(options=3)
    tag = step_tag(asked.step)
    assert isinstance(resolve(encode(Button("option", tag, 3, 3)), asked), UnknownButton)
    assert isinstance(resolve(encode(Button("page", tag, 3, 1)), asked), UnknownButton)
    assert isinstance(resolve(encode(Button("command", tag, 3, 35)), asked), UnknownButton)


@given(st.text(max_size=80))
def test_decoding_never_raises(data: str) -> None:
    assert isinstance(
        resolve(data, prompt()), ChoiceAnswer | CommandAnswer | PageTurn | UnknownButton
    )


def test_encoding_refuses_what_it_cannot_carry() -> None:
    tag = step_tag("x")
    with pytest.raises(ValueError):
        encode(Button("option", tag, -1, 0))
    with pytest.raises(ValueError):
        encode(Button("option", tag, 36**12, 0))
    with pytest.raises(ValueError):
        encode(Button("option", "not-a-tag", 1, 0))
    with pytest.raises(IndexError):
        option_data(prompt(options=2), 2)


def test_the_handler_pattern_matches_only_this_codec() -> None:
    assert PATTERN.match(option_data(prompt(), 0))
    assert not PATTERN.match("dl:page:2")


def test_step_tags_are_stable_and_differ_by_step_and_session() -> None:
    assert step_tag("pickup_place") == step_tag("pickup_place")
    assert len({step_tag("a"), step_tag("b"), step_tag("a", "s1"), step_tag("a", "s2")}) == 4


async def test_the_engine_refuses_a_tap_on_an_old_keyboard_kindly(engine: Engine) -> None:
    session, first = await engine.start(SHIPPED, "order")
    assert first.prompt is not None
    drawn = render_turn(SHIPPED, first, session_id=session.id)
    assert drawn.prompt_index is not None
    keyboard = drawn.messages[drawn.prompt_index].markup
    data = [row[0].callback_data for row in keyboard.inline_keyboard]  # type: ignore[union-attr]

    tapped = resolve(data[0], first.prompt, session_id=session.id)
    assert tapped == ChoiceAnswer(option="pickup_delivery", step="service_kind", version=1)
    second = await engine.handle(SHIPPED, session, tapped)  # type: ignore[arg-type]
    assert second.prompt is not None and second.prompt.step != "service_kind"

    again = resolve(data[1], second.prompt, session_id=session.id)  # the old keyboard
    refused = await engine.handle(SHIPPED, session, again)  # type: ignore[arg-type]
    assert refused.messages[0] == STALE.render(SHIPPED)
    assert refused.prompt == second.prompt
