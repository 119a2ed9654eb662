"""``HandoffDesk`` over a real ChatService and store, with the channels' sides recorded: one
hand-off per chat, the order untouched while a person talks, a customer's messages rate-limited,
idle hand-offs closed with both sides told, and each message delivered once across two
instances on one database, in order."""

from __future__ import annotations

from bot.chat_ref import TELEGRAM, ChatRef
from bot.handoff.bodies import text_body
from bot.handoff.desk import HandoffDesk
from bot.handoff.handoff_settings import HandoffSettings
from bot.ordering import ChatService
from bot.store import Store
from conversations.texts.business_texts import BusinessTexts
from tests.fakes.handoff_sides import RecordingCustomers as Customers
from tests.fakes.handoff_sides import RecordingStaff as Staff
from tests.support.words import SHIPPED_TEXTS, said_in, say

from .conftest import TO_SUMMARY, Org

CHAT = ChatRef(TELEGRAM, 42)
USER = CHAT.user(42)


def opened(org: Org) -> Store:
    assert org.store is not None  # the fixture opened it
    return org.store


def desk(
    org: Org, store: Store, staff: Staff | None, customers: Customers, **settings: object
) -> HandoffDesk:
    texts = BusinessTexts(SHIPPED_TEXTS)  # the default business's, every channel's words in
    chats = ChatService(org.engine(), store, clock=org.clock, texts=texts)
    made = HandoffDesk(
        store,
        chats,
        HandoffSettings(**settings),  # type: ignore[arg-type]
        texts=texts,
        staff=staff,
    )
    made.serve(TELEGRAM, customers)
    return made


async def test_without_staff_nobody_is_promised(org: Org) -> None:
    store = opened(org)
    asked = await desk(org, store, None, Customers()).ask(CHAT, USER, name="Ada", language=None)
    assert asked.handoff is None and asked.reply == say("human.unavailable")


async def test_a_blocked_customer_is_not_put_through_to_staff(org: Org) -> None:
    store = opened(org)
    staff = Staff()
    await store.customer_blocks.block(USER, by="telegram:7", reason="fifty orders")
    asked = await desk(org, store, staff, Customers()).ask(CHAT, USER, name="Ada", language=None)
    assert asked.handoff is None and asked.reply == say("safety.blocked")
    assert staff.cards == [] and await store.handoffs.waiting_for(CHAT) is None


async def test_a_block_ends_the_hand_off_in_the_customers_language(org: Org) -> None:
    """The blocked sentence in French for a French customer, the card and staff's line in the
    business's language; a second block (or a shell's one found later) ends nothing again."""
    store = opened(org)
    staff, customers = Staff(), Customers()
    handoffs = desk(org, store, staff, customers)
    asked = await handoffs.ask(CHAT, USER, name="Ada", language="fr")
    assert asked.handoff is not None
    await handoffs.chats.blocking.block(USER, by="telegram:7")
    assert customers.texts() == [said_in("fr").say("safety.blocked")]
    assert say("staff.card_blocked") in staff.cards[-1]
    assert staff.told == [say("staff.blocked_ended", ref=asked.handoff.ref)]
    assert await handoffs.end_for_block(USER, "shell") == 0
    assert await handoffs.end_blocked() == 0
    assert len(customers.sent) == 1 and len(staff.told) == 1


async def test_the_order_waits_at_its_question_and_goes_on_after(org: Org) -> None:
    store = opened(org)
    staff, customers = Staff(), Customers()
    handoffs = desk(org, store, staff, customers, hours="Mon-Sat 8-20", reply_minutes=10)
    chats = handoffs.chats
    await chats.start(CHAT, USER)
    for answer in TO_SUMMARY[:3]:
        await chats.handle(CHAT, USER, answer)
    before = await chats.session(CHAT)
    assert before is not None and before.step is not None

    asked = await handoffs.ask(CHAT, USER, name="Ada Obi", language=None)
    assert asked.new and asked.handoff is not None
    assert asked.reply == say("human.opened", minutes=10, hours="Mon-Sat 8-20")
    again = await handoffs.ask(CHAT, USER, name="Ada Obi", language=None)
    assert not again.new and again.reply == say("human.waiting")
    assert len(staff.cards) == 1 and staff.cards[0].startswith(f"#{asked.handoff.ref}")
    assert "Ozone Cinema, Yaba" in staff.cards[0]  # the draft's summary

    assert await handoffs.from_customer(asked.handoff, text_body("where is my rider?")) is None
    await handoffs.reply(asked.handoff, text_body("Looking now"), signer="Olu")
    assert staff.sent == [text_body("where is my rider?")]
    assert customers.texts() == ["Looking now"]  # unsigned: sign_replies is off

    closed = await handoffs.close(asked.handoff.ref)
    assert closed is not None and await handoffs.close(asked.handoff.ref) is None
    assert customers.texts()[-1] == say("human.closed")
    audited = [(e.action, e.subject) for e in await store.audit.since(0)]
    ref = asked.handoff.ref
    assert audited == [("handoff_reply", f"hand-off {ref}"), ("handoff_close", f"hand-off {ref}")]
    (resumed,) = customers.shown
    assert resumed.prompt is not None and resumed.prompt.step == before.step
    after = await chats.session(CHAT)
    assert after is not None and after.answers == before.answers


