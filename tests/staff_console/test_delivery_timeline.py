"""``delivery_timeline``: a delivery's header and history in words, over a real store on both
backends: each kind of entry, their order, the places, references and their refusals."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.chat_ref import ChatRef, UserRef
from bot.staff_console.delivery_timeline import (
    AuditLine,
    DeliveryTimeline,
    EntryKind,
    EventEntry,
    HandoffEntry,
    MessageEntry,
    TimelineRefused,
    delivery_timeline,
)
from bot.store import ListedDetails, SendKey, SentReceipt, Store
from bot.store.delivery_history import CUSTOMER, OPERATORS, HistoryEvent, HistoryMessage, Place
from conversations.texts.catalogue import Catalogue
from tests.staff_console.conftest import START
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED, said_in

LAGOS = ZoneInfo("Africa/Lagos")
DELIVERY = "3f2a9c1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f"
CHAT = ChatRef("telegram", 1001)
OPERATOR = ChatRef("telegram", -100900)
YABA = Place("12 Herbert Macaulay Way, Yaba", 6.5095, 3.3711)
IKEJA = Place("4 Allen Avenue, Ikeja", 6.6018, 3.3515)


async def _link(store: Store, delivery_id: str = DELIVERY, *, status: str = "pending") -> None:
    await store.deliveries.add(
        delivery_id, CHAT, 501, START, "+2348098765432", None, status,
        details=ListedDetails(fee=2600.0, currency="NGN", rider_id="rdr_tunde",
                              rider_name="Tunde Bakare", customer_name="Ada Obi"),
    )  # fmt: skip


def _event(
    event_id: str,
    created: float,
    status: str,
    *,
    previous: str | None = None,
    summary: str = "",
    hint: str | None = None,
    notes: tuple[str, ...] = (),
    dropoff: Place = IKEJA,
) -> HistoryEvent:
    return HistoryEvent(
        event_id=event_id,
        delivery_id=DELIVERY,
        event_type="delivery.status_changed",
        created=int(created),
        received_at=created + 1,
        status=status,
        previous_status=previous,
        summary=summary,
        customer_message_hint=hint,
        agent_notes=notes,
        pickup=YABA,
        dropoff=dropoff,
    )


async def _kept_event(store: Store, event: HistoryEvent) -> None:
    await store.relayed.finish_event(event.event_id, DELIVERY, history=event)


def _message(
    event_id: str, at: float, chat: ChatRef, text: str, *, kind: str = "update"
) -> HistoryMessage:
    audience = OPERATORS if chat == OPERATOR else CUSTOMER
    return HistoryMessage(DELIVERY, event_id, chat, kind, audience, text, at)


async def _sent(store: Store, message: HistoryMessage) -> None:
    key = SendKey(message.event_id, message.chat, message.kind)
    await store.relayed.record_sent([SentReceipt(key, 7, message)])


async def _timeline(
    store: Store, typed: str = DELIVERY, catalogue: Catalogue = SHIPPED
) -> DeliveryTimeline:
    found = await delivery_timeline(store, catalogue, LAGOS, typed)
    assert isinstance(found, DeliveryTimeline), found
    return found


async def test_the_header_says_the_delivery_as_the_list_does_with_its_places(
    store: Store,
) -> None:
    await _link(store, status="matched")
    await _kept_event(store, _event("evt_1", START + 60, "matched", dropoff=YABA))
    await _kept_event(store, _event("evt_2", START + 120, "matched"))

    header = (await _timeline(store)).header

    row = header.row
    assert (row.reference, row.customer, row.channel_label) == ("3F2A9C1E", "Ada Obi", "Telegram")
    assert (row.status_label, row.rider, row.paid) == ("rider assigned", "Tunde Bakare", False)
    assert row.fee == SHIPPED.money(2600.0, "NGN")
    # The newest event's places: the drop-off moved to Ikeja.
    assert header.pickup is not None and header.dropoff is not None
    assert (header.pickup.address, header.pickup.latitude) == (YABA.address, YABA.latitude)
    assert (header.dropoff.address, header.dropoff.on_map) == (IKEJA.address, True)


async def test_before_any_event_there_is_no_place_and_no_entry(store: Store) -> None:
    await _link(store)
    timeline = await _timeline(store)
    assert (timeline.header.pickup, timeline.header.dropoff, timeline.entries) == (None, None, ())


async def test_an_event_with_its_status_change_summary_hint_and_notes(store: Store) -> None:
    await _link(store)
    await _kept_event(
        store,
        _event(
            "evt_assigned",
            START + 60,
            "matched",
            previous="pending",
            summary="Delivery 3F2A9C1E was assigned to rider Tunde Bakare.",
            hint="Tunde is heading to the pickup.",
            notes=("Tell the customer who their rider is.", "The rider can still be changed."),
        ),
    )

    (entry,) = (await _timeline(store)).entries

    assert isinstance(entry, EventEntry)
    assert entry.kind is EntryKind.EVENT
    assert entry.headline == (
        "Event “delivery.status_changed”: waiting for a rider → rider assigned"
    )
    assert entry.summary == "Delivery 3F2A9C1E was assigned to rider Tunde Bakare."
    assert entry.customer_message_hint == "Tunde is heading to the pickup."
    assert entry.agent_notes == (
        "Tell the customer who their rider is.",
        "The rider can still be changed.",
    )
    # 08:01 UTC is 09:01 in Lagos.
    assert (entry.at.hour, entry.at.minute, entry.at.utcoffset()) == (
        9,
        1,
        LAGOS.utcoffset(entry.at),
    )
    assert entry.at_label.endswith("09:01:00")


async def test_messages_to_the_customer_and_operators_and_a_failed_one(
    store: Store, fake_clock: FakeClock
) -> None:
    await _link(store)
    await _sent(store, _message("evt_1", START + 61, CHAT, "Tunde is your rider."))
    await _sent(store, _message("evt_1", START + 62, OPERATOR, "Assigned to Tunde."))
    failed = _message("evt_2", START + 70, CHAT, "Tunde picked it up.")
    await store.history.record_failed([HistoryMessage(**{**failed.__dict__, "failure": "429"})])
    question = _message("evt_3", START + 80, CHAT, "The fee is NGN 2,600. Keep it?")
    await _sent(store, HistoryMessage(**{**question.__dict__, "kind": "quote_question"}))

    entries = (await _timeline(store)).entries

    assert all(isinstance(entry, MessageEntry) for entry in entries)
    said = [(entry.headline, entry.text, entry.failure) for entry in entries]
    assert said == [
        ("Message to the customer (telegram:1001)", "Tunde is your rider.", None),
        ("Message to the operators (telegram:-100900)", "Assigned to Tunde.", None),
        (
            "Message to the customer (telegram:1001) not sent: 429",
            "Tunde picked it up.",
            "429",
        ),
        ("Fee question to the customer (telegram:1001)", "The fee is NGN 2,600. Keep it?", None),
    ]
    assert [entry.to_operators for entry in entries] == [False, True, False, False]


async def test_a_message_sent_again_after_a_crash_is_kept_once(store: Store) -> None:
    await _link(store)
    message = _message("evt_1", START + 61, CHAT, "Tunde is your rider.")
    await _sent(store, message)
    await _sent(store, message)  # the retry finds it marked: not kept twice
    assert len((await _timeline(store)).entries) == 1


async def test_a_withheld_code_message_says_so_and_shows_nothing(store: Store) -> None:
    await _link(store)
    await _sent(store, _message("evt_otp", START + 90, CHAT, "", kind="otp_link"))
    (entry,) = (await _timeline(store)).entries
    assert isinstance(entry, MessageEntry)
    assert (entry.withheld, entry.text) == (True, "")
    assert entry.headline == "Drop-off code sent to the customer (telegram:1001) (never shown here)"


async def test_audit_entries_about_the_delivery_by_id_or_reference(
    store: Store, fake_clock: FakeClock
) -> None:
    await _link(store)
    fake_clock.advance(30)
    await store.audit.record("telegram:1900", "assign", DELIVERY, "done", "rdr_tunde")
    fake_clock.advance(30)
    await store.audit.record("telegram:1001", "quote_keep", "delivery 3F2A9C1E", "kept")
    await store.audit.record("telegram:1900", "assign", "7c0ffee0-other", "done", "rdr_x")

    entries = (await _timeline(store)).entries

    assert all(isinstance(entry, AuditLine) for entry in entries)
    assert [(e.actor, e.action, e.outcome, e.detail) for e in entries] == [
        ("telegram:1900", "assign", "done", "rdr_tunde"),
        ("telegram:1001", "quote_keep", "kept", None),
    ]
    assert entries[0].headline == "telegram:1900: assign, done"


async def test_hand_off_messages_of_the_customer_while_the_delivery_was_open(
    store: Store, fake_clock: FakeClock
) -> None:
    customer = UserRef("telegram", 501)
    # A hand-off closed before the delivery was ordered is not about it.
    fake_clock.now = START - 3600
    before = await store.handoffs.open(CHAT, customer, name="Ada", flow=None, step=None,
                                       language=None)  # fmt: skip
    await store.handoffs.add(before.handoff.ref, "to_staff", {"kind": "text", "text": "Hello?"})
    await store.handoffs.close(before.handoff.ref)
    fake_clock.now = START
    await _link(store)
    fake_clock.now = START + 100
    during = await store.handoffs.open(CHAT, customer, name="Ada", flow=None, step=None,
                                       language=None)  # fmt: skip
    ref = during.handoff.ref
    await store.handoffs.add(ref, "to_staff", {"kind": "text", "text": "Where is my rider?"})
    fake_clock.advance(5)
    await store.handoffs.add(ref, "to_customer", {"kind": "text", "text": "On his way."})
    await store.handoffs.add(ref, "to_staff", {"kind": "location", "lat": 6.5, "lng": 3.4})

    entries = (await _timeline(store)).entries

    assert all(isinstance(entry, HandoffEntry) for entry in entries)
    assert [(e.headline, e.text, e.to_staff) for e in entries] == [
        (f"Customer to staff (hand-off {ref})", "Where is my rider?", True),
        (f"Staff to customer (hand-off {ref})", "On his way.", False),
        (f"Customer to staff (hand-off {ref})", "a map pin (6.5, 3.4)", True),
    ]


async def test_every_kind_in_time_order_an_event_before_its_messages(
    store: Store, fake_clock: FakeClock
) -> None:
    await _link(store)
    fake_clock.now = START + 50
    await store.audit.record("telegram:1900", "assign", DELIVERY, "done", "rdr_tunde")
    # Events kept in another order than they happened.
    await _kept_event(store, _event("evt_picked", START + 300, "picked_up", previous="matched"))
    await _kept_event(store, _event("evt_assigned", START + 60, "matched", previous="pending"))
    await _sent(store, _message("evt_picked", START + 300, CHAT, "Picked up."))
    await _sent(store, _message("evt_assigned", START + 61, CHAT, "Assigned."))
    fake_clock.now = START + 200
    opened = await store.handoffs.open(CHAT, UserRef("telegram", 501), name="Ada", flow=None,
                                       step=None, language=None)  # fmt: skip
    await store.handoffs.add(opened.handoff.ref, "to_staff", {"kind": "text", "text": "Hi"})

    entries = (await _timeline(store)).entries

    assert [entry.kind for entry in entries] == [
        EntryKind.AUDIT,
        EntryKind.EVENT,
        EntryKind.MESSAGE,
        EntryKind.HANDOFF,
        EntryKind.EVENT,  # the same second as its message: the event first
        EntryKind.MESSAGE,
    ]
    assert [entry.at for entry in entries] == sorted(entry.at for entry in entries)


async def test_a_reference_names_the_delivery_and_an_unknown_one_none(store: Store) -> None:
    await _link(store)
    assert (await _timeline(store, "3f2a9c1e")).header.row.delivery_id == DELIVERY
    assert (await _timeline(store, "3F2A9C")).header.row.delivery_id == DELIVERY
    assert await delivery_timeline(store, SHIPPED, LAGOS, "abcdef12") is None
    assert (
        await delivery_timeline(store, SHIPPED, LAGOS, "abcdef12-0000-4000-8000-000000000000")
        is None
    )


async def test_a_reference_of_several_deliveries_is_refused_naming_them(store: Store) -> None:
    await _link(store)
    other = "3f2a9c1e-0000-4000-8000-000000000002"
    await _link(store, other)

    found = await delivery_timeline(store, SHIPPED, LAGOS, "3F2A9C1E")

    assert isinstance(found, TimelineRefused)
    assert "3F2A9C1E" in found.reason and DELIVERY in found.reason and other in found.reason
    # The full id still names one.
    assert (await _timeline(store, other)).header.row.delivery_id == other


async def test_what_is_no_reference_is_refused_in_the_staff_members_words(store: Store) -> None:
    for typed in ("3f2a", "not-a-ref!", "x" * 200):
        found = await delivery_timeline(store, SHIPPED, LAGOS, typed)
        assert isinstance(found, TimelineRefused), typed
        assert "x" * 41 not in found.reason
    french = await delivery_timeline(store, said_in("fr"), LAGOS, "3f2a")
    assert isinstance(french, TimelineRefused)
    assert french.reason == said_in("fr").say("ops.not_a_reference", typed="3f2a", shortest=6)


async def test_the_history_in_french(store: Store) -> None:
    await _link(store)
    await _kept_event(store, _event("evt_1", START + 60, "matched", previous="pending"))
    await _sent(store, _message("evt_1", START + 61, OPERATOR, "Assigned."))

    event, message = (await _timeline(store, catalogue=said_in("fr"))).entries

    assert event.headline.startswith("Événement « delivery.status_changed » : ")
    assert message.headline == "Message aux opérateurs (telegram:-100900)"
