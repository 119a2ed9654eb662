"""``store.customer_data`` on both backends: "my data" holds every row kept about a customer
and nothing of anyone else's; after "forget me" a search of every column of every table (and
of the media folder) finds nothing of them but what is documented as kept; an open delivery
keeps the erasure pending until it ends; a repeated or unknown forget changes nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from bot.chat_ref import TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.store import ListedDetails, Point, Store, delete_files
from bot.store.customer_data import is_tombstone
from bot.store.delivery_history import (
    HistoryEvent,
    HistoryMessage,
    Place,
    note_event,
    note_messages,
)
from bot.store.handoffs import TO_STAFF
from bot.store.sent import SendKey
from bot.store.session_packing import unpack
from tests.store.conftest import START


@dataclass(frozen=True)
class Person:
    """A customer's data as the test writes it, and finds it back."""

    user: UserRef
    name: str
    phone: str
    receiver: str
    pickup: str
    dropoff: str
    parcel: str
    chat_id: int | None = None  # their private chat's id is their own, but on agent channels
    known_as: str | None = None  # an agent channel's reference for them

    @property
    def chat(self) -> ChatRef:
        return ChatRef(self.user.channel, self.user.id if self.chat_id is None else self.chat_id)

    @property
    def needles(self) -> tuple[str, ...]:
        known = (self.phone.lstrip("+"), self.receiver, self.pickup, self.dropoff, self.parcel)
        return (self.name, *known, *((self.known_as,) if self.known_as else ()))


# On WhatsApp the customer's id is her phone number.
ADAEZE = Person(
    UserRef(WHATSAPP, 2348031234567),
    "Adaeze Okafor",
    "+2348031234567",
    "+2348099887766",
    "14 Admiralty Way, Lekki",
    "7 Bode Thomas Street, Surulere",
    "blue ankara fabric",
)
CHIDI = Person(
    UserRef(TELEGRAM, 7001),
    "Chidi Eze",
    "+2348055500011",
    "+2348055500022",
    "3 Allen Avenue, Ikeja",
    "9 Herbert Macaulay Way, Yaba",
    "jollof rice cooler",
)
LEKKI = Point(6.4281, 3.4219)
YABA = Point(6.5095, 3.3711)


async def _deliver(store: Store, person: Person, delivery_id: str, *, ended: bool) -> None:
    """A delivery of ``person``'s with its timeline, a message and a drop-off code."""
    order = {"sender": person.name, "phone": person.phone, "package": person.parcel}
    details = ListedDetails(1500.0, "NGN", "rdr_1", "Tunde", person.name, person.phone, LEKKI, YABA)
    await store.deliveries.add(
        delivery_id,
        person.chat,
        person.user.id,
        START,
        person.receiver,
        f"https://track.example/{delivery_id}",
        saved_order=json.dumps(order | {"pickup": person.pickup, "dropoff": person.dropoff}),
        details=details,
    )
    event = HistoryEvent(
        f"evt-{delivery_id}",
        delivery_id,
        "delivery.status_changed",
        int(START) + 10,
        START + 10,
        "picked_up",
        "pending",
        f"Picked up the {person.parcel}",
        f"Hello {person.name}",
        (f"call {person.receiver}",),
        Place(person.pickup, LEKKI.latitude, LEKKI.longitude),
        Place(person.dropoff, YABA.latitude, YABA.longitude),
    )
    await note_event(store._db, event)
    text = f"{person.name}, your {person.parcel} is on its way"
    message = HistoryMessage(
        delivery_id, event.event_id, person.chat, "update", "customer", text, START
    )
    await note_messages(store._db, [message])
    await store.otp.put(delivery_id, "4821", person.receiver, int(START) + 20)
    await store.sent.claim(SendKey(event.event_id, person.chat, "update"))
    if ended:
        assert await store.deliveries.update_view(delivery_id, "delivered", int(START) + 30)


