from collections.abc import Callable
from pathlib import Path

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import SendKey, Store

KEY = SendKey(event_id="evt_1", chat=ChatRef("telegram", 42), kind="status")


async def test_claim_then_mark_sent_then_never_again(store: Store) -> None:
    assert not await store.sent.was_sent(KEY)
    assert await store.sent.claim(KEY)
    assert await store.sent.mark_sent(KEY, message_id=777)
    assert await store.sent.was_sent(KEY)
    assert not await store.sent.claim(KEY)
    assert await store.sent.message_id(KEY) == 777


async def test_a_held_claim_is_exclusive_within_the_same_store(store: Store) -> None:
    assert await store.sent.claim(KEY)
    assert not await store.sent.claim(KEY)
    assert not await store.sent.was_sent(KEY)


async def test_release_after_a_failed_send_lets_a_retry_claim(store: Store) -> None:
    assert await store.sent.claim(KEY)
    assert await store.sent.release(KEY)
    assert await store.sent.claim(KEY)


async def test_keys_differ_by_event_chat_and_kind(store: Store) -> None:
    await store.sent.claim(KEY)
    await store.sent.mark_sent(KEY, 1)
    for other in (
        SendKey("evt_2", ChatRef("telegram", 42), "status"),
        SendKey("evt_1", ChatRef("telegram", 43), "status"),
        SendKey("evt_1", ChatRef("telegram", 42), "tracking"),
    ):
        assert await store.sent.claim(other)


async def test_mark_sent_keeps_the_first_message_id(store: Store) -> None:
    assert await store.sent.mark_sent(KEY, 1)  # marking without a claim is allowed
    assert not await store.sent.mark_sent(KEY, 2)
    assert await store.sent.message_id(KEY) == 1
    assert await store.sent.message_id(SendKey("x", ChatRef("telegram", 1), "status")) is None


async def test_release_does_not_touch_a_sent_marker(store: Store) -> None:
    await store.sent.claim(KEY)
    await store.sent.mark_sent(KEY, None)
    assert not await store.sent.release(KEY)
    assert await store.sent.was_sent(KEY)
    assert await store.sent.message_id(KEY) is None


async def test_a_claim_left_by_an_earlier_store_is_taken_over(db_path: Path) -> None:
    # The first process claimed, then died before sending: the restart must send.
    async with Store.open(db_path) as first:
        assert await first.sent.claim(KEY)
    async with Store.open(db_path) as restarted:
        assert await restarted.sent.claim(KEY)
        assert not await restarted.sent.claim(KEY)


async def test_prune_forgets_old_markers(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    await store.sent.mark_sent(KEY, 1)
    advance(10)
    recent = SendKey("evt_2", ChatRef("telegram", 42), "status")
    await store.sent.mark_sent(recent, 2)
    assert await store.sent.prune(before=clock()) == 1
    assert not await store.sent.was_sent(KEY)
    assert await store.sent.was_sent(recent)
