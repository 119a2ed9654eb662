import asyncio
from collections.abc import Callable

from bot.chat_ref import ChatRef
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


async def test_committed_resolves_once_a_turn_commits_the_update(store: Store) -> None:
    chat = ChatRef("telegram", 5)
    by_finish = store.updates.committed(7)
    by_save = store.updates.committed(8)
    forgotten = store.updates.committed(9)
    also_waiting = store.updates.committed(9)  # a repeat of it, pushed meanwhile

    async def turn(update_id: int, save: bool) -> None:
        assert await store.updates.begin(update_id, chat)
        if save:  # the session's save commits the id with it
            await store.sessions.save(chat, 5, '{"flow": "x"}')
            assert by_save.done()
        await store.updates.finish(update_id, chat)

    await asyncio.create_task(turn(7, save=False))
    await asyncio.create_task(turn(8, save=True))
    assert by_finish.done() and by_save.done()
    store.updates.forget(9, forgotten)
    assert forgotten.cancelled() and not also_waiting.done()
    await asyncio.create_task(turn(9, save=False))
    assert also_waiting.done()

    repeat = store.updates.committed(7)  # handled before: its repeat's begin resolves it
    assert not await store.updates.begin(7, chat)
    assert repeat.done()
