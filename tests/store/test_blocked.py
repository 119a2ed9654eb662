from pathlib import Path

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import Store
from bot.store.blocked import BlockedChats


async def test_mark_is_blocked_and_clear(store: Store) -> None:
    assert not await store.blocked.is_blocked(ChatRef("telegram", 5))
    await store.blocked.mark(ChatRef("telegram", 5))
    await store.blocked.mark(ChatRef("telegram", 5))
    assert await store.blocked.is_blocked(ChatRef("telegram", 5))
    assert not await store.blocked.is_blocked(ChatRef("telegram", 6))
    assert await store.blocked.clear(ChatRef("telegram", 5))
    assert not await store.blocked.clear(ChatRef("telegram", 5))
    assert not await store.blocked.is_blocked(ChatRef("telegram", 5))


async def test_marks_are_known_again_after_a_restart(db_path: Path, clock: Clock) -> None:
    async with Store.open(db_path, clock=clock) as first:
        await first.blocked.mark(ChatRef("telegram", 5))
        await first.blocked.mark(ChatRef("telegram", 6))
        await first.blocked.clear(ChatRef("telegram", 6))
    async with Store.open(db_path, clock=clock) as second:
        assert await second.blocked.is_blocked(ChatRef("telegram", 5))
        assert not await second.blocked.is_blocked(ChatRef("telegram", 6))
        assert await second.blocked.clear(ChatRef("telegram", 5))
    async with Store.open(db_path, clock=clock) as third:
        assert not await third.blocked.is_blocked(ChatRef("telegram", 5))


async def test_past_the_memory_limit_the_table_answers(db_path: Path, clock: Clock) -> None:
    async with Store.open(db_path, clock=clock) as store:
        blocked = BlockedChats(store._db, clock, memory_limit=3)
        await blocked.load()
        for chat in range(1, 6):  # the fourth mark passes the limit
            await blocked.mark(ChatRef("telegram", chat))
        assert [await blocked.is_blocked(ChatRef("telegram", chat)) for chat in range(7)] == [
            False
        ] + [True] * 5 + [False]
        assert await blocked.clear(ChatRef("telegram", 2))
        assert not await blocked.clear(ChatRef("telegram", 2))
        assert not await blocked.is_blocked(ChatRef("telegram", 2))

        reopened = BlockedChats(store._db, clock, memory_limit=3)
        await reopened.load()  # four marks left: more than it keeps in memory
        assert await reopened.is_blocked(ChatRef("telegram", 5))
        assert not await reopened.is_blocked(ChatRef("telegram", 2))
        assert await reopened.clear(ChatRef("telegram", 5))
        assert not await reopened.is_blocked(ChatRef("telegram", 5))
