"""Arbitrary Unicode at every text step of the flows: lone surrogates, control characters,
empty and very long text. Each gets a reply, nothing raises, and the session after it is saved
in a real SQLite store and read back unchanged (what a restart would resume).

The flows are walked along their usual answers; at every question that takes text, a drawn
text is sent to a copy of the session first, so the walk itself goes on unchanged.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.chat_ref import ChatRef
from bot.store import Store
from conversations.dialog import Answer, TextAnswer, Turn
from conversations.session import Session
from tests.support.words import SHIPPED

from .conftest import Chat, World

# The characters that broke things first: hypothesis draws the first alternatives most often.
NASTY = ["\ud83d", "\ude00", "\x00", "\x1b", "\x7f", "\u202e", "\ufeff", "\u200b", "\n", "\t"]
CHARACTERS = st.one_of(
    st.sampled_from(NASTY),
    st.characters(categories=["Cs"]),  # any lone surrogate: half an emoji
    st.characters(exclude_categories=[]),  # every other category: Cc, Cf, Zs, So ...
)


def strings(min_size: int = 0, max_size: int = 40) -> st.SearchStrategy[str]:
    """Text of ``CHARACTERS``; ``st.text`` would quietly leave the surrogates out."""
    return st.lists(CHARACTERS, min_size=min_size, max_size=max_size).map("".join)


PLAUSIBLE = ["Ada Obi", "12 Marina Road, Lagos", "Two books", "0802 222 3333", "ada@example.com"]


@st.composite
def noisy(draw: st.DrawFn) -> str:
    """A plausible answer with arbitrary characters slipped in: a step may well keep it."""
    text = draw(st.sampled_from(PLAUSIBLE))
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(strings(1, 4)) + text[at:]


TEXTS = st.one_of(
    noisy(),
    strings(),
    strings(1, 8).map(lambda chunk: chunk * 700),  # far too long
)

WALKS = ["pickup_delivery", "errand:at_place", "errand:link", "errand:photo", "return_parcel"]


class ProbingChat(Chat):
    """A chat that, before each answer to a question taking text, sends ``draw()`` to a copy
    of the session and checks the reply and the session saved after it."""

    def __init__(self, chat: Chat, draw: Callable[[], str], store: Store) -> None:
        super().__init__(chat.engine, chat.before_create)
        self._draw = draw
        self._store = store
        self.probed: list[str] = []

    async def send(self, answer: Answer) -> Turn:
        if self.prompt is not None and "text" in self.prompt.accepts:
            await self._probe(self._draw())
        return await super().send(answer)

    async def _probe(self, text: str) -> None:
        assert self.session is not None and self.prompt is not None
        self.probed.append(self.prompt.step)
        copy = Session.model_validate_json(self.session.model_dump_json())
        turn = await self.engine.handle(SHIPPED, copy, TextAnswer(text=text))
        assert turn.messages or turn.prompt is not None, "no reply"
        await self._store.sessions.save(ChatRef("telegram", 1001), 1001, copy.model_dump_json())
        record = await self._store.sessions.get(ChatRef("telegram", 1001))
        assert record is not None
        assert Session.model_validate_json(record.data) == copy


async def walk(world: World, name: str, draw: Callable[[], str], store: Store) -> list[str]:
    """Walk one flow along its usual answers, probing every text question; the steps probed."""
    chat = ProbingChat(world.chat(), draw, store)
    if name == "pickup_delivery":
        await chat.pickup_delivery_to_summary()
    elif name.startswith("errand:"):
        await chat.errand_to_summary(name.removeprefix("errand:"))
    else:
        await chat.start()
        await chat.tap("return_parcel")
        await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
        await chat.contact("+2348031234567", "Ada", "Obi")
        await chat.command("skip")
        await chat.tap("no")
        await chat.contact("+2348055555555", "Chidi", "Eze")
        await chat.say("Wrong size shoes, order 1234")
        await chat.tap("small")
        await chat.photos(1)
        await chat.command("done")
        await chat.pay("online_checkout")
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert chat.turn.status == "created"
    return chat.probed


async def _walk_with(name: str, texts: list[str]) -> None:
    drawn = itertools.cycle(texts)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.connect(Path(folder) / "bot.sqlite3", synchronous="NORMAL")
        try:
            probed = await walk(World(), name, lambda: next(drawn), store)
        finally:
            await store.close()
    assert probed, f"{name} asked for no text"


# A few texts per example: drawing dozens would exhaust hypothesis's buffer, and it then draws
# only empty strings.
@pytest.mark.parametrize("name", WALKS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(TEXTS, min_size=4, max_size=4))
def test_any_text_at_any_text_step_gets_a_reply_and_the_session_saves(
    name: str, texts: list[str]
) -> None:
    asyncio.run(_walk_with(name, texts))
