"""Sessions rest deflated in SQLite; rows saved as JSON text by earlier releases still read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import SessionRecord, Store
from bot.store.session_packing import pack, unpack

# A session at the summary, in the shape the engine stores (repeated keys, a saved place).
_SUMMARY = json.dumps(
    {
        "id": "112d33329fde49c4b4455f5eb415fc09",
        "entry_flow": "order",
        "flow": "pickup_delivery",
        "flow_version": 2,
        "customer": "1",
        "step": "summary",
        "answers": {
            "service_kind": "pickup_delivery",
            "delivery_mode": "pickup",
            "pickup_place": {"kind": "location", "lat": 6.5095, "lng": 3.3711},
            "pickup_address": "Ozone Cinema, Yaba",
            "dropoff_place": {
                "kind": "saved",
                "location": {
                    "id": "loc_moremi_hall",
                    "name": "Moremi Hall",
                    "address": "University of Lagos, Akoka, Lagos",
                    "category": "hostel",
                    "coords": {"lng": 3.399, "lat": 6.5155},
                    "countryCode": "NG",
                    "stateCode": "LA",
                    "countryName": "Nigeria",
                    "stateName": "Lagos",
                    "unit": {
                        "label": "Room",
                        "mode": "list",
                        "ranges": [
                            {"prefix": "A", "start": 1, "end": 40, "pad": 3},
                            {"prefix": "B", "start": 1, "end": 40, "pad": 3},
                        ],
                        "values": ["Warden's office"],
                        "required": True,
                    },
                },
            },
            "dropoff_unit": "A017",
            "sender_name": "Ada Obi",
            "sender_phone": "+2348031234567",
            "sender_email": "",
            "pickup_contact": "yes",
            "receiver_name": "Bola Ahmed",
            "receiver_phone": "+2348022223333",
            "package_description": "A pair of shoes – ñ, 日本",
            "package_size": "small",
            "fragile": "no",
            "photos": ["https://media.swift-lagos.example/parcel.jpg"],
            "payment": "cash_on_delivery",
            "pod_amount": None,
        },
        "filled_by": {
            "delivery_mode": "@preset",
            "pickup_address": "pickup_place",
            "sender_phone": "sender_name",
            "sender_email": "@preset",
            "pickup_contact": "@preset",
            "fragile": "@preset",
            "pod_amount": "@preset",
        },
        "history": [
            ["order", "service_kind"],
            [
                "pickup_delivery",
                "pickup_place",
                "dropoff_place",
                "dropoff_unit",
                "sender_name",
                "receiver_name",
                "receiver_phone",
                "package_description",
                "package_size",
                "photos",
                "payment",
            ],
        ],
        "prompt_version": 12,
        "failures": 1,
    },
    ensure_ascii=False,
    separators=(",", ":"),
)


@given(st.text())
def test_any_text_comes_back_as_it_was_packed(text: str) -> None:
    assert unpack(pack(text)) == text


def test_a_summary_session_packs_to_under_half_its_json() -> None:
    assert len(pack(_SUMMARY)) < len(_SUMMARY.encode()) / 2


def test_text_from_an_earlier_release_reads_as_it_is() -> None:
    assert unpack(_SUMMARY) == _SUMMARY


def test_a_value_in_an_unknown_format_is_refused_not_misread() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        unpack(b"\x07" + pack(_SUMMARY)[1:])
    with pytest.raises(ValueError, match="unknown format"):
        unpack(b"")


async def test_sqlite_keeps_the_session_packed(db_path: Path, clock: Clock) -> None:
    async with Store.open(db_path, clock=clock, synchronous="NORMAL") as store:
        await store.sessions.save(ChatRef("telegram", 10), 20, _SUMMARY)
    conn = sqlite3.connect(db_path)
    try:
        ((kind, size),) = conn.execute(
            "SELECT typeof(data), length(data) FROM sessions WHERE chat_id = 10"
        )
    finally:
        conn.close()
    assert kind == "blob"
    assert size < len(_SUMMARY.encode()) / 2


async def test_sessions_saved_as_text_by_an_earlier_release_resume(
    db_path: Path, clock: Clock
) -> None:
    async with Store.open(db_path, clock=clock, synchronous="NORMAL") as store:
        await store.sessions.save(ChatRef("telegram", 1), 1, "{}")  # the schema is made
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.execute(
                "INSERT INTO sessions (channel, chat_id, user_id, data, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                ("telegram", 10, 20, _SUMMARY, clock()),
            )
    finally:
        conn.close()
    async with Store.open(db_path, clock=clock, synchronous="NORMAL") as store:
        assert await store.sessions.get(ChatRef("telegram", 10)) == SessionRecord(
            ChatRef("telegram", 10), 20, _SUMMARY, clock()
        )
        assert [record.data for record in await store.sessions.list_open()] == ["{}", _SUMMARY]
        await store.sessions.save(
            ChatRef("telegram", 10), 20, _SUMMARY
        )  # saved again: packed from now on
        assert await store.sessions.get(ChatRef("telegram", 10)) == SessionRecord(
            ChatRef("telegram", 10), 20, _SUMMARY, clock()
        )
