"""``store.retention`` on each backend: each kind removes exactly the rows past their time.

Every test writes one row at ``START`` and one two seconds later, then prunes with the limit
between them: the first goes, the second (one second inside its time) stays, and a second
prune finds nothing more.
"""

from __future__ import annotations

import pytest

from bot.chat_ref import ChatRef, UserRef
from bot.store import Store
from bot.store.customer_data import is_tombstone
from bot.store.delivery_history import HistoryEvent, HistoryMessage, Place, note_event
from bot.store.handoffs import Handoff
from bot.store.listed_details import ListedDetails
from bot.store.retention_prunes import RetentionPrunes
from bot.store.rider_positions import Fix, Point
from bot.store.sent import SendKey
from tests.support.clock import FakeClock

from .conftest import START

LIMIT = START + 1  # between the old rows (START) and the young ones (START + 2)
ADA = ChatRef("telegram", 7)
BOLA = ChatRef("whatsapp", 2348012345678)


async def _delivery(store: Store, delivery_id: str, chat: ChatRef, status: str) -> None:
    details = ListedDetails(
        fee=1500.0,
        currency="NGN",
        customer_name="Ada Obi",
        sender_phone="+2348011111111",
        pickup=Point(6.45, 3.39),
        dropoff=Point(6.5, 3.4),
    )
    await store.deliveries.add(
        delivery_id,
        chat,
        chat.id,
        store.clock(),
        "+2348022222222",
        f"https://track.example/{delivery_id}",
        status,
        saved_order='{"flow": "pickup_delivery", "answers": {"package": "blue bag"}}',
        details=details,
    )
    await note_event(
        store._db,
        HistoryEvent(
            event_id=f"evt_{delivery_id}",
            delivery_id=delivery_id,
            event_type="delivery.updated",
            created=int(store.clock()),
            received_at=store.clock(),
            status=status,
            previous_status=None,
            summary="Rider picked up the blue bag at 12 Allen Avenue",
            customer_message_hint="Ada, your parcel is on its way",
            agent_notes=("call Ada on +2348011111111",),
            pickup=Place("12 Allen Avenue", 6.45, 3.39),
            dropoff=Place("3 Bode Thomas", 6.5, 3.4),
        ),
    )
    await store.history.record_failed(
        [
            HistoryMessage(
                delivery_id, f"evt_{delivery_id}", chat, "update", "customer", "Ada: on its way", 0
            )
        ]
    )


async def _personal(store: Store, delivery_id: str) -> list[object]:
    row = await store._db.fetch_one(
        """SELECT customer_name, sender_phone, receiver_phone, saved_order, tracking_url,
            pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, fee, currency, status, chat_id
        FROM deliveries WHERE delivery_id = ?""",
        (delivery_id,),
    )
    assert row is not None
    return list(row)


async def test_finished_deliveries_keep_only_the_books_past_their_time(
    store: Store, fake_clock: FakeClock
) -> None:
    await _delivery(store, "del_old", ADA, "delivered")
    await _delivery(store, "del_open", ADA, "in_transit")
    await _delivery(store, "del_whatsapp", BOLA, "cancelled")
    await _delivery(store, "del_whatsapp_2", BOLA, "delivered")
    await store.rider_positions.keep("del_whatsapp_2", "rider_1", Fix(Point(6.5, 3.4), START), "")
    fake_clock.advance(2)
    await _delivery(store, "del_young", ADA, "delivered")
    before = await _personal(store, "del_young")

    assert await store.retention.finished_orders(LIMIT) == 3
    assert await store.retention.finished_orders(LIMIT) == 0

    stones = {}
    for stripped, chat in (("del_old", ADA), ("del_whatsapp", BOLA), ("del_whatsapp_2", BOLA)):
        # The books' part stays; the chat link is a tombstone (on WhatsApp it was a phone).
        *personal, fee, currency, status, chat_id = await _personal(store, stripped)
        assert personal == [None] * 9 and (fee, currency) == (1500.0, "NGN")
        assert status in ("delivered", "cancelled") and is_tombstone(int(chat_id))
        stones[stripped] = chat_id
        (event,) = await store.history.events(stripped)
        assert (event.summary, event.customer_message_hint, event.agent_notes) == ("", None, ())
        assert event.pickup == event.dropoff == Place(None, None, None)
        (message,) = await store.history.messages(stripped)
        assert message.text == "" and message.chat == ChatRef(chat.channel, chat_id)
    # One pass's tombstones: a customer's deliveries stay one (anonymous) customer's.
    assert stones["del_whatsapp"] == stones["del_whatsapp_2"] != stones["del_old"]
    assert await store._db.fetch_one("SELECT count(*) FROM rider_positions") == (0,)
    assert await _personal(store, "del_young") == before
    assert (await _personal(store, "del_open"))[0] == "Ada Obi"  # open: left as it is
    (event,) = await store.history.events("del_open")
    assert event.pickup.address == "12 Allen Avenue"
    # "My deliveries" lists what is still theirs only.
    ada = ADA.user(ADA.id)
    assert {link.delivery_id for link in await store.deliveries.for_user(ada, 10)} == {
        "del_open",
        "del_young",
    }
    assert await store.deliveries.for_user(BOLA.user(BOLA.id), 10) == []


