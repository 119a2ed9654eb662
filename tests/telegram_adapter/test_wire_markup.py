"""The keyboards a turn sends, written as JSON by ``wire_markup``: PTB's ``to_dict`` exactly,
for every kind the renderer draws, and PTB's own writing for what it does not know."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LoginUrl,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
)

from bot.telegram.turn_messages import Markup, render_turn
from bot.telegram.wire_markup import wire_markup
from conversations import Option, Prompt, Turn
from tests.support.words import SHIPPED

MAP_URL = "https://bot.example/webapp/place?chat=42"


def _prompt(**fields: Any) -> Prompt:
    base: dict[str, Any] = {"step": "s", "version": 2, "text": "Which?", "input": "choice"}
    base["accepts"] = ("choice",)
    return Prompt.model_validate(base | fields)


OPTIONS = tuple(Option(id=f"o{i}", label=f"Option {i}") for i in range(3))
PAGED = tuple(Option(id=f"o{i}", label=f"Option {i}") for i in range(12))
TURNS = {
    "inline options and commands": Turn(
        prompt=_prompt(options=OPTIONS, default="o1", commands=("back", "cancel"))
    ),
    "paged options": Turn(prompt=_prompt(options=PAGED)),
    "share a location, with the map": Turn(
        prompt=_prompt(input="place", accepts=("location", "choice"), options=OPTIONS)
    ),
    "share a contact": Turn(prompt=_prompt(input="phone", accepts=("contact", "text"))),
}


def _markups(turn: Turn, reply_keyboard: tuple[Any, ...] = ()) -> list[Markup]:
    drawn = render_turn(SHIPPED, turn, map_url=MAP_URL, reply_keyboard=reply_keyboard)
    return [message.markup for message in drawn.messages if message.markup is not None]


@pytest.mark.parametrize("name", TURNS)
def test_a_drawn_keyboard_is_written_as_ptb_writes_it(name: str) -> None:
    markups = _markups(TURNS[name])
    assert markups
    for markup in markups:
        assert wire_markup(markup) == markup.to_dict()


def test_taking_a_reply_keyboard_away_is_written_as_ptb_writes_it() -> None:
    markups = _markups(TURNS["inline options and commands"], reply_keyboard=("location",))
    removals = [markup for markup in markups if isinstance(markup, ReplyKeyboardRemove)]
    assert removals and wire_markup(removals[0]) == {"remove_keyboard": True}
    resized = ReplyKeyboardMarkup([["a"]], resize_keyboard=True, is_persistent=False)
    assert wire_markup(resized) == resized.to_dict()


def test_what_it_does_not_know_is_left_to_ptb() -> None:
    extra = InlineKeyboardMarkup(
        [[InlineKeyboardButton("x", callback_data="y", api_kwargs={"style": "primary"})]]
    )
    login = InlineKeyboardMarkup([[InlineKeyboardButton("in", login_url=LoginUrl("https://a"))]])
    for markup in (extra, login):
        assert wire_markup(markup) == markup.to_dict()
    assert wire_markup(extra)["inline_keyboard"] == [
        [{"text": "x", "callback_data": "y", "style": "primary"}]
    ]