async def _everything(store: Store, person: Person) -> None:
    """``person`` with a row in every place a customer can have one."""
    user, chat = person.user, person.chat
    remembered = {"name": person.name, "phone": person.phone, "places": [person.pickup]}
    await store.customers.put(user, json.dumps(remembered))
    await store.contacts.record(user, person.phone, contact_user_id=user.id)
    await store.sessions.save(chat, user.id, json.dumps({"answers": {"package": person.parcel}}))
    await store.customer_counts.start_draft(user)
    for n in (1, 2, 3):
        await _deliver(store, person, f"{user.channel}-{n}", ended=True)
    opened = await store.handoffs.open(
        chat, user, name=person.name, flow=None, step=None, language="en"
    )
    await store.handoffs.add(opened.handoff.ref, TO_STAFF, {"text": f"my {person.parcel}?"})
    photo = b"\xff\xd8 label: " + person.name.encode()
    await store.media.put(photo, content_type="image/jpeg", chat=chat, expires_at=START + 3600)
    reason = f"{person.name} shouted at the rider"
    await store.customer_blocks.block(user, by="telegram:1900", reason=reason)
    await store.audit.record("telegram:1900", "block", str(user), "done", reason)
    await store.blocked.mark(chat)
    if user.channel == WHATSAPP:
        await store.whatsapp_windows.wrote(user.id, START)
        await store.whatsapp_sent.record("wamid.out.1", user.id, kind="news", body=person.name)
        body = json.dumps({"text": f"deliver to {person.dropoff}"})
        await store.whatsapp_inbox.add("wamid.in.1", "message", user.id, body)


