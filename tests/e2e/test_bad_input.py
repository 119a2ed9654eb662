"""Bad input through the running bot, polling and webhook alike: every customer message gets a
clear answer, anything else is dropped with a warning line, nothing logs an ERROR, and the
chat's saved session survives."""

from __future__ import annotations

import logging
import math
from typing import Any

import pytest
from telegram import Update

from bot.chat_ref import ChatRef
from bot.telegram.update_check import update_flaw
from conversations import Session
from tests.e2e.conftest import ADA, PUBLIC_BASE_URL, SECRET_TOKEN, BotStack, MakeStack, Mode
from tests.fakes import post_update

MODES: list[Mode] = ["polling", "webhook"]
ADDRESS_QUESTION = "What is the address at this pin? Street, building or landmark"
PIN_QUESTION = "Where should the rider pick the package up?"


@pytest.fixture(params=MODES)
async def at_pin(request: pytest.FixtureRequest, make_stack: MakeStack) -> BotStack:
    """A stack in each mode with ADA's order at the pickup pin question."""
    stack = await make_stack(mode=request.param)
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")  # a rider picks up: pre-set
    return stack


async def saved(stack: BotStack) -> Session:
    """ADA's saved session, read back the way a restart reads it."""
    record = await stack.bot.store.sessions.get(ChatRef("telegram", ADA.id))
    assert record is not None, "the session was lost"
    return Session.model_validate_json(record.data)


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_half_an_emoji_is_dropped_and_the_answer_saved(
    at_pin: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    stack = at_pin
    await stack.location(ADA, 6.5095, 3.3711)
    assert (stack.tg.sent_messages(ADA.id)[-1].text or "").startswith(ADDRESS_QUESTION)

    reply = await stack.send(stack.tg.updates.text(ADA, "12 Herbert \ud83dMacaulay Way\x00"))

    assert reply and "Where should the rider deliver it?" in (reply[0].text or "")
    session = await saved(stack)
    assert session.answers["pickup_address"] == "12 Herbert Macaulay Way"
    no_errors(caplog)


@pytest.mark.parametrize(("lat", "lng"), [(200.0, 3.37), (6.5, -400.0), (math.nan, 3.37)])
async def test_a_pin_off_the_map_is_asked_again(
    at_pin: BotStack, caplog: pytest.LogCaptureFixture, lat: float, lng: float
) -> None:
    stack = at_pin
    before = await saved(stack)

    if math.isnan(lat) and stack.config.telegram.mode == "webhook":
        # NaN is not JSON, so Telegram never sends it: the webhook door refuses such a body
        # (polling hands PTB what its own JSON reading let through, and the step re-asks).
        update = stack.tg.updates.location(ADA, lat, lng)
        response = await post_update(
            f"{PUBLIC_BASE_URL}/telegram", update, secret_token=SECRET_TOKEN, app=stack.bot.web_app
        )
        assert response.status_code == 400
        after = await saved(stack)
        assert (after.step, after.answers) == (before.step, before.answers)
        no_errors(caplog)
        return

    reply = await stack.location(ADA, lat, lng)

    assert reply and (reply[0].text or "").startswith(
        "That pin is not a real place. Please share the location again."
    )
    after = await saved(stack)
    assert (after.step, after.answers) == (before.step, before.answers)
    no_errors(caplog)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("x" * 5000, "Please keep the address under 300 characters (that was 5000)."),
        # Nothing left once cleaned: said to be empty, the question asked again.
        ("  \t ", "That answer was empty: please answer the question."),
        ("\ud83d\x1b", "That answer was empty: please answer the question."),
    ],
)
async def test_text_a_step_cannot_take_gets_its_reason(
    at_pin: BotStack, caplog: pytest.LogCaptureFixture, text: str, answer: str
) -> None:
    stack = at_pin
    await stack.location(ADA, 6.5095, 3.3711)
    before = await saved(stack)

    reply = await stack.text(ADA, text)

    assert reply and answer in (reply[0].text or "")
    after = await saved(stack)
    assert (after.step, after.answers) == (before.step, before.answers)
    no_errors(caplog)


NOT_CUSTOMER_MESSAGES = [
    "update_id is not an integer",
    "neither a message nor a tap",
    "an edit",
    "a message without a chat or sender",
]


def not_a_customer_message(kind: str, message: dict[str, Any]) -> dict[str, Any]:
    """An update body of ``kind``, around ``message`` (a genuine one from ADA)."""
    bodies: dict[str, dict[str, Any]] = {
        "update_id is not an integer": {"update_id": "abc", "message": message},
        "neither a message nor a tap": {"update_id": 900_000_001},
        "an edit": {"update_id": 900_000_002, "edited_message": message},
        "a message without a chat or sender": {
            "update_id": 900_000_003,
            "message": {"message_id": 5, "date": message["date"], "text": "hello"},
        },
    }
    return bodies[kind]


@pytest.mark.parametrize("kind", NOT_CUSTOMER_MESSAGES)
async def test_an_update_that_is_no_customer_message_is_dropped_with_a_warning(
    at_pin: BotStack, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    stack = at_pin
    before = await saved(stack)
    sent = len(stack.tg.sent_messages(ADA.id))
    message = stack.tg.updates.text(ADA, "hello")["message"]

    await deliver(stack, not_a_customer_message(kind, message))

    dropped = [r for r in caplog.records if r.getMessage().startswith("update dropped")]
    assert [r.levelno for r in dropped] == [logging.WARNING]
    no_errors(caplog)
    assert len(stack.tg.sent_messages(ADA.id)) == sent
    after = await saved(stack)
    assert (after.step, after.answers) == (before.step, before.answers)
    (reply,) = await stack.location(ADA, 200.0, 3.0)  # the chat goes on as before
    assert PIN_QUESTION in (reply.text or "")


async def deliver(stack: BotStack, body: dict[str, Any]) -> None:
    """``body`` where updates enter: pushed to /telegram in webhook mode (whose door may drop
    it); in polling mode put where PTB's long polling puts what getUpdates returned (the fake,
    like Telegram, cannot serve a body this broken)."""
    if stack.config.telegram.mode == "webhook":
        response = await post_update(
            f"{PUBLIC_BASE_URL}/telegram", body, secret_token=SECRET_TOKEN, app=stack.bot.web_app
        )
        assert response.status_code == 200
        if update_flaw(body) is not None:
            return  # dropped at the door, acknowledged all the same: it never reaches PTB
    else:
        application = stack.bot.application
        update = Update.de_json(body, application.bot)
        assert update is not None
        await application.update_queue.put(update)
    assert stack.processor is not None
    await stack.processor.processed(body["update_id"])
