"""``store.handoffs``: one waiting hand-off per chat, one owner, each message delivered once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store import Store
from bot.store.handoffs import TO_CUSTOMER, TO_STAFF, Handoffs, StaffPost
from tests.support.clock import FakeClock

CHAT = ChatRef("telegram", 5)
USER = CHAT.user(55)
ANNA = UserRef("telegram", 901)
BEN = UserRef("telegram", 902)
STAFF_CHAT = ChatRef("telegram", -100)


async def _open(store: Store, chat: ChatRef = CHAT) -> str:
    opened = await store.handoffs.open(
        chat, chat.user(55), name="Ada", flow="pickup_delivery", step="dropoff_place", language="fr"
    )
    return opened.handoff.ref


async def test_asking_again_while_waiting_finds_the_open_hand_off(store: Store) -> None:
    first = await store.handoffs.open(
        CHAT, USER, name="Ada", flow="pickup_delivery", step="dropoff_place", language="fr"
    )
    again = await store.handoffs.open(
        CHAT, USER, name="Ada O.", flow="errand", step="other", language=None
    )
    assert first.new and not again.new
    assert again.handoff == first.handoff
    handoff = first.handoff
    assert (handoff.chat, handoff.user, handoff.state) == (CHAT, USER, "open")
    assert handoff.name == "Ada" and handoff.owner is None and handoff.post is None
    assert (handoff.flow, handoff.step, handoff.language) == (
        "pickup_delivery",
        "dropoff_place",
        "fr",
    )
    assert len(handoff.ref) == 6 and handoff.ref.isupper()
    other = await store.handoffs.open(
        ChatRef("console", 5),
        UserRef("console", 55),
        name="Ada",
        flow=None,
        step=None,
        language=None,
    )
    assert other.new and other.handoff.ref != handoff.ref


async def test_a_closed_hand_off_lets_the_chat_open_a_new_one(
    store: Store, advance: Callable[[float], None]
) -> None:
    ref = await _open(store)
    advance(30)
    closed = await store.handoffs.close(ref)
    assert closed is not None and closed.state == "closed" and closed.closed_at is not None
    assert await store.handoffs.close(ref) is None  # only the call that closed it hears so
    assert await store.handoffs.waiting_for(CHAT) is None
    second = await _open(store)
    assert second != ref
    assert (await store.handoffs.waiting_for(CHAT)) == await store.handoffs.get(second.lower())


async def test_one_owner_and_the_others_see_who_took_it(store: Store) -> None:
    ref = await _open(store)
    anna, ben = await asyncio.gather(
        store.handoffs.take(ref, ANNA, "Anna"), store.handoffs.take(ref, BEN, "Ben")
    )
    assert anna is not None and ben is not None
    assert [anna.owner, ben.owner].count(True) == 1
    winner = anna if anna.owner else ben
    loser = ben if anna.owner else anna
    assert loser.handoff.owner == winner.handoff.owner
    assert loser.handoff.state == "taken"
    again = await store.handoffs.take(ref, winner.handoff.owner or ANNA, "again")
    assert again is not None and again.owner  # the owner pressing again is still the owner
    assert await store.handoffs.take("NOSUCH", ANNA, "Anna") is None


async def test_the_staff_post_finds_its_hand_off(store: Store) -> None:
    ref = await _open(store)
    await store.handoffs.posted(ref, StaffPost(STAFF_CHAT, 77, thread_id=9))
    found = await store.handoffs.by_post(STAFF_CHAT, 77)
    assert found is not None and found.ref == ref
    assert found.post == StaffPost(STAFF_CHAT, 77, 9)
    assert await store.handoffs.by_post(STAFF_CHAT, 78) is None
    topic = await store.handoffs.by_topic(STAFF_CHAT, 9)
    assert topic is not None and topic.ref == ref
    assert await store.handoffs.by_topic(STAFF_CHAT, 10) is None


async def test_messages_are_claimed_in_order_and_delivered_once(store: Store) -> None:
    ref = await _open(store)
    await store.handoffs.add(ref, TO_STAFF, {"text": "one"})
    await store.handoffs.add(ref, TO_STAFF, {"text": "two"})
    await store.handoffs.add(ref, TO_CUSTOMER, {"text": "hello"})
    first = await store.handoffs.claim(ref, TO_STAFF)
    assert first is not None and first.body == {"text": "one"}
    assert await store.handoffs.claim(ref, TO_CUSTOMER) is not None  # the other way is its own
    assert await store.handoffs.delivered(first)
    assert not await store.handoffs.delivered(first)
    second = await store.handoffs.claim(ref, TO_STAFF)
    assert second is not None and second.body == {"text": "two"}
    await store.handoffs.release(second)
    again = await store.handoffs.claim(ref, TO_STAFF)
    assert again is not None and again.seq == second.seq
    assert await store.handoffs.delivered(again)
    assert await store.handoffs.claim(ref, TO_STAFF) is None
    recent = await store.handoffs.recent(ref, 2)
    assert [m.body["text"] for m in recent] == ["two", "hello"]
    assert await store.handoffs.count_since(ref, TO_STAFF, 0) == 2


async def test_another_holder_waits_for_a_live_claim_and_takes_a_dead_ones(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    ref = await _open(store)
    await store.handoffs.add(ref, TO_CUSTOMER, {"text": "hi"})
    other = Handoffs(store._db, clock, "other-instance", lease_seconds=60)
    held = await store.handoffs.claim(ref, TO_CUSTOMER)
    assert held is not None
    assert await other.claim(ref, TO_CUSTOMER) is None
    assert await other.pending() == []
    advance(61)  # the first holder died holding it
    assert await other.pending() == [(ref, TO_CUSTOMER)]
    taken = await other.claim(ref, TO_CUSTOMER)
    assert taken is not None and await other.delivered(taken)
    assert not await store.handoffs.delivered(held)  # its claim was lost: not sent twice


async def test_idle_hand_offs_by_their_last_activity(
    store: Store, advance: Callable[[float], None]
) -> None:
    ref = await _open(store)
    busy = await _open(store, ChatRef("telegram", 6))
    advance(100)
    await store.handoffs.add(busy, TO_STAFF, {"text": "still here"})
    idle = await store.handoffs.idle(before=store.clock() - 50)
    assert [h.ref for h in idle] == [ref]
    await store.handoffs.close(ref)
    assert await store.handoffs.idle(before=store.clock() + 1) != []
    assert [h.ref for h in await store.handoffs.idle(before=store.clock() + 1)] == [busy]


async def test_an_open_hand_off_survives_a_restart(db_path: Path, clock: Clock) -> None:
    async with Store.open(db_path, clock=clock) as first:
        ref = await _open(first)
        await first.handoffs.take(ref, ANNA, "Anna")
    async with Store.open(db_path, clock=clock) as second:
        found = await second.handoffs.waiting_for(CHAT)
        assert found is not None and found.ref == ref and found.owner_name == "Anna"


async def test_a_message_for_a_hand_off_the_retention_deleted_goes_nowhere(
    store: Store, fake_clock: FakeClock
) -> None:
    ref = await _open(store)
    fake_clock.advance(2)
    assert await store.retention.handoffs(fake_clock() - 1) == 1  # silent: deleted, open

    await store.handoffs.add(ref, TO_CUSTOMER, {"text": "sorry for the wait"})  # no error

    assert await store.handoffs.claim(ref, TO_CUSTOMER) is None
    assert await store._db.fetch_all("SELECT seq FROM handoff_messages") == []
