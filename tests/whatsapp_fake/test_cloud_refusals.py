"""What Meta refuses, the fake refuses with Meta's code, status and envelope, and pywa raises
its ``WhatsAppError`` subclass for it; each refusal is counted."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pywa_async.errors import ExpiredAccessToken, InvalidParameter, WhatsAppError
from pywa_async.types.callback import Button, Section, SectionList, SectionRow

from bot.whatsapp.cloud_client import cloud_client
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app

from .cloud_fixtures import ACCESS_TOKEN, CUSTOMER, PHONE_NUMBER_ID, Cloud, section


def _rows(count: int, title: str = "Row", description: str | None = None) -> list[SectionRow]:
    return [
        SectionRow(title if count == 1 else f"{title} {n}", f"r{n}", description=description)
        for n in range(count)
    ]


INTERACTIVE_OVER_LIMITS: dict[str, dict[str, Any]] = {
    "four buttons": {"buttons": [Button(f"B{n}", f"b{n}") for n in range(4)]},
    "a button title over 20": {"buttons": [Button("x" * 21, "b")]},
    "two buttons titled alike": {"buttons": [Button("Yes", "a"), Button("Yes", "b")]},
    "eleven rows": {"buttons": SectionList("Open", [Section("S", _rows(11))])},
    "a row title over 24": {"buttons": SectionList("Open", [Section("S", _rows(1, "r" * 25))])},
    "a description over 72": {
        "buttons": SectionList("Open", [Section("S", _rows(1, "Row", "d" * 73))])
    },
    "a section title over 24": {"buttons": SectionList("Open", [Section("s" * 25, _rows(1))])},
    "a list button over 20": {"buttons": SectionList("o" * 21, [Section("S", _rows(1))])},
    "a body over 1024": {"buttons": [Button("Yes", "y")], "text": "b" * 1025},
}


@pytest.mark.parametrize("drawing", INTERACTIVE_OVER_LIMITS.values(), ids=INTERACTIVE_OVER_LIMITS)
async def test_an_interactive_message_over_a_limit_is_refused_with_131009(
    cloud: Cloud, drawing: dict[str, Any]
) -> None:
    with pytest.raises(InvalidParameter) as refused:
        await cloud.client.wa.send_message(to=CUSTOMER, **{"text": "Pick", **drawing})

    assert refused.value.code == 131009
    assert refused.value.status_code == 400
    assert refused.value.raw["type"] == "OAuthException"
    assert refused.value.raw["message"] == "(#131009) Parameter value is not valid"
    assert refused.value.details
    assert refused.value.fbtrace_id
    assert cloud.fake.sent_to(CUSTOMER) == []
    assert cloud.fake.refusals == {131009: 1}


async def test_a_text_over_4096_is_refused_with_100(cloud: Cloud) -> None:
    with pytest.raises(WhatsAppError) as refused:
        await cloud.client.wa.send_message(to=CUSTOMER, text="t" * 4097)

    assert (refused.value.code, refused.value.status_code) == (100, 400)
    assert "4096" in str(refused.value.details)
    await cloud.client.wa.send_message(to=CUSTOMER, text="t" * 4096)
    assert len(cloud.fake.sent_to(CUSTOMER)) == 1


MALFORMED: dict[str, dict[str, Any]] = {
    "an unknown type": {"type": "hologram", "hologram": {"body": "hi"}},
    "no type": {"text": {"body": "hi"}},
    "no object for its type": {"type": "text"},
    "no text body": {"type": "text", "text": {}},
    "no recipient": {"to": None, "type": "text", "text": {"body": "hi"}},
    "a recipient that is no number": {"to": "alice", "type": "text", "text": {"body": "hi"}},
    "no messaging product": {"messaging_product": None, "type": "text", "text": {"body": "x"}},
    "no interactive body": {
        "type": "interactive",
        "interactive": {"type": "button", "action": {"buttons": [{"type": "reply"}]}},
    },
    "a button without a title": {
        "type": "interactive",
        "interactive": {
            "type": "button",
            "body": {"text": "Pick"},
            "action": {"buttons": [{"type": "reply", "reply": {"id": "a"}}]},
        },
    },
    "an unknown interactive type": {
        "type": "interactive",
        "interactive": {"type": "carousel", "body": {"text": "x"}, "action": {}},
    },
    "a template without a language": {"type": "template", "template": {"name": "x"}},
    "an image of no media": {"type": "image", "image": {"caption": "x"}},
    "a location without a latitude": {"type": "location", "location": {"longitude": 3.4}},
    "a location whose longitude is not a value": {
        "type": "location",
        "location": {"latitude": 6.5, "longitude": [3.4]},
    },
}
BEYOND = {
    "a latitude past the pole": {"latitude": 90.5, "longitude": 3.4},
    "a longitude past the date line": {"latitude": 6.5, "longitude": -180.01},
    "a latitude that is no number": {"latitude": "north", "longitude": 3.4},
    "a longitude that is NaN": {"latitude": 6.5, "longitude": "NaN"},
}


@pytest.mark.parametrize("fields", MALFORMED.values(), ids=MALFORMED)
async def test_a_malformed_message_is_refused_with_100(
    cloud: Cloud, fields: dict[str, Any]
) -> None:
    body = {"messaging_product": "whatsapp", "recipient_type": "individual", "to": CUSTOMER}
    body.update(fields)

    answer = await cloud.client.session.post(
        f"/{PHONE_NUMBER_ID}/messages", json={k: v for k, v in body.items() if v is not None}
    )

    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["type"]) == (100, "OAuthException")
    assert error["error_data"]["messaging_product"] == "whatsapp"
    assert cloud.fake.refusals == {100: 1}


@pytest.mark.parametrize("pin", BEYOND.values(), ids=BEYOND)
async def test_a_location_off_the_earth_is_refused_with_131009(
    cloud: Cloud, pin: dict[str, Any]
) -> None:
    body = {"messaging_product": "whatsapp", "to": CUSTOMER, "type": "location", "location": pin}

    answer = await cloud.client.session.post(f"/{PHONE_NUMBER_ID}/messages", json=body)

    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == 131009
    assert cloud.fake.refusals == {131009: 1}
    assert cloud.fake.sent_to(CUSTOMER) == []


async def test_a_body_that_is_not_a_json_object_is_refused_with_100(cloud: Cloud) -> None:
    for body in (b"{", b"[]"):
        answer = await cloud.client.session.post(f"/{PHONE_NUMBER_ID}/messages", content=body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, 100)


async def test_an_unknown_media_id_is_refused(cloud: Cloud) -> None:
    with pytest.raises(InvalidParameter):
        await cloud.client.wa.send_image(to=CUSTOMER, image="999")


async def test_a_wrong_token_is_401_and_code_190() -> None:
    fake = FakeCloudApi(phone_number_id=PHONE_NUMBER_ID, access_token=ACCESS_TOKEN)
    wrong = cloud_client(
        section("EAAGwrong" + "y" * 40), transport=httpx.ASGITransport(fake_cloud_app(fake))
    )
    try:
        with pytest.raises(ExpiredAccessToken) as refused:
            await wrong.wa.send_message(to=CUSTOMER, text="hi")
    finally:
        await wrong.aclose()

    assert (refused.value.code, refused.value.status_code) == (190, 401)
    assert fake.sent() == []


async def test_another_number_s_path_and_an_unknown_path_are_graph_errors(cloud: Cloud) -> None:
    body = {"messaging_product": "whatsapp", "to": CUSTOMER, "type": "text", "text": {"body": "x"}}

    other = await cloud.client.session.post("/999999/messages", json=body)
    unknown = await cloud.client.session.post(f"/{PHONE_NUMBER_ID}/nothing", json=body)

    assert other.status_code == 400
    assert (other.json()["error"]["code"], other.json()["error"]["error_subcode"]) == (100, 33)
    assert unknown.json()["error"]["code"] == 100
    assert cloud.fake.sent() == []
