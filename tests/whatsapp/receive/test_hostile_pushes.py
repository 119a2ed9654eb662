"""The hostile webhook table: every push the door must refuse or drop gets its status code,
no traceback, no customer's words in a log, and nothing that was sent properly is lost."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.store import Store
from bot.whatsapp.inbound import Text, Unsupported
from bot.whatsapp.signature import SIGNATURE_HEADER
from tests.whatsapp.receive.conftest import Receiver, receiver_on
from tests.whatsapp.receive.pushes import (
    APP_SECRET,
    CUSTOMER,
    WORDS,
    encoded,
    push,
    signed,
    status,
    text,
)

GOOD = encoded(push([text("wamid.good")]))


def _nested(depth: int) -> bytes:
    return ("[" * depth + "]" * depth).encode()


def _headers(body: bytes, **changes: str) -> dict[str, str]:
    return {**signed(body), **changes}


# (what, body, headers, status): nothing of these is stored.
REFUSED: list[tuple[str, bytes, dict[str, str], int]] = [
    ("no signature", GOOD, {"content-type": "application/json"}, 401),
    ("a malformed signature", GOOD, _headers(GOOD, **{SIGNATURE_HEADER: "sha256=beef"}), 401),
    ("another secret's signature", GOOD, signed(GOOD, "f" * 32), 403),
    ("the signature of another body", GOOD, signed(GOOD + b" "), 403),
    ("a media type other than JSON", GOOD, _headers(GOOD, **{"content-type": "text/plain"}), 415),
    ("malformed JSON", b'{"object": ', signed(b'{"object": '), 400),
    ("JSON nested 200 deep", _nested(200), signed(_nested(200)), 400),
    ("NaN", b'{"object": NaN}', signed(b'{"object": NaN}'), 400),
    ("a repeated key", b'{"a": 1, "a": 2}', signed(b'{"a": 1, "a": 2}'), 400),
    ("a JSON array", b"[]", signed(b"[]"), 400),
    ("bytes that are not UTF-8", b'{"\xff": 1}', signed(b'{"\xff": 1}'), 400),
]


@pytest.mark.parametrize(
    ("body", "headers", "code"), [case[1:] for case in REFUSED], ids=[c[0] for c in REFUSED]
)
async def test_a_refused_push_gets_its_code_and_stores_nothing(
    receiver: Receiver,
    caplog: pytest.LogCaptureFixture,
    body: bytes,
    headers: dict[str, str],
    code: int,
) -> None:
    caplog.set_level(logging.INFO)
    answer = await receiver.client.post("/whatsapp", content=body, headers=headers)
    assert answer.status_code == code
    assert await receiver.store.whatsapp_inbox.count_pending() == 0
    _clean(caplog)


async def test_a_body_over_the_limit_is_refused_before_it_is_read(store: Store) -> None:
    async with receiver_on(store, max_body_bytes=1_000) as receiver:
        body = encoded(push([text("wamid.big", "x" * 2_000)]))
        answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
        assert answer.status_code == 413
        assert await store.whatsapp_inbox.count_pending() == 0


# (what, push, the ids handled): Meta's own pushes, acknowledged whatever they hold.
ACKNOWLEDGED: list[tuple[str, dict[str, Any], list[str]]] = [
    ("not a WhatsApp push", {"object": "page", "entry": []}, []),
    ("an envelope without entries", {"object": "whatsapp_business_account"}, []),
    ("another phone number id", push([text("wamid.x")], phone_number_id="999999999"), []),
    (
        "a broken message beside a good one",
        push([text("wamid.bad", sender="not-a-number"), text("wamid.ok")]),
        ["wamid.ok"],
    ),
    ("a message without an id", push([{**text("wamid.y"), "id": ""}]), []),
    ("a text over WhatsApp's 65,536 characters", push([text("wamid.huge", WORDS * 5000)]), []),
    ("an id over 256 characters", push([text("wamid." + "x" * 300)]), []),
    (
        "a change of another field",
        {
            "object": "whatsapp_business_account",
            "entry": [{"changes": [{"field": "account_update", "value": {"x": 1}}]}],
        },
        [],
    ),
    (
        "a change whose value is not an object",
        {**push(), "entry": [{"changes": [{"field": "messages", "value": 5}]}]},
        [],
    ),
]


@pytest.mark.parametrize(
    ("data", "handled"), [case[1:] for case in ACKNOWLEDGED], ids=[c[0] for c in ACKNOWLEDGED]
)
async def test_a_signed_push_is_acknowledged_and_its_broken_parts_dropped(
    receiver: Receiver,
    caplog: pytest.LogCaptureFixture,
    data: dict[str, Any],
    handled: list[str],
) -> None:
    caplog.set_level(logging.INFO)
    body = encoded(data)
    answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
    assert answer.status_code == 200
    await receiver.receiving.handling.idle()
    assert receiver.recorder.ids == handled
    _clean(caplog)


async def test_unknown_types_reach_the_handler_as_unsupported(receiver: Receiver) -> None:
    kinds = ["sticker", "reaction", "audio", "video", "document", "brand_new_type"]
    messages = [
        {**text(f"wamid.{kind}"), "type": kind, kind: {"id": "1"}, "text": None} for kind in kinds
    ]
    body = encoded(push(messages))
    answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
    assert answer.status_code == 200
    await receiver.receiving.handling.idle()
    assert [m.content for m in receiver.recorder.messages] == [Unsupported(k) for k in kinds]


async def test_a_status_with_an_unknown_name_is_dropped_and_a_known_one_kept(
    receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    body = encoded(push(statuses=[status("wamid.a", "melted"), status("wamid.b", "read")]))
    answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
    assert answer.status_code == 200
    await receiver.receiving.handling.idle()
    assert [(s.message_id, s.status) for s in receiver.recorder.statuses] == [("wamid.b", "read")]
    assert "statuses[0]" in caplog.text
    _clean(caplog)


async def test_replays_of_one_message_are_handled_once(receiver: Receiver) -> None:
    body = encoded(push([text("wamid.once")]))
    for _ in range(3):
        answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
        assert answer.status_code == 200
        await receiver.receiving.handling.idle()
    # Days later, after the sweep cleared its body: still a repeat.
    await receiver.store.whatsapp_inbox.prune_handled(receiver.store.clock())
    answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
    assert answer.status_code == 200
    await receiver.receiving.handling.idle()
    assert receiver.recorder.ids == ["wamid.once"]
    assert receiver.recorder.messages[0].content == Text(WORDS)
    assert receiver.recorder.messages[0].wa_id == CUSTOMER


async def test_a_push_that_cannot_be_stored_is_answered_500(receiver: Receiver) -> None:
    await receiver.store.close()  # the database is gone
    body = encoded(push([text("wamid.lost")]))
    answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
    assert answer.status_code == 500
    assert receiver.recorder.messages == []


def _clean(caplog: pytest.LogCaptureFixture) -> None:
    """No traceback, no customer's words or number, no secret in any log line."""
    for record in caplog.records:
        assert record.exc_info is None, record.getMessage()
        assert WORDS not in record.getMessage()
        assert CUSTOMER not in record.getMessage()
        assert APP_SECRET not in record.getMessage()
