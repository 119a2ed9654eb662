"""``GET /whatsapp``: Meta's check of the webhook URL answers the challenge only to the
configured verify token."""

from __future__ import annotations

import pytest

from tests.whatsapp.receive.conftest import Receiver
from tests.whatsapp.receive.pushes import VERIFY_TOKEN


async def test_the_right_token_gets_the_challenge_back_as_plain_text(receiver: Receiver) -> None:
    params = {
        "hub.mode": "subscribe",
        "hub.verify_token": VERIFY_TOKEN,
        "hub.challenge": "1158201444",
    }
    answer = await receiver.client.get("/whatsapp", params=params)
    assert answer.status_code == 200
    assert answer.text == "1158201444"
    assert answer.headers["content-type"].startswith("text/plain")


@pytest.mark.parametrize(
    "params",
    [
        {"hub.mode": "subscribe", "hub.verify_token": "wrong-token-value", "hub.challenge": "1"},
        {"hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN[:-1], "hub.challenge": "1"},
        {"hub.mode": "unsubscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1"},
        {"hub.mode": "subscribe", "hub.challenge": "1"},
        {"hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": ""},
        {"hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "a b"},
        {},
    ],
    ids=["wrong", "a prefix", "another mode", "no token", "no challenge", "a space", "nothing"],
)
async def test_anything_else_is_forbidden(receiver: Receiver, params: dict[str, str]) -> None:
    answer = await receiver.client.get("/whatsapp", params=params)
    assert answer.status_code == 403
    assert VERIFY_TOKEN not in answer.text
