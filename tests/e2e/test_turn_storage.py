"""What one Telegram turn costs the store: one session read at most, one commit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.conftest import ADA, BotStack

# The runtime's background workers (bot.runtime.workers): their housekeeping and relaying may
# commit while a turn runs on a loaded machine, and are not the turn's cost.
WORKERS = frozenset(
    {
        "relay",
        "create-follow-up",
        "housekeeping",
        "retention",
        "status-poller",
        "handoffs",
        "rider-tracker",
    }
)


def _in_a_worker() -> bool:
    task = asyncio.current_task()
    return task is not None and task.get_name() in WORKERS


class StoreCalls:
    """Session reads and commits (lone writes and transactions) that reach SQLite from
    anything but the background workers."""

    def __init__(self, stack: BotStack, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = 0
        self.commits = 0
        db = stack.bot.store._db
        fetch_all, execute, transaction = db.fetch_all, db.execute, db.transaction

        async def counted_fetch(sql: str, *args: Any, **kwargs: Any) -> Any:
            if "FROM sessions" in sql and "chat_id = ?" in sql:
                self.reads += 1
            return await fetch_all(sql, *args, **kwargs)

        async def counted_execute(sql: str, *args: Any, **kwargs: Any) -> Any:
            # Not the turn's: the update's own row, stored at the door before PTB sees it
            # (polling mode), in a commit of its own that updates arriving together share.
            at_the_door = "INSERT INTO telegram_update_inbox" in sql
            self.commits += not _in_a_worker() and not at_the_door
            return await execute(sql, *args, **kwargs)

        def counted_transaction() -> Any:
            self.commits += not _in_a_worker()
            return transaction()

        monkeypatch.setattr(db, "fetch_all", counted_fetch)
        monkeypatch.setattr(db, "execute", counted_execute)
        monkeypatch.setattr(db, "transaction", counted_transaction)


async def test_a_tap_reads_the_session_once_and_commits_once(
    stack: BotStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first,) = await stack.command(ADA, "new")
    calls = StoreCalls(stack, monkeypatch)

    await stack.tap(first, "✓ Pickup & delivery")

    assert (calls.reads, calls.commits) == (1, 1)


async def test_help_mid_order_reads_the_session_once(
    stack: BotStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    await stack.command(ADA, "new")
    calls = StoreCalls(stack, monkeypatch)

    await stack.command(ADA, "help")  # asks whether an order is open, then answers in it

    assert (calls.reads, calls.commits) == (1, 1)


async def test_a_new_order_reads_once_and_needs_no_read_after_its_save(
    stack: BotStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    await stack.command(ADA, "help")  # no order open yet; the start-up prunes are done
    calls = StoreCalls(stack, monkeypatch)

    # /new first reads whether an order is open (its answers would be lost: it asks first);
    # the screen then asks for the new session's id, held already.
    await stack.command(ADA, "new")

    assert (calls.reads, calls.commits) == (1, 1)