async def _findings(store: Store, backend: str, person: Person) -> set[tuple[str, str]]:
    """Every (table, column) of the database holding one of ``person``'s data: a text (JSON
    included, sessions inflated) with their name, phones, addresses or parcel, or a number
    that is their messenger's id for them."""
    if backend == "sqlite":
        rows = await store._db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await store._db.fetch_all(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    found: set[tuple[str, str]] = set()
    for (table,) in rows:
        if backend == "sqlite":
            columns = [row[1] for row in await store._db.fetch_all(f"PRAGMA table_info({table})")]
        else:
            columns = [
                row[0]
                for row in await store._db.fetch_all(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
                    " AND table_schema = current_schema() ORDER BY ordinal_position",
                    (table,),
                )
            ]
        for row in await store._db.fetch_all(f"SELECT {', '.join(columns)} FROM {table}"):  # noqa: S608
            for column, value in zip(columns, row, strict=True):
                if isinstance(value, bytes):
                    value = unpack(value) if table == "sessions" else value.decode(errors="replace")
                if isinstance(value, str) and any(
                    n.lower() in value.lower() for n in person.needles
                ):
                    found.add((str(table), str(column)))
                # An agent channel's customer's number is the store's own (their reference
                # is what names them); anyone else's is their id in a messenger.
                if person.known_as is None and isinstance(value, int) and value == person.user.id:
                    found.add((str(table), str(column)))
    return found


def _files_with(media_dir: Path, person: Person) -> list[str]:
    return [path.name for path in media_dir.iterdir() if person.name.encode() in path.read_bytes()]


async def test_my_data_holds_every_row_of_theirs_and_nothing_of_anyone_else(store: Store) -> None:
    await _everything(store, ADAEZE)
    await _everything(store, CHIDI)

    exported = await store.customer_data.export(ADAEZE.user)

    text = json.dumps(exported.document, ensure_ascii=False)
    for needle in (*ADAEZE.needles, ADAEZE.phone):
        assert needle in text, needle
    assert not [needle for needle in CHIDI.needles if needle in text]
    document = exported.document
    assert [d["delivery_id"] for d in document["deliveries"]] == [
        f"whatsapp-{n}" for n in (1, 2, 3)
    ]
    first = document["deliveries"][0]
    assert first["timeline"][0]["pickup"]["address"] == ADAEZE.pickup
    assert first["messages"][0]["text"].startswith(ADAEZE.name)
    code = first["drop_off_code"]
    assert code["receiver_phone"] == ADAEZE.receiver and "code" not in code  # never the code
    assert document["phones"][0]["phone"] == ADAEZE.phone
    assert document["handoffs"][0]["messages"][0]["body"] == {"text": f"my {ADAEZE.parcel}?"}
    assert document["block"]["reason"].startswith(ADAEZE.name)
    assert [entry["actor"] for entry in document["audit"]] == ["staff"]  # not the operator's id
    [chat] = document["chats"]
    assert chat["blocked_the_bot_at"] == START and chat["last_message_at"] == START
    assert chat["messages_not_handled_yet"][0]["value"] == {"text": f"deliver to {ADAEZE.dropoff}"}
    [photo] = document["photos"]
    assert exported.photo_files == (photo["file_name"],) and len(photo["sha256"]) == 64


async def test_forget_me_leaves_nothing_of_them_but_their_block(
    store: Store, store_backend: str
) -> None:
    await _everything(store, ADAEZE)
    await _everything(store, CHIDI)
    chidi_before = await store.customer_data.export(CHIDI.user)
    assert len(await _findings(store, store_backend, ADAEZE)) > 20

    outcome = await store.customer_data.forget(ADAEZE.user)
    assert await delete_files(store.media_dir, outcome.files) == 1

    assert outcome.anonymised_deliveries == 3 and not outcome.pending
    assert outcome.open_deliveries == ()
    assert outcome.erased["sessions"] == 1 and outcome.erased["media"] == 1
    # The block stays, so that being forgotten does not lift it: on WhatsApp it is keyed by
    # the customer's number. Nothing else of hers is anywhere.
    assert await _findings(store, store_backend, ADAEZE) == {("customer_blocks", "user_id")}
    assert _files_with(store.media_dir, ADAEZE) == []
    kept = await store.deliveries.get("whatsapp-1")
    assert kept is not None and kept.status == "delivered" and is_tombstone(kept.chat.id)
    assert kept.chat.id == kept.user_id  # her private chat's stand-in is her own
    assert not await store.blocked.is_blocked(ADAEZE.chat)
    assert await store.customer_data.export(CHIDI.user) == chidi_before
    assert _files_with(store.media_dir, CHIDI) != []


async def test_an_open_delivery_keeps_the_erasure_pending_until_it_ends(
    store: Store, store_backend: str
) -> None:
    await store.customers.put(CHIDI.user, json.dumps({"name": CHIDI.name}))
    await _deliver(store, CHIDI, "done", ended=True)
    await _deliver(store, CHIDI, "riding", ended=False)
    await store.media.put(
        CHIDI.name.encode(), content_type="image/jpeg", chat=CHIDI.chat, expires_at=START + 60
    )

    outcome = await store.customer_data.forget(CHIDI.user)

    assert outcome.pending and outcome.open_deliveries == ("riding",)
    assert outcome.anonymised_deliveries == 1 and outcome.files == ()  # the rider may need it
    assert await store.customer_data.pending_for(CHIDI.user)
    assert await store.customers.get(CHIDI.user) is None
    riding = await store.deliveries.get("riding")
    assert riding is not None and riding.receiver_phone == CHIDI.receiver
    assert await store.customer_data.complete_pending() == 0  # still riding

    assert await store.deliveries.update_view("riding", "delivered", int(START) + 30)
    assert await store.customer_data.complete_pending() == 1

    assert not await store.customer_data.pending_for(CHIDI.user)
    assert await _findings(store, store_backend, CHIDI) == set()
    assert _files_with(store.media_dir, CHIDI) == []
    done, ridden = await store.deliveries.get("done"), await store.deliveries.get("riding")
    assert done is not None and ridden is not None
    assert done.user_id == ridden.user_id  # one anonymous customer in the books


async def test_forget_again_or_of_a_stranger_changes_nothing(store: Store) -> None:
    await _everything(store, CHIDI)
    await store.customer_data.forget(CHIDI.user)

    for user in (CHIDI.user, UserRef(TELEGRAM, 404)):
        again = await store.customer_data.forget(user)
        assert (again.erased, again.anonymised_deliveries, again.files) == ({}, 0, ())
        assert not again.pending


async def test_an_agent_channels_customer_is_forgotten_with_their_conversations(
    store: Store, store_backend: str
) -> None:
    conversation = await store.agents.open("shop-app", "cust-42", None)
    bisi = Person(
        conversation.user,
        "Bisi Adeyemi",
        "+2348077700033",
        "+2348077700044",
        "5 Awolowo Road, Ikoyi",
        "2 Isaac John Street, Ikeja",
        "red cake box",
        chat_id=conversation.chat.id,
        known_as="cust-42",
    )
    said = {"text": f"{bisi.name} here, pick up at {bisi.pickup}"}
    await store.agents.add_entry(conversation, json.dumps(said))
    await store.agent_events.add(conversation.chat, "evt-a", json.dumps({"note": bisi.parcel}))
    await _deliver(store, bisi, "agent-1", ended=True)

    document = (await store.customer_data.export(bisi.user)).document
    assert document["customer"]["reference"] == "cust-42"
    [talk] = document["agent_conversations"]
    assert talk["transcript"][0]["value"] == said
    assert talk["events"][0]["value"] == {"note": bisi.parcel}

    outcome = await store.customer_data.forget(bisi.user)

    assert outcome.erased["agent_transcript"] == 1 and outcome.erased["agent_customers"] == 1
    assert await _findings(store, store_backend, bisi) == set()
    assert await store.agents.get(conversation.id, "shop-app") is None
