"""Pushed updates read at the door without PTB (``received_update``): the chat read off the JSON
is the one PTB's ``effective_chat`` gives, for every kind of update PTB knows; the metrics kind
is ``kind_of``'s; PTB's parse happens when the update is handled."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from telegram import Update

from bot.metrics.update_kinds import kind_of
from bot.telegram.received_update import (
    ReceivedUpdate,
    UnmappedChat,
    chat_id_of,
    kind_of_data,
    readable,
    received_update,
)
from bot.telegram.update_check import Flaw

JSON = dict[str, Any]
DATE = 1_700_000_000
USER: JSON = {"id": 1001, "is_bot": False, "first_name": "Ada", "language_code": "fr"}
PRIVATE: JSON = {"id": 1001, "type": "private", "first_name": "Ada"}
GROUP: JSON = {"id": -100500, "type": "supergroup", "title": "Dispatch"}
CHANNEL: JSON = {"id": -100600, "type": "channel", "title": "News"}


def message(chat: JSON = PRIVATE, **content: Any) -> JSON:
    sender = {} if chat is CHANNEL else {"from": USER}
    return {"message_id": 7, "date": DATE, "chat": chat, **sender, "text": "hi", **content}


def tap(**content: Any) -> JSON:
    return {"id": "t1", "from": USER, "chat_instance": "1", "data": "q1:0", **content}


def member_change(chat: JSON) -> JSON:
    return {
        "chat": chat,
        "from": USER,
        "date": DATE,
        "old_chat_member": {"status": "member", "user": USER},
        "new_chat_member": {"status": "left", "user": USER},
    }


PREMIUM = {"source": "premium", "user": USER}
EMOJI = {"type": "emoji", "emoji": "👍"}
ADDRESS = {
    "country_code": "NG",
    "state": "",
    "city": "Lagos",
    "street_line1": "12 Herbert Macaulay Way",
    "street_line2": "",
    "post_code": "101245",
}
POLL = {
    "id": "p1",
    "question": "Which day?",
    "options": [{"text": "Monday", "voter_count": 0, "persistent_id": "o1"}],
    "total_voter_count": 0,
    "is_closed": False,
    "is_anonymous": True,
    "type": "regular",
    "allows_multiple_answers": False,
    "allows_revoting": False,
    "members_only": False,
}

# One update of each kind PTB knows (``Update.ALL_TYPES``), as the Bot API documents it.
EVERY_KIND: dict[str, JSON] = {
    "message": message(),
    "edited_message": message(GROUP, edit_date=DATE),
    "channel_post": message(CHANNEL),
    "edited_channel_post": message(CHANNEL, edit_date=DATE),
    "inline_query": {"id": "i1", "from": USER, "query": "shoes", "offset": ""},
    "chosen_inline_result": {"result_id": "r1", "from": USER, "query": "shoes"},
    "callback_query": tap(message=message()),
    "shipping_query": {
        "id": "s1",
        "from": USER,
        "invoice_payload": "order-1",
        "shipping_address": ADDRESS,
    },
    "pre_checkout_query": {
        "id": "c1",
        "from": USER,
        "currency": "NGN",
        "total_amount": 150_000,
        "invoice_payload": "order-1",
    },
    "poll": POLL,
    "poll_answer": {
        "poll_id": "p1",
        "user": USER,
        "option_ids": [0],
        "option_persistent_ids": ["o1"],
    },
    "my_chat_member": member_change(PRIVATE),
    "chat_member": member_change(GROUP),
    "chat_join_request": {"chat": GROUP, "from": USER, "user_chat_id": 1001, "date": DATE},
    "chat_boost": {
        "chat": CHANNEL,
        "boost": {
            "boost_id": "b1",
            "add_date": DATE,
            "expiration_date": DATE + 86_400,
            "source": PREMIUM,
        },
    },
    "removed_chat_boost": {
        "chat": CHANNEL,
        "boost_id": "b1",
        "remove_date": DATE,
        "source": PREMIUM,
    },
    "message_reaction": {
        "chat": GROUP,
        "message_id": 7,
        "user": USER,
        "date": DATE,
        "old_reaction": [],
        "new_reaction": [EMOJI],
    },
    "message_reaction_count": {
        "chat": CHANNEL,
        "message_id": 7,
        "date": DATE,
        "reactions": [{"type": EMOJI, "total_count": 2}],
    },
    "business_connection": {
        "id": "bc1",
        "user": USER,
        "user_chat_id": 1001,
        "date": DATE,
        "is_enabled": True,
    },
    "business_message": message(business_connection_id="bc1"),
    "edited_business_message": message(business_connection_id="bc1", edit_date=DATE),
    "deleted_business_messages": {
        "business_connection_id": "bc1",
        "chat": PRIVATE,
        "message_ids": [7, 8],
    },
    "purchased_paid_media": {"from": USER, "paid_media_payload": "photo-pack"},
    "managed_bot": {"user": USER, "bot": {"id": 2002, "is_bot": True, "first_name": "Helper"}},
    "guest_message": message(GROUP),
}

# Shapes where the order PTB reads the kinds in decides, or a part is missing.
SHAPES: dict[str, JSON] = {
    "tap on an inline message": {"callback_query": tap(inline_message_id="im1")},
    "tap on an inaccessible message": {
        "callback_query": tap(message={"chat": GROUP, "message_id": 7, "date": 0})
    },
    "tap on an inline message, beside a member change": {
        "callback_query": tap(inline_message_id="im1"),
        "my_chat_member": member_change(GROUP),
    },
    "message beside a tap": {
        "message": message(PRIVATE),
        "callback_query": tap(message=message(GROUP)),
    },
    "edited message beside a member change": {
        "edited_message": message(GROUP),
        "chat_member": member_change(PRIVATE),
    },
    "message without a chat": {"message": {"message_id": 7, "date": DATE, "from": USER}},
    "message set to null, tap beside it": {
        "message": None,
        "callback_query": tap(message=message(GROUP)),
    },
    "nothing PTB knows": {"something_new": {"chat": GROUP}},
    "a 64-bit chat id": {"my_chat_member": member_change({**GROUP, "id": -(2**63)})},
}

CASES = [
    *[pytest.param({kind: body}, id=kind) for kind, body in EVERY_KIND.items()],
    *[pytest.param(body, id=name) for name, body in SHAPES.items()],
]


def test_the_table_has_every_kind_ptb_knows() -> None:
    assert set(EVERY_KIND) == set(Update.ALL_TYPES)


@pytest.mark.parametrize("content", CASES)
def test_the_chat_read_off_the_json_is_ptbs_effective_chat(content: JSON) -> None:
    data = {"update_id": 41, **copy.deepcopy(content)}
    parsed = Update.de_json(copy.deepcopy(data), None)
    expected = parsed.effective_chat.id if parsed.effective_chat is not None else None

    assert chat_id_of(data) == expected


MESSAGES: dict[str, JSON] = {
    "text": message(),
    "command": message(text="/help", entities=[{"type": "bot_command", "offset": 0, "length": 5}]),
    "empty text": message(text=""),
    "photo": message(
        text=None, photo=[{"file_id": "a", "file_unique_id": "b", "width": 1, "height": 1}]
    ),
    "no photo": message(text=None, photo=[]),
    "contact": message(text=None, contact={"phone_number": "+2348031234567", "first_name": "Ada"}),
    "location": message(text=None, location={"latitude": 6.5, "longitude": 3.3}),
    "sticker-like": message(text=None),
}


@pytest.mark.parametrize(
    "data",
    [
        *[pytest.param({"message": body}, id=name) for name, body in MESSAGES.items()],
        *CASES,
    ],
)
def test_the_kind_read_off_the_json_is_kind_of_the_parsed_update(data: JSON) -> None:
    data = {"update_id": 41, **copy.deepcopy(data)}

    assert kind_of_data(data) == kind_of(Update.de_json(copy.deepcopy(data), None))


def test_a_pushed_update_is_queued_unparsed_and_its_repr_has_no_message() -> None:
    data = {"update_id": 41, "message": message(text="my address is 12 Herbert Macaulay Way")}

    update = received_update(data, None)

    assert update == ReceivedUpdate(41, PRIVATE["id"], "text", data)
    assert isinstance(update, ReceivedUpdate) and update.data is data
    assert "Herbert" not in repr(update) and "Herbert" not in str(update)


@pytest.mark.parametrize(
    "content",
    [
        {"my_chat_member": "left"},
        {"chat_join_request": {"chat": "Dispatch"}},
        {"chat_boost": {"chat": {**GROUP, "id": "-100500"}}},
        {"message_reaction": {"chat": {**GROUP, "id": 2**63}}},
        {"callback_query": tap(inline_message_id="im1"), "chat_member": {"chat": {"id": True}}},
    ],
    ids=["not an object", "chat not an object", "chat id a string", "chat id over 64 bits", "bool"],
)
def test_an_update_whose_chat_cannot_be_read_surely_is_parsed_by_ptb_at_the_door(
    content: JSON,
) -> None:
    data = {"update_id": 41, **content}
    with pytest.raises(UnmappedChat):
        chat_id_of(data)

    taken = received_update(data, None)

    assert isinstance(taken, Update | Flaw)  # what the door did before: PTB's parse or a flaw
    if isinstance(taken, Flaw):
        assert str(taken).startswith("update 41: PTB cannot read it (")


def test_the_doors_own_checks_come_first() -> None:
    data = {"update_id": 41, "message": message(text=12345)}

    assert received_update(data, None) == Flaw(41, "message.text is not a string")


def test_the_error_handler_reads_a_received_update_as_ptbs_when_it_can() -> None:
    sound = received_update({"update_id": 41, "message": message()}, None)
    broken = ReceivedUpdate(
        42, 1001, "text", {"update_id": 42, "message": message(reply_to_message=5)}
    )

    assert isinstance(readable(sound), Update)
    assert readable(broken) is broken
    assert readable("other") == "other"
    assert json.dumps(broken.data)  # kept as it came