async def test_signed_replies_and_a_customer_sending_too_fast(org: Org) -> None:
    store = opened(org)
    staff, customers = Staff(), Customers()
    handoffs = desk(org, store, staff, customers, sign_replies=True, messages_per_minute=2)
    asked = await handoffs.ask(CHAT, USER, name="Ada", language="fr")
    assert asked.handoff is not None
    await handoffs.reply(asked.handoff, text_body("Bonjour"), signer="Olu")
    assert customers.texts() == ["Bonjour\n— Olu"]
    for text in ("un", "deux"):
        assert await handoffs.from_customer(asked.handoff, text_body(text)) is None
    slow = await handoffs.from_customer(asked.handoff, text_body("trois"))
    assert slow is not None and slow.startswith("Merci de patienter")  # in her language
    assert staff.sent == [text_body("un"), text_body("deux")]
    org.clock.advance(61)
    assert await handoffs.from_customer(asked.handoff, text_body("trois")) is None


async def test_an_idle_hand_off_is_closed_and_both_sides_told(org: Org) -> None:
    store = opened(org)
    staff, customers = Staff(), Customers()
    handoffs = desk(org, store, staff, customers, idle_hours=2)
    asked = await handoffs.ask(CHAT, USER, name="Ada", language=None)
    assert asked.handoff is not None
    org.clock.advance(3600)
    assert await handoffs.close_idle() == 0
    org.clock.advance(3601)
    assert await handoffs.close_idle() == 1
    assert await handoffs.close_idle() == 0
    assert customers.texts() == [say("human.idle_closed")]
    assert staff.told == [say("staff.idle_closed", ref=asked.handoff.ref, hours="2")]
    assert await handoffs.waiting_for(CHAT) is None


async def test_two_instances_deliver_each_message_once_in_order(org: Org) -> None:
    first = opened(org)
    staff_a, staff_b, customers_a, customers_b = Staff(), Staff(), Customers(), Customers()
    on_a = desk(org, first, staff_a, customers_a)
    asked = await on_a.ask(CHAT, USER, name="Ada", language=None)
    assert asked.handoff is not None
    # A second store on the file (SQLite keeps one owner's waiting chats in memory: it opens
    # after the hand-off, as a restarted instance would; PostgreSQL always asks the table).
    second = await Store.connect(org.db_path, clock=org.clock)
    try:
        on_b = desk(org, second, staff_b, customers_b)
        found = await on_b.waiting_for(CHAT)
        assert found is not None and found.ref == asked.handoff.ref
        await on_a.reply(asked.handoff, text_body("one"))  # staff's reply reached instance A
        await on_b.from_customer(found, text_body("hi"))  # the customer's update reached B
        await on_b.reply(found, text_body("two"))
        await on_a.redeliver()
        await on_b.redeliver()
        assert customers_a.texts() + customers_b.texts() == ["one", "two"]
        assert staff_a.sent + staff_b.sent == [text_body("hi")]
    finally:
        await second.close()


async def test_a_message_left_by_a_dead_instance_is_sent_by_another(org: Org) -> None:
    store = opened(org)
    staff, customers = Staff(), Customers()
    handoffs = desk(org, store, staff, customers)
    asked = await handoffs.ask(CHAT, USER, name="Ada", language=None)
    assert asked.handoff is not None
    await store.handoffs.add(asked.handoff.ref, "to_customer", text_body("held"))
    dead = await store.handoffs.claim(asked.handoff.ref, "to_customer")
    assert dead is not None  # claimed, then the instance died before sending
    second = await Store.connect(org.db_path, clock=org.clock)
    try:
        other_customers = Customers()
        other = desk(org, second, Staff(), other_customers)
        await other.redeliver()
        assert other_customers.texts() == []  # the lease still runs
        org.clock.advance(61)
        assert await other.redeliver() == 1
        assert other_customers.texts() == ["held"]
        await other.redeliver()
        assert other_customers.texts() == ["held"]
    finally:
        await second.close()