async def test_deliveries_stripped_before_keep_no_chat_link_either(
    store: Store, fake_clock: FakeClock
) -> None:
    """Deliveries an older bot stripped kept their chat link: a pass finds them by it."""
    await _delivery(store, "del_stripped", BOLA, "delivered")
    await store._db.execute(
        "UPDATE deliveries SET customer_name = NULL, sender_phone = NULL, receiver_phone = NULL,"
        " saved_order = NULL, tracking_url = NULL, pickup_lat = NULL, pickup_lng = NULL,"
        " dropoff_lat = NULL, dropoff_lng = NULL"
    )
    fake_clock.advance(2)

    assert await store.retention.finished_orders(LIMIT) == 1
    assert await store.retention.finished_orders(LIMIT) == 0
    link = await store.deliveries.get("del_stripped")
    assert link is not None and is_tombstone(link.chat.id) and is_tombstone(link.user_id)
    (message,) = await store.history.messages("del_stripped")
    assert is_tombstone(message.chat.id)


async def test_transcripts_go_whole_once_their_conversation_is_idle_and_events_by_age(
    store: Store, fake_clock: FakeClock
) -> None:
    idle = await store.agents.open("shop", "cust-1", "pickup_delivery")
    going_on = await store.agents.open("shop", "cust-2", "pickup_delivery")
    await store.agents.add_entry(idle, '{"said": "12 Allen Avenue"}')
    await store.agents.add_entry(going_on, '{"said": "3 Bode Thomas"}')
    await store.agent_events.add(idle.chat, "evt_1", '{"summary": "picked up"}')
    fake_clock.advance(2)
    await store.agents.add_entry(going_on, '{"said": "+2348011111111"}')
    await store.agent_events.add(idle.chat, "evt_2", '{"summary": "delivered"}')

    assert await store.retention.transcripts(LIMIT) == 2  # idle's one entry, evt_1
    assert await store.retention.transcripts(LIMIT) == 0

    assert await store.agents.transcript(idle) == []
    assert len(await store.agents.transcript(going_on)) == 2  # its last entry is young
    assert [event.body for event in await store.agent_events.after(idle.chat, 0, 10)] == [
        '{"summary": "delivered"}'
    ]


async def test_remembered_details_and_phones_go_once_unused_for_their_time(
    store: Store, fake_clock: FakeClock
) -> None:
    gone, ordered, received, young = (UserRef("telegram", n) for n in (1, 2, 3, 4))
    for user in (gone, ordered, received):
        await store.contacts.record(user, f"+23480{user.id}0000000", contact_user_id=user.id)
    await store.customers.put(gone, '{"name": "Ada"}')
    await store.customers.put(ordered, '{"name": "Bola"}')
    fake_clock.advance(2)
    await store.contacts.record(young, "+2348040000000", contact_user_id=young.id)
    await store.customers.put(young, '{"name": "Chidi"}')
    # Since the limit: one customer ordered, another's number received a delivery.
    await store.deliveries.add("del_2", ChatRef("telegram", 2), 2, store.clock(), None, None)
    await store.deliveries.add(
        "del_9", ChatRef("telegram", 9), 9, store.clock(), "+2348030000000", None
    )

    assert await store.retention.customer_details(LIMIT) == 3  # 2 details, 1 phone
    assert await store.retention.customer_details(LIMIT) == 0

    assert [await store.customers.get(user) for user in (gone, ordered, young)] == [
        None,
        None,  # the details of an order before the limit: refreshed only by an order
        '{"name": "Chidi"}',
    ]
    assert [await store.contacts.phone_for(user) for user in (gone, ordered, received, young)] == [
        None,
        "+2348020000000",
        "+2348030000000",
        "+2348040000000",
    ]


