"""``bot.whatsapp.payload``: each message type Meta sends read into the channel's values, and
what is stored reads back the same."""

from __future__ import annotations

from typing import Any

import pytest

from bot.whatsapp.inbound import (
    ButtonReply,
    Image,
    ListReply,
    Location,
    SharedContact,
    Text,
    Unsupported,
)
from bot.whatsapp.payload import NotAPush, message_of, read_push, status_of
from bot.whatsapp.signature import BadSignature, sign, verify
from tests.whatsapp.receive.pushes import APP_SECRET, CUSTOMER, PHONE_NUMBER_ID, push, status, text


def _typed(kind: str, part: Any) -> dict[str, Any]:
    message = {**text("wamid.1"), "type": kind, kind: part}
    del message["text"]
    return message


CONTENTS = [
    (text("wamid.1", "hello"), Text("hello")),
    (
        _typed(
            "interactive", {"type": "button_reply", "button_reply": {"id": "yes", "title": "Yes"}}
        ),
        ButtonReply("yes", "Yes"),
    ),
    (
        _typed(
            "interactive",
            {
                "type": "list_reply",
                "list_reply": {"id": "r7", "title": "Room 7", "description": "x"},
            },
        ),
        ListReply("r7", "Room 7"),
    ),
    (_typed("interactive", {"type": "nfm_reply"}), Unsupported("interactive.nfm_reply")),
    (_typed("button", {"payload": "STOP", "text": "Stop"}), ButtonReply("STOP", "Stop")),
    (
        _typed(
            "location", {"latitude": 6.45, "longitude": 3.39, "name": "Shop", "address": "Lagos"}
        ),
        Location(6.45, 3.39, "Shop", "Lagos"),
    ),
    (
        _typed(
            "contacts",
            [
                {
                    "name": {"formatted_name": "Bola"},
                    "phones": [{"phone": "+234 801", "wa_id": "234801000000"}],
                }
            ],
        ),
        SharedContact("Bola", ["+234 801"], ["234801000000"]),
    ),
    (
        _typed(
            "image", {"id": "media-1", "mime_type": "image/jpeg", "sha256": "abc", "caption": "box"}
        ),
        Image("media-1", "image/jpeg", "abc", "box"),
    ),
    (_typed("sticker", {"id": "s"}), Unsupported("sticker")),
    (_typed("reaction", {"message_id": "wamid.0", "emoji": "x"}), Unsupported("reaction")),
    (_typed("audio", {"id": "a", "voice": True}), Unsupported("audio")),
]


@pytest.mark.parametrize(
    ("raw", "content"), CONTENTS, ids=[c[0]["type"] + str(i) for i, c in enumerate(CONTENTS)]
)
def test_each_type_is_read_and_reads_back_from_the_inbox(
    raw: dict[str, Any], content: object
) -> None:
    (received,) = read_push(push([raw]), PHONE_NUMBER_ID).messages
    message = received.message
    assert (message.message_id, message.wa_id, message.profile_name) == ("wamid.1", CUSTOMER, "Ada")
    assert message.timestamp == 1_700_000_000
    assert message.content == content
    assert message_of(received.stored) == message


def test_a_reply_names_the_message_it_answers() -> None:
    raw = {**text("wamid.2"), "context": {"from": "2348000000000", "id": "wamid.ours"}}
    (received,) = read_push(push([raw]), PHONE_NUMBER_ID).messages
    assert received.message.replied_to == "wamid.ours"


def test_a_type_without_its_part_is_dropped_naming_why_not_what() -> None:
    read = read_push(push([{**text("wamid.3", "my words"), "type": "image"}]), PHONE_NUMBER_ID)
    assert read.messages == ()
    assert read.dropped == ("entry[0].changes[0].value.messages[0]: type image without image",)


def test_a_broken_field_is_named_by_its_place_and_rule_without_its_value() -> None:
    raw = {**text("wamid.4"), "timestamp": "my words"}
    (reason,) = read_push(push([raw]), PHONE_NUMBER_ID).dropped
    assert reason == "entry[0].changes[0].value.messages[0]: timestamp: string_pattern_mismatch"


def test_statuses_carry_their_errors_and_read_back() -> None:
    failed = {
        **status("wamid.out", "failed"),
        "errors": [{"code": 131047, "title": "Re-engagement"}],
    }
    (received,) = read_push(push(statuses=[failed]), PHONE_NUMBER_ID).statuses
    assert received.update.status == "failed"
    assert [(e.code, e.title) for e in received.update.errors] == [(131047, "Re-engagement")]
    assert status_of(received.stored) == received.update


def test_metas_own_errors_are_reported_by_code() -> None:
    data = push()
    data["entry"][0]["changes"][0]["value"]["errors"] = [{"code": 131000, "title": "Something"}]
    assert read_push(data, PHONE_NUMBER_ID).meta_errors == (131000,)


@pytest.mark.parametrize(
    "data",
    [
        {"object": "page", "entry": []},
        {"entry": []},
        {"object": "whatsapp_business_account", "entry": 3},
    ],
)
def test_what_is_not_a_push_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(NotAPush):
        read_push(data, PHONE_NUMBER_ID)


def test_a_signature_is_of_the_raw_bytes_with_the_app_secret() -> None:
    body = b'{"object": "whatsapp_business_account"}'
    header = sign(body, APP_SECRET)
    verify(body, header, APP_SECRET)
    verify(body, header.upper().replace("SHA256=", "sha256="), APP_SECRET)  # hex in capitals
    for wrong in (sign(body + b"\n", APP_SECRET), sign(body, "0" * 32), None, "", header[:-1]):
        with pytest.raises(BadSignature) as raised:
            verify(body, wrong, APP_SECRET)
        assert APP_SECRET not in str(raised.value)
