"""``UpdateInboxSweep``'s passes and when it looks again: every ``ORPHANED_SECONDS`` while
nothing is stored (an idle bot, of which a host runs a thousand), at the moment the oldest
stored update becomes an orphan, and every ``SWEEP_SECONDS`` while updates wait."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from telegram.ext import Application, ApplicationBuilder

from bot.chat_ref import TELEGRAM, ChatRef
from bot.store import Store
from bot.telegram.received_update import ReceivedUpdate
from bot.telegram.stored_updates import ORPHANED_SECONDS, SWEEP_SECONDS, UpdateInboxSweep
from tests.support.clock import FakeClock

CHAT = ChatRef(TELEGRAM, 42)


def body(update_id: int) -> str:
    message = {
        "message_id": update_id,
        "date": 1_700_000_000,
        "chat": {"id": CHAT.id, "type": "private"},
        "from": {"id": CHAT.id, "is_bot": False, "first_name": "Ada"},
        "text": "hello",
    }
    return json.dumps({"update_id": update_id, "message": message})


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    store = await Store.connect(tmp_path / "bot.db", clock=clock, synchronous="NORMAL")
    yield store
    await store.close()


@pytest.fixture
def application() -> Application[Any, Any, Any, Any, Any, Any]:
    return ApplicationBuilder().token("123:TEST").updater(None).build()


def queued(application: Application[Any, Any, Any, Any, Any, Any]) -> list[int]:
    """The update ids the sweep handed to the Application, taken off its queue."""
    ids = []
    while not application.update_queue.empty():
        item = application.update_queue.get_nowait()
        assert isinstance(item, ReceivedUpdate)
        ids.append(item.update_id)
    return ids


async def test_an_idle_bot_looks_again_only_when_an_update_stored_now_could_be_orphaned(
    store: Store, clock: FakeClock, application: Application[Any, Any, Any, Any, Any, Any]
) -> None:
    sweep = UpdateInboxSweep(store.telegram_inbox, application, shared=True, clock=clock)
    assert (sweep.look_seconds, sweep.follower_look) == (ORPHANED_SECONDS, SWEEP_SECONDS)
    assert await sweep.run_once() == ORPHANED_SECONDS
    clock.advance(ORPHANED_SECONDS)
    assert await sweep.run_once() == ORPHANED_SECONDS
    assert queued(application) == []


async def test_an_update_another_instance_left_is_taken_the_moment_it_is_orphaned(
    store: Store, clock: FakeClock, application: Application[Any, Any, Any, Any, Any, Any]
) -> None:
    sweep = UpdateInboxSweep(store.telegram_inbox, application, shared=True, clock=clock)
    assert await sweep.run_once() == ORPHANED_SECONDS
    clock.advance(1.5)  # stored by an instance that dies before handling it
    assert await store.telegram_inbox.add(5, CHAT, body(5))
    clock.advance(ORPHANED_SECONDS - 1.5)  # the sweep's next look: not orphaned yet
    assert await sweep.run_once() == pytest.approx(1.5)  # ... but then
    clock.advance(1.5)
    assert await sweep.run_once() == SWEEP_SECONDS  # it waits to be handled
    assert queued(application) == [5]
    assert await sweep.run_once() == SWEEP_SECONDS
    assert queued(application) == []  # handed over once


async def test_a_stored_update_keeps_the_short_look_until_handled_and_pruned(
    store: Store, clock: FakeClock, application: Application[Any, Any, Any, Any, Any, Any]
) -> None:
    sweep = UpdateInboxSweep(store.telegram_inbox, application, shared=True, clock=clock)
    assert await store.telegram_inbox.add(6, CHAT, body(6))  # a slow turn's update
    assert await sweep.run_once() == SWEEP_SECONDS
    assert await store.updates.begin(6, CHAT)
    await store.updates.finish(6, CHAT)  # its turn committed: handled
    assert await store.telegram_inbox.count() == 1
    assert await sweep.run_once() == ORPHANED_SECONDS
    assert await store.telegram_inbox.count() == 0  # the customer's message is gone
    assert queued(application) == []


async def test_alone_on_its_store_the_updates_stored_before_it_started_are_taken_at_once(
    store: Store, clock: FakeClock, application: Application[Any, Any, Any, Any, Any, Any]
) -> None:
    assert await store.telegram_inbox.add(7, CHAT, body(7))  # the last run died with it
    clock.advance(1.0)
    sweep = UpdateInboxSweep(store.telegram_inbox, application, shared=False, clock=clock)
    assert await sweep.run_once() == SWEEP_SECONDS
    assert queued(application) == [7]


async def test_a_pass_on_an_idle_inbox_reads_and_writes_nothing_else(
    store: Store,
    clock: FakeClock,
    application: Application[Any, Any, Any, Any, Any, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sweep = UpdateInboxSweep(store.telegram_inbox, application, shared=True, clock=clock)
    calls: list[str] = []
    inbox = store.telegram_inbox
    for name in ("prune_handled", "older"):
        method = getattr(inbox, name)

        async def counted(*args: Any, _method: Any = method, _name: str = name) -> Any:
            calls.append(_name)
            return await _method(*args)

        monkeypatch.setattr(inbox, name, counted)
    assert await sweep.run_once() == ORPHANED_SECONDS
    assert calls == []
