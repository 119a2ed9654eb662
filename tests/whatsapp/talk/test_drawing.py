"""Any turn the shipped flows produce draws into WhatsApp messages Meta accepts, and every
choice drawn reads back as the answer it stands for.

The flows are walked at random (as ``tests/conversations/test_no_raw_words.py`` walks them),
over orgs that differ in what they offer; each turn is drawn in English and French with "Use my
number" offered, and every page of a long list too. The ``Outgoing`` constructors refuse what
the Cloud API refuses (a fourth button, a 21-character title, an eleventh row), so drawing is
the check; each reply id is then read against the question it was drawn for.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.whatsapp.outgoing import ButtonsMessage, ListMessage, Outgoing
from bot.whatsapp.reply_ids import OwnNumber, PageTurn, read_tap
from bot.whatsapp.turn_drawing import draw_prompt, draw_turn, page_count
from conversations import ChoiceAnswer, CommandAnswer, Option, Prompt, Turn
from tests.conversations.conftest import Chat, World, make_caps
from tests.conversations.test_no_raw_words import ORGS, _answer
from tests.support.words import SHIPPED, said_in

SESSION = "session-1"
OWN = "+2348031234567"
FRENCH = said_in("fr")


def _ids(message: Outgoing) -> list[tuple[str, str]]:
    if isinstance(message, ButtonsMessage):
        return [(button.reply_id, button.title) for button in message.buttons]
    if isinstance(message, ListMessage):
        return [(row.reply_id, row.title) for s in message.sections for row in s.rows]
    return []


def _check_reads_back(prompt: Prompt, messages: list[Outgoing]) -> set[int]:
    """Each choice drawn reads back as what it stands for; the pages it turns to."""
    pages: set[int] = set()
    for reply_id, _title in (pair for message in messages for pair in _ids(message)):
        meant = read_tap(reply_id, prompt, SESSION)
        if isinstance(meant, PageTurn):
            pages.add(meant.page)
        elif isinstance(meant, ChoiceAnswer):
            assert meant.option in {o.id for o in prompt.options}
            assert (meant.step, meant.version) == (prompt.step, prompt.version)
        elif isinstance(meant, CommandAnswer):
            assert meant.name in prompt.commands
        else:
            assert isinstance(meant, OwnNumber) and "contact" in prompt.accepts
    return pages


def _draw_all(turn: Turn) -> None:
    for catalogue in (SHIPPED, FRENCH):
        drawn = draw_turn(catalogue, turn, session_id=SESSION, own_phone=OWN)
        assert drawn or not turn.messages
        if turn.prompt is None:
            continue
        to_draw = _check_reads_back(turn.prompt, drawn)
        seen: set[int] = set()
        while to_draw - seen:  # every page of a long list, as the customer turns them
            page = min(to_draw - seen)
            seen.add(page)
            shown = draw_prompt(
                catalogue, turn.prompt, session_id=SESSION, own_phone=OWN, page=page
            )
            to_draw |= _check_reads_back(turn.prompt, shown)


async def _walk(world: World, seed: int) -> None:
    rnd = random.Random(seed)
    chat: Chat = world.chat()
    await chat.start()
    for _ in range(60):
        _draw_all(chat.turn)
        if chat.turn.finished:
            break
        await chat.send(_answer(rnd, chat.prompt))


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(org=st.sampled_from(ORGS), seed=st.integers(0, 2**32))
def test_every_turn_of_the_shipped_flows_draws_within_whatsapps_limits(
    org: dict[str, Any], seed: int
) -> None:
    asyncio.run(_walk(World(make_caps(**org)), seed))


def _prompt(options: int, **fields: Any) -> Prompt:
    labels = [f"Moremi Hall — University of Lagos, Akoka — B{n:03d}" for n in range(options)]
    return Prompt(
        step="dropoff_unit",
        version=7,
        text="Which room?",
        input="choice",
        accepts=("choice", "text"),
        options=tuple(Option(id=f"room:{n}", label=label) for n, label in enumerate(labels)),
        **fields,
    )


def test_three_choices_are_buttons_and_four_a_list_with_the_long_label_in_its_description() -> None:
    (buttons,) = draw_prompt(SHIPPED, _prompt(2, commands=("back",)), session_id=SESSION)
    assert isinstance(buttons, ButtonsMessage)
    assert [b.title for b in buttons.buttons] == [
        "Moremi Hall — B000",
        "Moremi Hall — B001",
        "Back",
    ]

    (listed,) = draw_prompt(SHIPPED, _prompt(3, commands=("back",)), session_id=SESSION)
    assert isinstance(listed, ListMessage)
    first = listed.sections[0].rows[0]
    assert first.title.endswith("B000") and len(first.title) <= 24
    assert first.description == "Moremi Hall — University of Lagos, Akoka — B000"


def test_81_rooms_page_with_the_default_first_and_numbers_typed_as_rooms() -> None:
    rooms = _prompt(81, commands=("back",), default="room:40", numbers_are_values=True)
    assert page_count(rooms, 1) == 12  # 7 rooms a page beside back, previous and more
    (page,) = draw_prompt(SHIPPED, rooms, session_id=SESSION)
    assert isinstance(page, ListMessage)
    titles = [row.title for row in page.sections[0].rows]
    assert titles[0] == "‹ Previous" or "✓" in " ".join(titles)
    assert any(title.startswith("✓ ") and title.endswith("B040") for title in titles)
    assert "Page 6 of 12. You can also type it." in page.body
    assert titles[-2:] == ["More…", "Back"]
