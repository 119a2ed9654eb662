"""``PgChatLocks`` on the throwaway server: uncontended chats share one connection, contended
ones wait on a pooled one, and a lost shared connection is logged, never silent.

Two ``PgChatLocks`` on one database stand for two instances. Nothing crosses from the server to
the test as an event, so where a test must see the server's state it watches ``pg_locks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.agents.agents_wiring import AGENTS_KIND
from bot.chat_ref import AGENTS, TELEGRAM, ChatRef
from bot.store.advisory_locks import ChatLockKeys
from bot.store.pg_chat_locks import PgChatLocks
from bot.store.pg_local_server import LocalPostgres
from bot.telegram.telegram_kind import TELEGRAM_KIND

Pair = tuple[PgChatLocks, PgChatLocks, asyncpg.Connection]
LOCK_POOL = 2  # far fewer than the chats the tests hold at once
KEYS = ChatLockKeys([TELEGRAM_KIND, AGENTS_KIND])  # the channels the tests lock chats of


@pytest.fixture
async def two(postgres_server: LocalPostgres) -> AsyncIterator[Pair]:
    dsn = await postgres_server.create_database("chat_locks")
    first = await PgChatLocks.connect(dsn, pool_size=LOCK_POOL, keys=KEYS)
    second = await PgChatLocks.connect(dsn, pool_size=LOCK_POOL, keys=KEYS)
    watcher = await asyncpg.connect(dsn)
    try:
        yield first, second, watcher
    finally:
        await watcher.close()
        await first.close()
        await second.close()


def telegram(chat_id: int) -> ChatRef:
    return ChatRef(TELEGRAM, chat_id)


async def holders(watcher: asyncpg.Connection, chat: ChatRef) -> list[tuple[int, bool]]:
    """(backend pid, granted) of every session holding or asking for ``chat``'s lock."""
    key = KEYS.key(chat) % 2**64  # the server shows the key's two halves unsigned
    rows = await watcher.fetch(
        "SELECT pid, granted FROM pg_locks WHERE locktype = 'advisory' AND classid = $1"
        " AND objid = $2 AND objsubid = 1 ORDER BY granted DESC",
        key >> 32,
        key & 0xFFFFFFFF,
    )
    return [(row["pid"], row["granted"]) for row in rows]


async def test_uncontended_chats_are_held_on_one_connection_whatever_the_pool_size(
    two: Pair,
) -> None:
    first, _, watcher = two
    chats = [telegram(chat) for chat in range(100, 100 + 5 * LOCK_POOL)]
    async with asyncio.timeout(5), contextlib.AsyncExitStack() as stack:
        for chat in chats:
            await stack.enter_async_context(first.hold(chat))
        held = [await holders(watcher, chat) for chat in chats]
    assert all(len(sessions) == 1 and sessions[0][1] for sessions in held)
    assert len({sessions[0][0] for sessions in held}) == 1  # one backend holds them all
    assert [await holders(watcher, chat) for chat in chats] == [[]] * len(chats)  # let go


async def test_equal_ids_of_two_channels_are_two_locks(two: Pair) -> None:
    first, second, watcher = two
    async with first.hold(telegram(42)):
        async with asyncio.timeout(5), second.hold(ChatRef(AGENTS, 42)):  # not waited for
            assert len(await holders(watcher, ChatRef(AGENTS, 42))) == 1
        assert len(await holders(watcher, telegram(42))) == 1


async def test_a_chat_another_instance_holds_is_waited_for_on_a_pooled_connection(
    two: Pair,
) -> None:
    first, second, watcher = two
    order: list[str] = []
    async with first.hold(telegram(42)):
        waiting = asyncio.create_task(second_turn(second, telegram(42), order))
        for _ in range(500):  # until second queues at the server
            if len(await holders(watcher, telegram(42))) == 2:
                break
            await asyncio.sleep(0.01)
        assert [granted for _, granted in await holders(watcher, telegram(42))] == [True, False]
        async with (
            asyncio.timeout(5),
            second.hold(telegram(43)),
        ):  # its other chats still go at once
            order.append("second, another chat")
        order.append("first")
    async with asyncio.timeout(5):
        await waiting
    assert order == ["second, another chat", "first", "second"]
    # And once let go, the chat is taken the cheap way again (the shared connection).
    async with asyncio.timeout(5), second.hold(telegram(42)):
        (_, granted), *others = await holders(watcher, telegram(42))
        assert granted and not others


async def second_turn(locks: PgChatLocks, chat: ChatRef, order: list[str]) -> None:
    async with locks.hold(chat):
        order.append("second")