async def test_unreachable_chats_marks_go_once_past_their_time_unless_they_ordered_since(
    store: Store, fake_clock: FakeClock
) -> None:
    ordered, young = ChatRef("whatsapp", 2348033333333), ChatRef("telegram", 8)
    for chat in (BOLA, ADA, ordered):
        await store.blocked.mark(chat)
    fake_clock.advance(2)
    await store.blocked.mark(young)
    await store.deliveries.add("del_8", ordered, ordered.id, store.clock(), None, None)

    assert await store.retention.customer_details(LIMIT) == 2
    assert await store.retention.customer_details(LIMIT) == 0

    marked = [await store.blocked.is_blocked(chat) for chat in (BOLA, ADA, ordered, young)]
    assert marked == [False, False, True, True]  # the memory copy told too, on SQLite
    rows = await store._db.fetch_all("SELECT chat_id FROM blocked_chats ORDER BY chat_id")
    assert [int(row[0]) for row in rows] == [young.id, ordered.id]


async def test_relayed_events_sent_markers_and_whatsapp_sends_go_past_their_time(
    store: Store, fake_clock: FakeClock
) -> None:
    for n in (1, 2, 3):
        await store.inbox.add(f"evt_{n}", "del_1", "delivery.updated", n, b"{}")
    await store.inbox.mark_processed("evt_1")
    await store.sent.claim(SendKey("evt_1", ADA, "status"))
    await store.whatsapp_sent.record("wamid.1", BOLA.id, kind="news", body="on its way")
    fake_clock.advance(2)
    await store.inbox.mark_processed("evt_2")  # evt_3 is still to relay: never pruned
    await store.sent.claim(SendKey("evt_2", ADA, "status"))
    await store.whatsapp_sent.record("wamid.2", BOLA.id, kind="news", body="delivered")

    assert await store.retention.inbox(LIMIT) == 3
    assert await store.retention.inbox(LIMIT) == 0
    assert await store.retention.inbox(START + 10) == 3  # the young ones, later

    assert [event.event_id for event in await store.inbox.next_batch()] == ["evt_3"]
    assert not await store.sent.was_sent(SendKey("evt_2", ADA, "status"))
    assert await store.whatsapp_sent.get("wamid.2") is None


async def test_photos_go_at_their_expiry(store: Store, fake_clock: FakeClock) -> None:
    first = await store.media.put(
        b"jpeg 1", content_type="image/jpeg", chat=ADA, expires_at=START + 5
    )
    second = await store.media.put(
        b"jpeg 2", content_type="image/jpeg", chat=ADA, expires_at=START + 7
    )

    assert await store.retention.photos(START + 6) == 1
    assert not first.path.exists() and second.path.exists()
    assert await store.media.get(second.token) is not None


async def test_audit_entries_go_past_their_time_a_batch_at_a_time(
    store: Store, fake_clock: FakeClock
) -> None:
    for n in range(5):
        await store.audit.record("operator:1", "block", f"telegram:{n}", "done", "spam")
    fake_clock.advance(2)
    await store.audit.record("operator:1", "unblock", "telegram:1", "done")
    small_batches = RetentionPrunes(
        store._db,
        store.sessions,
        store.media,
        handoffs=store.handoffs,
        chat_locks=store.chat_locks,
        blocked=store.blocked,
        batch=2,
    )

    assert await small_batches.audit(LIMIT) == 5  # 2 + 2 + 1
    assert await small_batches.audit(LIMIT) == 0
    assert [entry.action for entry in await store.audit.since(0)] == ["unblock"]


async def test_closed_hand_offs_and_their_messages_go_past_their_time(
    store: Store, fake_clock: FakeClock
) -> None:
    old = await _opened(store, ADA)
    await store.handoffs.add(old.ref, "to_staff", {"text": "my address is 12 Allen Avenue"})
    await store.handoffs.add(old.ref, "to_customer", {"text": "thank you Ada"})
    await store.handoffs.close(old.ref)
    fake_clock.advance(2)
    young = await _opened(store, ADA)
    await store.handoffs.add(young.ref, "to_staff", {"text": "hello again"})
    await store.handoffs.close(young.ref)

    assert await store.retention.handoffs(LIMIT) == 3  # the hand-off and its two messages
    assert await store.retention.handoffs(LIMIT) == 0
    assert await store.handoffs.get(old.ref) is None
    assert await store.handoffs.get(young.ref) is not None
    assert len(await store.handoffs.recent(young.ref, 10)) == 1


