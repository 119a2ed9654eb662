from collections.abc import Callable

from bot.clocks import Clock
from bot.store import Store


async def test_seen_records_an_update_and_flags_its_repeat(store: Store) -> None:
    assert not await store.updates.seen(1001)
    assert await store.updates.seen(1001)
    assert not await store.updates.seen(1002)


async def test_prune_drops_old_ids_only(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    await store.updates.seen(1)
    advance(60)
    cutoff = clock()
    await store.updates.seen(2)
    assert await store.updates.prune(before=cutoff) == 1
    assert not await store.updates.seen(1)  # forgotten, so new again
    assert await store.updates.seen(2)
