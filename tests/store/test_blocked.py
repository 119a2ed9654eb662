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