async def test_hand_offs_never_closed_go_once_silent_past_their_time(
    store: Store, fake_clock: FakeClock
) -> None:
    silent = await _opened(store, BOLA)
    await store.handoffs.add(silent.ref, "to_staff", {"text": "is anyone there? 12 Allen Avenue"})
    taken = await _opened(store, ChatRef("telegram", 8))
    await store.handoffs.take(taken.ref, UserRef("telegram", 1900), "Olu")
    talking = await _opened(store, ADA)
    await store.deliveries.add("del_bola", BOLA, BOLA.id, store.clock(), None, None)
    listed = await store.delivery_changes.latest()
    fake_clock.advance(2)
    await store.handoffs.add(talking.ref, "to_customer", {"text": "on it"})  # active since

    assert await store.retention.handoffs(LIMIT) == 3  # two hand-offs, one message
    assert await store.retention.handoffs(LIMIT) == 0

    assert await store.handoffs.get(silent.ref) is None
    assert await store.handoffs.get(taken.ref) is None  # taken, then nobody wrote
    assert await store.handoffs.waiting_for(ADA) == await store.handoffs.get(talking.ref)
    # The chat waits for nobody now: its next message is the order's, and it may ask again.
    assert await store.handoffs.waiting_for(BOLA) is None
    assert [c.delivery_id for c in await store.delivery_changes.since(listed)] == ["del_bola"]
    again = await _opened(store, BOLA)
    assert again.ref != silent.ref and await store.handoffs.waiting_for(BOLA) == again


async def _opened(store: Store, chat: ChatRef) -> Handoff:
    user = chat.user(chat.id)
    opened = await store.handoffs.open(chat, user, name="Ada", flow=None, step=None, language=None)
    return opened.handoff


async def test_agent_conversations_go_once_nothing_of_them_is_left(
    store: Store, fake_clock: FakeClock
) -> None:
    spent = await store.agents.open("shop", "cust-1", "pickup_delivery")
    await store.agents.add_entry(spent, '{"said": "12 Allen Avenue"}')
    never_spoke = await store.agents.open("shop", "cust-1", None)
    ordered = await store.agents.open("shop", "cust-2", "pickup_delivery")
    await store.agents.add_entry(ordered, '{"said": "3 Bode Thomas"}')
    await store.deliveries.add("del_agent", ordered.chat, ordered.user.id, START, None, None)
    drafting = await store.agents.open("shop", "cust-3", "pickup_delivery")
    await store.agents.add_entry(drafting, '{"said": "a blue bag"}')
    await _save_session(store, drafting.chat, drafting.user.id)
    fake_clock.advance(2)
    young = await store.agents.open("shop", "cust-4", None)

    # Their transcripts went (2 entries: spent's and drafting's; ordered's too), then they.
    assert await store.retention.transcripts(LIMIT) == 3 + 2
    assert await store.retention.transcripts(LIMIT) == 0

    assert await store.agents.get(spent.id, "shop") is None
    assert await store.agents.get(never_spoke.id, "shop") is None
    for kept in (ordered, drafting, young):  # a delivery, a draft, too young
        assert await store.agents.get(kept.id, "shop") == kept


async def test_agent_customers_go_once_no_row_names_them(
    store: Store, fake_clock: FakeClock
) -> None:
    async def customer(reference: str) -> UserRef:
        user = await store.agents.user("shop", reference, create=True)
        assert user is not None
        return user

    gone, talking, ordered, remembered, blocked = [await customer(f"cust-{n}") for n in range(1, 6)]
    await store.agents.open("shop", "cust-2", None)
    chat = ChatRef("agents", 999)
    await store.deliveries.add("del_agent", chat, ordered.id, START, None, None)
    await store.customer_blocks.block(blocked, by="shell", reason=None)
    fake_clock.advance(2)
    await store.customers.put(remembered, '{"name": "Ada"}')  # refreshed by an order since
    young = await customer("cust-6")

    assert await store.retention.customer_details(LIMIT) == 1
    assert await store.retention.customer_details(LIMIT) == 0

    assert await store.agents.name_of(gone) is None
    for kept in (talking, ordered, remembered, blocked, young):
        assert await store.agents.name_of(kept) is not None
    # Back later, the same reference is a new customer: nothing of the old one is theirs.
    assert await customer("cust-1") != gone


async def _save_session(store: Store, chat: ChatRef, user_id: int) -> None:
    await store.sessions.save(chat, user_id, '{"flow": "pickup_delivery", "answers": {}}')


async def test_a_conversation_opened_as_its_customer_goes_makes_the_customer_again(
    store: Store, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await store.agents.user("shop", "cust-1", create=True)
    assert first is not None
    fake_clock.advance(2)
    find = store.agents.user

    async def found_then_pruned(channel: str, customer: str, *, create: bool = False) -> UserRef:
        # The retention's pass runs between the lookup and the conversation's insert, once.
        user = await find(channel, customer, create=create)
        assert user is not None
        if user == first:
            assert await store.retention.customer_details(LIMIT) == 1
        return user

    monkeypatch.setattr(store.agents, "user", found_then_pruned)
    opened = await store.agents.open("shop", "cust-1", None)

    assert opened.user != first and await store.agents.name_of(first) is None
    assert await store.agents.get(opened.id, "shop") == opened
