import json
from collections.abc import Callable

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import SessionRecord, Store


async def test_a_saved_session_comes_back_with_its_time(store: Store, clock: Clock) -> None:
    data = json.dumps({"flow": "pickup_delivery", "step": "dropoff", "answers": {"a": "ü"}})
    await store.sessions.save(chat=ChatRef("telegram", 10), user_id=20, data_json=data)
    assert await store.sessions.get(ChatRef("telegram", 10)) == SessionRecord(
        ChatRef("telegram", 10), 20, data, clock()
    )
    assert await store.sessions.get(ChatRef("telegram", 11)) is None


async def test_saving_again_replaces_the_session(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    await store.sessions.save(ChatRef("telegram", 10), 20, '{"step": "a"}')
    advance(5)
    await store.sessions.save(ChatRef("telegram", 10), 20, '{"step": "b"}')
    record = await store.sessions.get(ChatRef("telegram", 10))
    assert record is not None
    assert (record.data, record.updated_at) == ('{"step": "b"}', clock())


async def test_delete_reports_whether_there_was_a_session(store: Store) -> None:
    await store.sessions.save(ChatRef("telegram", 10), 20, "{}")
    assert await store.sessions.delete(ChatRef("telegram", 10)) is True
    assert await store.sessions.delete(ChatRef("telegram", 10)) is False
    assert await store.sessions.get(ChatRef("telegram", 10)) is None


async def test_list_open_returns_every_session_least_recent_first(
    store: Store, advance: Callable[[float], None]
) -> None:
    await store.sessions.save(ChatRef("telegram", 2), 2, "{}")
    advance(1)
    await store.sessions.save(ChatRef("telegram", 1), 1, "{}")
    advance(1)
    await store.sessions.save(ChatRef("telegram", 2), 2, '{"moved": true}')
    assert [record.chat.id for record in await store.sessions.list_open()] == [1, 2]


async def test_purge_idle_drops_only_abandoned_sessions(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    await store.sessions.save(ChatRef("telegram", 1), 1, "{}")
    advance(3600)
    cutoff = clock()
    await store.sessions.save(ChatRef("telegram", 2), 2, "{}")
    assert await store.sessions.purge_idle(before=cutoff) == 1
    assert [record.chat.id for record in await store.sessions.list_open()] == [2]


async def test_purge_idle_goes_batch_by_batch_to_the_end(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    for chat in range(1, 8):
        await store.sessions.save(ChatRef("telegram", chat), chat, "{}")
        advance(1)
    cutoff = clock()
    await store.sessions.save(ChatRef("telegram", 99), 99, "{}")
    assert await store.sessions.purge_idle(before=cutoff, batch=3) == 7  # 3 + 3 + 1
    assert [record.chat.id for record in await store.sessions.list_open()] == [99]
    assert await store.sessions.purge_idle(before=cutoff, batch=3) == 0
