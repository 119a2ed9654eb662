"""An agent's unfinished order is a session like a Telegram chat's: retention drops it after
``[privacy] drafts_days``. The conversation and its transcript stay (the agent reads them
back); its next answer finds the conversation ended, in the bot's words, and a new one works."""

from __future__ import annotations

import time

from bot.privacy.retention import prune_kind
from conversations.texts import dialogue
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

from .conftest import TO_SUMMARY, AgentWorld

IDLE = 14 * 86_400.0  # [privacy] drafts_days' default


async def test_an_answer_after_the_draft_was_dropped_finds_the_conversation_ended(
    world: AgentWorld,
) -> None:
    wall = FakeClock(time.time())
    world.clock = wall
    await world.restart()
    started = await world.start_order("idle-1")
    conversation = started["id"]
    first = await world.answer(conversation, TO_SUMMARY[0])
    assert first.status_code == 200, first.text
    assert world.store is not None

    wall.now += IDLE + 60
    await prune_kind(world.store, "drafts", world.store.clock() - IDLE)
    late = await world.answer(conversation, TO_SUMMARY[1])

    assert late.status_code == 200, late.text
    view = late.json()
    assert view["status"] == "ended" and view["finished"] is True
    assert view["messages"] == [dialogue.CLOSED.render(SHIPPED)]
    assert view["prompt"] is None
    transcript = await world.api.get(f"/api/conversations/{conversation}/transcript")
    assert len(transcript.json()["entries"]) == 3  # start, the first answer, the late one
    again = await world.start_order("idle-1")
    assert again["prompt"] is not None  # a new conversation starts afresh
