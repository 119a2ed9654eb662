"""Where the "Pick on the map" button is drawn: beside "Share my location" at a place
question, on its reply keyboard (paged or not); nowhere else, and not without the page."""

from __future__ import annotations

from typing import Any

from telegram import ReplyKeyboardMarkup

from bot.telegram.turn_messages import render_turn
from conversations import Option, Prompt, Turn
from tests.support.words import SHIPPED

URL = "https://bot.example/webapp/place?chat=42"


def _prompt(**fields: Any) -> Prompt:
    base: dict[str, Any] = {
        "step": "dropoff_place",
        "version": 3,
        "text": "Where should the rider deliver it?",
        "input": "place",
        "accepts": ("location", "choice"),
    }
    return Prompt(**(base | fields))


def _rows(turn: Turn, map_url: str | None = URL) -> list[list[dict[str, Any]]]:
    drawn = render_turn(SHIPPED, turn, map_url=map_url)
    keyboards = [m.markup for m in drawn.messages if isinstance(m.markup, ReplyKeyboardMarkup)]
    assert len(keyboards) <= 1
    if not keyboards:
        return []
    return [[button.to_dict() for button in row] for row in keyboards[0].keyboard]


def test_a_place_question_has_the_map_button_first() -> None:
    rows = _rows(Turn(prompt=_prompt(options=(Option(id="saved:1", label="Home"),))))
    assert rows[0] == [{"text": "🗺 Pick on the map", "web_app": {"url": URL}}]
    assert rows[1] == [{"text": "📍 Share my location", "request_location": True}]
    assert rows[2] == [{"text": "Home"}]


def test_a_paged_place_question_carries_it_on_the_share_hint() -> None:
    many = tuple(Option(id=f"saved:{i}", label=f"Place {i}") for i in range(12))
    rows = _rows(Turn(prompt=_prompt(options=many)))
    assert rows[0][0]["web_app"] == {"url": URL}


def test_not_without_the_page_nor_at_a_warehouse_choice() -> None:
    assert all("web_app" not in b for row in _rows(Turn(prompt=_prompt()), None) for b in row)
    warehouse = _prompt(
        step="warehouse",
        input="choice",
        accepts=("choice",),
        options=(Option(id="wh_1", label="Yaba hub"),),
    )
    assert _rows(Turn(prompt=warehouse)) == []