async def test_a_turn_cancelled_half_way_lets_go_of_its_chat(two: Pair) -> None:
    first, second, watcher = two
    holding = asyncio.Event()

    async def turn() -> None:
        async with first.hold(telegram(7)):
            holding.set()
            await asyncio.Event().wait()  # a turn that never ends by itself

    task = asyncio.create_task(turn())
    await holding.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with asyncio.timeout(5), second.hold(telegram(7)):
        assert len(await holders(watcher, telegram(7))) == 1


class LoggedEvent(logging.Handler):
    """Sets ``event`` when a record is logged."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.event.set()


async def test_a_lock_lost_with_the_shared_connection_is_logged_and_the_chat_freed(
    two: Pair, caplog: pytest.LogCaptureFixture
) -> None:
    first, second, watcher = two
    caplog.set_level(logging.ERROR, logger="bot.store.pg_chat_locks")
    logged = LoggedEvent()
    logging.getLogger("bot.store.pg_chat_locks").addHandler(logged)
    async with first.hold(telegram(9)):
        [(pid, _)] = await holders(watcher, telegram(9))
        await watcher.execute("SELECT pg_terminate_backend($1)", pid)
        # The server let go of the lock with its session: the other instance takes the chat
        # while this turn still runs, and this turn's loss is in the log.
        async with asyncio.timeout(5), second.hold(telegram(9)):
            pass
        async with asyncio.timeout(5):
            await logged.event.wait()
    logging.getLogger("bot.store.pg_chat_locks").removeHandler(logged)
    [record] = caplog.records
    assert record.levelno == logging.ERROR and "lost" in record.getMessage()
    # The next turn opens a new shared connection.
    async with asyncio.timeout(5), first.hold(telegram(10)):
        [(new_pid, granted)] = await holders(watcher, telegram(10))
        assert granted and new_pid != pid


async def test_the_task_holding_a_chat_holds_it_again_at_once(two: Pair) -> None:
    first, _, watcher = two
    async with asyncio.timeout(5), first.hold(telegram(11)), first.hold(telegram(11)):
        assert len(await holders(watcher, telegram(11))) == 1
    assert await holders(watcher, telegram(11)) == []


class HeldAnswers:
    """A real lock connection whose answers to one chat's lock requests are held back until
    ``let_answers_through``: the request is at the server, its answer not yet read."""

    def __init__(self, conn: asyncpg.Connection, chat: ChatRef) -> None:
        self._conn = conn
        self._key = KEYS.key(chat)
        self.asked = asyncio.Event()
        self._through = asyncio.Event()

    def let_answers_through(self) -> None:
        self._through.set()

    async def fetchval(self, sql: str, *args: object) -> object:
        answer = await self._conn.fetchval(sql, *args)
        if args == (self._key,) and "try_advisory_lock" in sql:
            self.asked.set()
            await self._through.wait()
        return answer

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


async def test_a_turn_cancelled_while_its_lock_is_asked_keeps_the_other_chats_locked(
    postgres_server: LocalPostgres, caplog: pytest.LogCaptureFixture
) -> None:
    dsn = await postgres_server.create_database("chat_locks_cancelled")
    shared: list[HeldAnswers] = []

    async def connect() -> HeldAnswers:
        shared.append(HeldAnswers(await asyncpg.connect(dsn), telegram(8)))
        return shared[-1]

    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=LOCK_POOL)
    first = PgChatLocks(pool, connect, keys=KEYS)
    second = await PgChatLocks.connect(dsn, pool_size=LOCK_POOL, keys=KEYS)
    watcher = await asyncpg.connect(dsn)
    caplog.set_level(logging.WARNING, logger="bot.store.pg_chat_locks")
    try:
        async with (
            asyncio.timeout(5),
            first.hold(telegram(9)),
        ):  # another turn holds chat 9 meanwhile
            [(pid, _)] = await holders(watcher, telegram(9))
            asking = asyncio.create_task(first.hold(telegram(8)).__aenter__())
            await shared[0].asked.wait()  # granted at the server, the answer on its way
            asking.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asking
            shared[0].let_answers_through()
            # Chat 8 is given back, and chat 9 is still held on the same connection.
            async with second.hold(telegram(8)):
                assert [held for held, _ in await holders(watcher, telegram(8))] != [pid]
            assert await holders(watcher, telegram(9)) == [(pid, True)]
        async with asyncio.timeout(5), first.hold(telegram(10)):
            assert await holders(watcher, telegram(10)) == [
                (pid, True)
            ]  # the same shared connection
    finally:
        await watcher.close()
        await first.close()
        await second.close()
    assert len(shared) == 1
    assert caplog.records == []
