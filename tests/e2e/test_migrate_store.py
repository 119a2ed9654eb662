"""``deliverybot migrate-store``: a bot that ran on SQLite goes on on PostgreSQL.

Ada orders one delivery (its events relayed) and leaves a second order at its summary; the bot
stops; ``migrate-store`` copies the SQLite file into an empty PostgreSQL database, printing
each table's rows; the bot starts again on PostgreSQL (the same media directory) and Ada
confirms the order she left: it is created there, beside the first one, and its events are
relayed. A second run into the now non-empty database is refused and changes nothing.

A SQLite file a running bot holds is refused before the target is touched, and a bot does not
start on a file being copied (``bot.store.sqlite_holders``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from bot.chat_ref import UserRef
from bot.cli import main
from bot.config import StorageConfig
from bot.runtime import StartupError
from bot.store.pg_local_server import LocalPostgres
from bot.store.sqlite_holders import held_by_nobody_else
from tests.e2e.conftest import ADA, MakeStack


async def test_a_sqlite_bot_goes_on_on_postgres_after_migrate_store(
    make_stack: MakeStack,
    postgres_server: LocalPostgres,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stack = await make_stack(workers=False)  # the relay runs when the test says
    first = await stack.order(ADA)
    assert await stack.deliver_events() > 0
    summary = await stack.fill_order(ADA)
    await stack.stop()
    capsys.readouterr()

    dsn = await postgres_server.create_database("migrated")
    sqlite_file = tmp_path / "bot.sqlite3"
    command = ["migrate-store", "--from", str(sqlite_file), "--to", dsn]
    assert await asyncio.to_thread(main, command) == 0
    printed = {line.split()[0]: line.split()[1] for line in capsys.readouterr().out.splitlines()}
    assert printed["sessions"] == "1"  # the order left at its summary
    assert printed["deliveries"] == "1"
    assert int(printed["inbox"]) > 0 and int(printed["sent_messages"]) > 0
    assert int(printed["funnel_events"]) > 0
    assert dsn not in capsys.readouterr().err

    assert await asyncio.to_thread(main, command) == 1  # not into a database with rows
    assert "already has rows in" in capsys.readouterr().err

    storage = StorageConfig.model_validate(
        {"backend": "postgres", "postgres": {"dsn": dsn}, "media_dir": "media"},
        context={"environ": {}, "base_dir": tmp_path},
    )
    stack.config = stack.config.model_copy(update={"storage": storage})
    runtime = await stack.start()
    assert runtime.store.shared  # on PostgreSQL now

    await stack.tap(summary, "Confirm and send")
    links = await runtime.store.deliveries.for_user(UserRef("telegram", ADA.id), 5)
    assert len(links) == 2 and links[-1].delivery_id == first
    assert await stack.deliver_events() > 0


async def test_a_file_a_running_bot_holds_is_refused_and_nothing_is_copied(
    make_stack: MakeStack,
    postgres_server: LocalPostgres,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stack = await make_stack(workers=False)  # a real runtime on tmp_path / "bot.sqlite3"
    await stack.order(ADA)
    dsn = await postgres_server.create_database("refused")
    sqlite_file = tmp_path / "bot.sqlite3"
    command = ["migrate-store", "--from", str(sqlite_file), "--to", dsn]
    capsys.readouterr()

    assert await asyncio.to_thread(main, command) == 1
    assert capsys.readouterr().err == (
        f"migrate-store: {sqlite_file} is in use: a running deliverybot (run or mcp) has it "
        "open: stop the bot first; nothing was copied\n"
    )
    connection = await asyncpg.connect(dsn)
    try:  # not even the schema: the target was never touched
        tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        assert await connection.fetchval(tables) == 0
    finally:
        await connection.close()

    await stack.stop()  # the hold ends with the runtime
    assert await asyncio.to_thread(main, command) == 0


async def test_a_bot_does_not_start_on_a_file_being_copied(
    make_stack: MakeStack, tmp_path: Path
) -> None:
    sqlite_file = tmp_path / "bot.sqlite3"
    with held_by_nobody_else(sqlite_file), pytest.raises(StartupError) as refused:
        await make_stack(workers=False)
    assert str(refused.value) == (
        f"[storage] path: {sqlite_file} is in use: deliverybot migrate-store is copying it"
    )
