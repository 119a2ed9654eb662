import re

import pytest

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import Store, UnknownDeliveryError

RECEIVER = "+2348099999999"


@pytest.fixture
async def linked(store: Store) -> Store:
    await store.deliveries.add("d1", ChatRef("telegram", 10), 10, 100.0, RECEIVER, None)
    return store


async def test_put_keeps_the_code_behind_an_unguessable_link_token(linked: Store) -> None:
    handoff = await linked.otp.put("d1", "4821", RECEIVER, created=500)
    assert (handoff.delivery_id, handoff.code, handoff.receiver_phone, handoff.created) == (
        "d1",
        "4821",
        RECEIVER,
        500,
    )
    assert handoff.pending and handoff.delivered_at is None
    # Fits a /start payload (64 characters of A-Z a-z 0-9 _ -) with room for a prefix.
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", handoff.token)
    assert await linked.otp.get_by_token(handoff.token) == handoff
    assert await linked.otp.get("d1") == handoff


async def test_tokens_differ_between_deliveries(linked: Store) -> None:
    await linked.deliveries.add("d2", ChatRef("telegram", 10), 10, 100.0, RECEIVER, None)
    first = await linked.otp.put("d1", "1111", RECEIVER, 500)
    second = await linked.otp.put("d2", "2222", RECEIVER, 500)
    assert first.token != second.token


async def test_looking_up_a_token_does_not_consume_the_code(linked: Store) -> None:
    handoff = await linked.otp.put("d1", "4821", RECEIVER, 500)
    await linked.otp.get_by_token(handoff.token)  # the receiver shared the wrong phone
    again = await linked.otp.get_by_token(handoff.token)
    assert again is not None and again.code == "4821"
    assert await linked.otp.get_by_token("not-a-token") is None


async def test_the_code_is_erased_once_delivered(linked: Store, clock: Clock) -> None:
    handoff = await linked.otp.put("d1", "4821", RECEIVER, 500)
    assert await linked.otp.mark_delivered("d1", "4821", chat=ChatRef("telegram", 99))
    delivered = await linked.otp.get_by_token(handoff.token)
    assert delivered is not None
    assert (delivered.code, delivered.delivered_at, delivered.delivered_chat) == (
        None,
        clock(),
        ChatRef("telegram", 99),
    )
    assert not delivered.pending
    row = await linked._db.fetch_one("SELECT count(*) FROM otp_handoffs WHERE code = '4821'")
    assert row == (0,)
    assert not await linked.otp.mark_delivered("d1", "4821", chat=ChatRef("telegram", 99))


async def test_a_resend_replaces_the_code_and_keeps_the_forwarded_link(linked: Store) -> None:
    first = await linked.otp.put("d1", "1111", RECEIVER, 500)
    await linked.otp.mark_delivered("d1", "1111", ChatRef("telegram", 99))
    resent = await linked.otp.put("d1", "2222", RECEIVER, 900)
    assert resent.token == first.token
    assert resent.code == "2222" and resent.pending and resent.delivered_at is None


async def test_a_replayed_or_older_event_changes_nothing(linked: Store) -> None:
    await linked.otp.put("d1", "2222", RECEIVER, 900)
    await linked.otp.mark_delivered("d1", "2222", ChatRef("telegram", 99))
    replay = await linked.otp.put("d1", "2222", RECEIVER, 900)
    assert replay.code is None and not replay.pending  # not handed out a second time
    older = await linked.otp.put("d1", "1111", RECEIVER, 500)
    assert older.code is None and older.created == 900


async def test_mark_delivered_leaves_a_newer_code_pending(linked: Store) -> None:
    await linked.otp.put("d1", "1111", RECEIVER, 500)
    await linked.otp.put("d1", "2222", RECEIVER, 900)  # resent while 1111 was being sent
    assert not await linked.otp.mark_delivered("d1", "1111", ChatRef("telegram", 99))
    handoff = await linked.otp.get("d1")
    assert handoff is not None and handoff.code == "2222"


async def test_put_for_a_delivery_not_ordered_here_is_refused(store: Store) -> None:
    with pytest.raises(UnknownDeliveryError) as caught:
        await store.otp.put("elsewhere", "4821", RECEIVER, 500)
    assert caught.value.delivery_id == "elsewhere"
    assert "4821" not in str(caught.value)
    assert await store.otp.get("elsewhere") is None


async def test_discard_and_prune(linked: Store) -> None:
    await linked.deliveries.add("d2", ChatRef("telegram", 10), 10, 100.0, RECEIVER, None)
    await linked.otp.put("d1", "1111", RECEIVER, 500)
    await linked.otp.put("d2", "2222", RECEIVER, 900)
    assert await linked.otp.discard("d1")
    assert not await linked.otp.discard("d1")
    assert await linked.otp.prune(before=1000) == 1
    assert await linked.otp.get("d2") is None


async def test_neither_code_nor_token_shows_in_a_logged_record(linked: Store) -> None:
    handoff = await linked.otp.put("d1", "4821", RECEIVER, 500)
    assert "4821" not in repr(handoff)
    assert handoff.token not in repr(handoff)
    assert "d1" in repr(handoff)


async def test_pending_for_phone_finds_only_waiting_codes_for_that_receiver(linked: Store) -> None:
    other = "+2348011111111"
    await linked.deliveries.add("d2", ChatRef("telegram", 10), 10, 100.0, RECEIVER, None)
    await linked.deliveries.add("d3", ChatRef("telegram", 10), 10, 100.0, other, None)
    await linked.otp.put("d2", "2222", RECEIVER, 900)
    await linked.otp.put("d1", "1111", RECEIVER, 500)
    await linked.otp.put("d3", "3333", other, 500)
    waiting = await linked.otp.pending_for_phone(RECEIVER)
    assert [(h.delivery_id, h.code) for h in waiting] == [("d1", "1111"), ("d2", "2222")]
    await linked.otp.mark_delivered("d1", "1111", chat=ChatRef("telegram", 99))
    assert [h.delivery_id for h in await linked.otp.pending_for_phone(RECEIVER)] == ["d2"]
    assert await linked.otp.pending_for_phone("+2348000000000") == []
