"""``store.telegram_inbox``: updates stored once, through the grouped write path, read per chat
oldest first, found by age, left out once handled and then pruned."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.chat_ref import ChatRef
from bot.store import Store
from bot.store.queue_gauges import Backlog

from .conftest import START

CHAT = ChatRef("telegram", 42)
OTHER = ChatRef("telegram", 43)


async def test_an_update_is_stored_once_and_read_per_chat_oldest_first(store: Store) -> None:
    inbox = store.telegram_inbox
    added = await asyncio.gather(
        inbox.add(12, CHAT, '{"update_id": 12}'),
        inbox.add(11, CHAT, '{"update_id": 11}'),
        inbox.add(13, OTHER, '{"update_id": 13}'),
        inbox.add(14, None, '{"update_id": 14}'),
        inbox.add(11, CHAT, '{"update_id": 11}'),  # a repeat in the same group
    )
    assert added == [True, True, True, True, False]
    assert not await inbox.add(12, CHAT, "{}")  # a repeat of one still stored

    assert [u.update_id for u in await inbox.pending_before(CHAT, 13)] == [11, 12]
    assert [u.update_id for u in await inbox.pending_before(CHAT, 12)] == [11]
    assert await inbox.pending_before(CHAT, 11) == []  # never the update itself
    (first, *_) = await inbox.pending_before(CHAT, 99)
    assert (first.chat, first.body, first.received_at) == (CHAT, '{"update_id": 11}', START)
    assert await inbox.count() == 4

    await store.updates.seen(11)  # handled: left out from now on, pruned by the sweep
    assert [u.update_id for u in await inbox.pending_before(CHAT, 99)] == [12]
    assert await inbox.prune_handled() == 1
    assert await inbox.count() == 3


async def test_orphans_are_found_by_age(store: Store, advance: Callable[[float], None]) -> None:
    inbox = store.telegram_inbox
    await inbox.add(21, CHAT, "{}")
    advance(10)
    await inbox.add(22, None, "{}")

    assert [u.update_id for u in await inbox.older(START + 5)] == [21]
    (late,) = [u for u in await inbox.older(START + 11) if u.update_id == 22]
    assert late.chat is None


async def test_the_metrics_gauge_counts_stored_updates_not_handled_yet(
    store: Store, advance: Callable[[float], None]
) -> None:
    assert await store.gauges.telegram_updates() == Backlog(0, None)
    await store.telegram_inbox.add(31, CHAT, "{}")
    advance(5)
    await store.telegram_inbox.add(32, OTHER, "{}")
    await store.updates.seen(31)  # handled, not pruned yet: no longer waiting
    assert await store.gauges.telegram_updates() == Backlog(1, START + 5)
