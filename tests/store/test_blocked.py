from pathlib import Path

from bot.clocks import Clock
from bot.store import Store


async def test_mark_is_blocked_and_clear(store: Store) -> None:
    assert not await store.blocked.is_blocked(5)
    await store.blocked.mark(5)
    await store.blocked.mark(5)
    assert await store.blocked.is_blocked(5)
    assert not await store.blocked.is_blocked(6)
    assert await store.blocked.clear(5)
    assert not await store.blocked.clear(5)
    assert not await store.blocked.is_blocked(5)


async def test_marks_are_known_again_after_a_restart(db_path: Path, clock: Clock) -> None:
    async with Store.open(db_path, clock=clock) as first:
        await first.blocked.mark(5)
        await first.blocked.mark(6)
        await first.blocked.clear(6)
    async with Store.open(db_path, clock=clock) as second:
        assert await second.blocked.is_blocked(5)
        assert not await second.blocked.is_blocked(6)
        assert await second.blocked.clear(5)
    async with Store.open(db_path, clock=clock) as third:
        assert not await third.blocked.is_blocked(5)
