"""Hostile Telegram updates at the door, webhook and polling alike: each one that the bot cannot
read is dropped with exactly one WARNING naming its id and the broken rule (never the value),
nothing runs or is stored, nothing logs an ERROR or a traceback, and the chat goes on.

The stack is the e2e one (``tests/e2e/conftest.py``): the production runtime and PTB's real
Application, with the fake Bot API pushing to ``/telegram`` or answering ``getUpdates``.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Update
from telegram.ext import ContextTypes

from bot.telegram.application import error_handler
from bot.telegram.bot_context import BotContext
from bot.telegram.stored_updates import UpdateInboxSweep
from bot.telegram.update_check import update_flaw
from conversations.texts.business_texts import BusinessTexts
from tests.e2e.conftest import (  # make_stack: the e2e fixture, used here as it is
    ADA,
    PUBLIC_BASE_URL,
    SECRET_TOKEN,
    BotStack,
    MakeStack,
    Mode,
    make_stack,
)
from tests.fakes import SentMessage, post_update
from tests.support.words import SHIPPED_TEXTS

__all__ = ["make_stack"]

MODES: list[Mode] = ["webhook", "polling"]
Body = dict[str, Any]
Spoil = Callable[[Body], None]


def set_at(*path: str | int, value: object) -> Spoil:
    """A spoiler writing ``value`` at ``path`` inside the update body."""

    def spoil(body: Body) -> None:
        target: Any = body
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return spoil


# (case, the genuine update it starts from, how it is spoiled, the reason in the log line)
HOSTILE: list[tuple[str, str, Spoil, str]] = [
    (
        "text is a number",
        "text",
        set_at("message", "text", value=12345),
        "message.text is not a string",
    ),
    (
        "chat id of 20 digits",
        "text",
        set_at("message", "chat", "id", value=12345678901234567890),
        "message.chat.id is outside the 64-bit integer range",
    ),
    (
        "longitude is a string",
        "location",
        set_at("message", "location", "longitude", value="x"),
        "message.location.longitude is not a number",
    ),
    (
        "lone surrogate in a name",
        "text",
        set_at("message", "from", "first_name", value="Ada\ud83d"),
        "message.from.first_name has a lone surrogate",
    ),
    (
        "lone surrogate in tap data",
        "tap",
        set_at("callback_query", "data", value="q1:\ud83d"),
        "callback_query.data has a lone surrogate",
    ),
    (
        "chat id is a float",
        "text",
        set_at("message", "chat", "id", value=1001.0),
        "message.chat.id is not an integer",
    ),
    (
        "user id is a bool",
        "text",
        set_at("message", "from", "id", value=True),
        "message.from.id is not an integer",
    ),
    (
        "user id beyond 64 bits",
        "text",
        set_at("message", "from", "id", value=2**64 + 1001),
        "message.from.id is outside the 64-bit integer range",
    ),
    (
        "tap data is a number",
        "tap",
        set_at("callback_query", "data", value=42),
        "callback_query.data is not a string",
    ),
    (
        "tap data over 64 bytes",
        "tap",
        set_at("callback_query", "data", value="q1:" + "x" * 62),
        "callback_query.data is over 64 bytes",
    ),
    (
        "photo is not a list",
        "photo",
        set_at("message", "photo", value={"file_id": "a", "file_unique_id": "b"}),
        "message.photo is not a list",
    ),
    (
        "command offset is a string",
        "command",
        set_at("message", "entities", 0, "offset", value="0"),
        "message.entities[0].offset is not an integer",
    ),
    (
        "lone surrogate in a command",
        "command",
        set_at("message", "text", value="/help\ud83d"),
        "message.text has a lone surrogate beside entities",
    ),
    (
        "latitude too large for a float",
        "location",
        set_at("message", "location", "latitude", value=10**400),
        "message.location.latitude is outside the 64-bit integer range",
    ),
    (
        "contact's user id is a float",
        "contact",
        set_at("message", "contact", "user_id", value=1001.5),
        "message.contact.user_id is not an integer",
    ),
    (
        "a part the bot never reads is broken",
        "text",
        set_at("message", "reply_to_message", value=5),
        "PTB cannot read it (",
    ),
]
# Pushed, this one passes the door's checks (PTB parses it only when it is handled):
# ``test_an_update_only_ptb_refuses_is_dropped_when_handled``. Polled, PTB reads it at the door.
ONLY_PTB_REFUSES = HOSTILE[-1]
AT_THE_DOOR = [
    pytest.param(mode, *case, id=f"{case[0]}-{mode}")
    for case in HOSTILE
    for mode in MODES
    if not (mode == "webhook" and case is ONLY_PTB_REFUSES)
]


def genuine(stack: BotStack, kind: str, prompt: SentMessage) -> Body:
    """A real update of ``kind`` from ADA, as the fake Telegram makes it."""
    updates = stack.tg.updates
    bodies = {
        "text": lambda: updates.text(ADA, "hello"),
        "location": lambda: updates.location(ADA, 6.5, 3.3),
        "tap": lambda: updates.tap(prompt, "✓ Pickup & delivery"),
        "photo": lambda: updates.photo(ADA, b"\x89PNG"),
        "command": lambda: updates.command(ADA, "help"),
        "contact": lambda: updates.contact(ADA, "+2348031234567"),
    }
    return copy.deepcopy(bodies[kind]())


async def at_first_question(make_stack: MakeStack, mode: Mode) -> tuple[BotStack, SentMessage]:
    stack = await make_stack(mode=mode)
    (prompt,) = await stack.command(ADA, "new")
    return stack, prompt


def warnings_and_worse(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def push(stack: BotStack, body: Body) -> None:
    """``body`` through the door of the stack's mode, and back once the door has judged it."""
    if stack.config.telegram.mode == "webhook":
        response = await post_update(
            f"{PUBLIC_BASE_URL}/telegram", body, secret_token=SECRET_TOKEN, app=stack.bot.web_app
        )
        # Acknowledged: Telegram must not send it again and again.
        assert (response.status_code, response.text) == (200, "OK")
    else:
        stack.tg.push_update(body)
        # Confirmed by the bot's next getUpdates: the offset moved past it.
        await stack.tg.wait_for_updates_taken()


@pytest.mark.parametrize(("mode", "case", "kind", "spoil", "reason"), AT_THE_DOOR)
async def test_a_hostile_update_is_dropped_at_the_door_with_one_warning(
    make_stack: MakeStack,
    caplog: pytest.LogCaptureFixture,
    mode: Mode,
    case: str,
    kind: str,
    spoil: Spoil,
    reason: str,
) -> None:
    stack, prompt = await at_first_question(make_stack, mode)
    before = await stack.bot.ctx.chats.session(ADA.chat)
    sent = len(stack.tg.sent_messages(ADA.id))
    body = genuine(stack, kind, prompt)
    spoil(body)
    update_id = body["update_id"]
    caplog.clear()

    await push(stack, body)

    (warning,) = warnings_and_worse(caplog)
    assert warning.levelno == logging.WARNING and warning.exc_info is None
    assert warning.getMessage().startswith(f"update dropped: update {update_id}: {reason}")
    assert stack.processor is not None and stack.processor.done[update_id] == 0  # no turn ran
    assert not await stack.bot.store.updates.seen(update_id)  # nothing stored
    assert len(stack.tg.sent_messages(ADA.id)) == sent
    assert await stack.bot.ctx.chats.session(ADA.chat) == before
    (reply,) = await stack.tap(prompt, "✓ Pickup & delivery")  # the chat goes on
    assert (reply.text or "").startswith("Where should the rider pick the package up?")
    assert warnings_and_worse(caplog) == [warning]


def only_ptb_refuses(stack: BotStack, prompt: SentMessage) -> tuple[int, Body]:
    """An update from ADA that passes the door's checks but not PTB's parse, and its id."""
    _, kind, spoil, _ = ONLY_PTB_REFUSES
    body = genuine(stack, kind, prompt)
    spoil(body)
    return body["update_id"], body


def dropped_when_handled(caplog: pytest.LogCaptureFixture, update_id: int) -> logging.LogRecord:
    """The one warning of an update PTB could not parse when it was handled."""
    (warning,) = warnings_and_worse(caplog)
    assert warning.levelno == logging.WARNING and warning.exc_info is None
    assert warning.getMessage().startswith(f"update dropped: update {update_id}: PTB cannot read")
    return warning


async def test_an_update_only_ptb_refuses_is_dropped_when_handled(
    make_stack: MakeStack, caplog: pytest.LogCaptureFixture
) -> None:
    """Pushed: its id and chat are read at the door and it is acknowledged; PTB's parse, when
    it is handled, fails: one warning, no turn, recorded as handled, and the chat goes on."""
    stack, prompt = await at_first_question(make_stack, "webhook")
    before = await stack.bot.ctx.chats.session(ADA.chat)
    sent = len(stack.tg.sent_messages(ADA.id))
    update_id, body = only_ptb_refuses(stack, prompt)
    caplog.clear()

    await push(stack, body)
    assert stack.processor is not None
    await stack.processor.processed(update_id)

    warning = dropped_when_handled(caplog, update_id)
    assert await stack.bot.store.updates.seen(update_id)  # recorded as handled before
    assert len(stack.tg.sent_messages(ADA.id)) == sent
    assert await stack.bot.ctx.chats.session(ADA.chat) == before
    (reply,) = await stack.tap(prompt, "✓ Pickup & delivery")
    assert (reply.text or "").startswith("Where should the rider pick the package up?")
    assert warnings_and_worse(caplog) == [warning]


async def test_a_stored_update_only_ptb_refuses_is_handed_round_once_and_never_again(
    make_stack: MakeStack, caplog: pytest.LogCaptureFixture
) -> None:
    """Stored by an instance that died before handling it: the sweep hands it to this one,
    whose parse drops it and records it handled, so the next sweep prunes it."""
    stack, prompt = await at_first_question(make_stack, "webhook")
    update_id, body = only_ptb_refuses(stack, prompt)
    store, application = stack.bot.store, stack.bot.application
    assert await store.telegram_inbox.add(update_id, ADA.chat, json.dumps(body))
    later = time.time() + 3600.0  # long orphaned
    sweep = UpdateInboxSweep(store.telegram_inbox, application, shared=True, clock=lambda: later)
    assert stack.processor is not None
    caplog.clear()

    await sweep.run_once()
    await stack.processor.processed(update_id)
    await sweep.run_once()
    await application.update_queue.join()

    dropped_when_handled(caplog, update_id)
    assert stack.processor.done[update_id] == 1
    assert await store.telegram_inbox.count() == 0


async def test_a_stored_update_only_ptb_refuses_does_not_hold_up_its_chat(
    make_stack: MakeStack, caplog: pytest.LogCaptureFixture
) -> None:
    """Stored before the chat's next update (which reached another instance first): that
    update's turn drops it on its way, and goes on."""
    stack, prompt = await at_first_question(make_stack, "webhook")
    update_id, body = only_ptb_refuses(stack, prompt)
    assert await stack.bot.store.telegram_inbox.add(update_id, ADA.chat, json.dumps(body))
    caplog.clear()

    (reply,) = await stack.tap(prompt, "✓ Pickup & delivery")

    assert (reply.text or "").startswith("Where should the rider pick the package up?")
    dropped_when_handled(caplog, update_id)
    assert await stack.bot.store.updates.seen(update_id)


@pytest.mark.parametrize(
    ("body", "status", "line"),
    [
        (
            {"update_id": 2**64, "message": {}},
            200,
            "update dropped: update_id is outside the 64-bit integer range",
        ),
        ({"update_id": 7.5}, 200, "update dropped: update_id is not an integer"),
        ({"message": {}}, 200, "update dropped: update_id is missing"),
        (
            [1, 2],
            400,
            "telegram webhook refused: not an update (the body must be a JSON object, not a "
            "JSON array)",
        ),
        (
            "update",
            400,
            "telegram webhook refused: not an update (the body must be a JSON object, not a "
            "JSON string)",
        ),
    ],
    ids=["id beyond 64 bits", "id is a float", "no id", "an array", "a string"],
)
async def test_an_update_without_a_readable_id_is_answered_without_detail(
    make_stack: MakeStack, caplog: pytest.LogCaptureFixture, body: object, status: int, line: str
) -> None:
    """Webhook mode only: the fake Telegram, like Telegram, cannot even queue these."""
    stack = await make_stack(mode="webhook")
    caplog.clear()

    response = await post_update(
        f"{PUBLIC_BASE_URL}/telegram", body, secret_token=SECRET_TOKEN, app=stack.bot.web_app
    )

    assert response.status_code == status
    (warning,) = warnings_and_worse(caplog)
    assert (warning.levelno, warning.getMessage(), warning.exc_info) == (
        logging.WARNING,
        line,
        None,
    )
    assert stack.tg.sent_messages(ADA.id) == []


@pytest.mark.parametrize("mode", MODES)
async def test_genuine_updates_pass_the_door_untouched(
    make_stack: MakeStack, caplog: pytest.LogCaptureFixture, mode: Mode
) -> None:
    stack, prompt = await at_first_question(make_stack, mode)

    await stack.tap(prompt, "✓ Pickup & delivery")
    at_pin = await stack.location(ADA, 6.5095, 3.3711)
    # Half an emoji in typed text is the step's to clean, and the customer is answered.
    typed = await stack.text(ADA, "12 Herbert \ud83dMacaulay Way")
    helped = await stack.command(ADA, "help")

    assert (at_pin[-1].text or "").startswith("What is the address at this pin?")
    assert "Where should the rider deliver it?" in (typed[-1].text or "")
    assert helped and helped[-1].text
    assert warnings_and_worse(caplog) == []


# --- past the door: the error handler -------------------------------------------------------


def update_from(text: object) -> Update:
    """A message update from ADA carrying ``text`` (PTB takes any type as it comes)."""
    body = {
        "update_id": 41,
        "message": {
            "message_id": 1,
            "date": 1_700_000_000,
            "chat": {"id": 1001, "type": "private", "first_name": "Ada"},
            "from": {"id": 1001, "is_bot": False, "first_name": "Ada"},
            "text": text,
        },
    }
    update = Update.de_json(body, None)
    assert update is not None
    return update


async def handle_error(update: Update, error: Exception) -> list[str]:
    """Run the error handler for ``error`` raised on ``update``; what it said to the chat."""
    said: list[str] = []

    async def send(chat_id: int, text: str) -> None:
        said.append(text)

    texts = BusinessTexts(SHIPPED_TEXTS)
    ctx = cast(
        BotContext,
        SimpleNamespace(sender=SimpleNamespace(send=send), catalogue_for=texts.catalogue_for),
    )
    context = cast(ContextTypes.DEFAULT_TYPE, SimpleNamespace(error=error))
    await error_handler(ctx)(update, context)
    return said


async def test_a_data_error_from_the_updates_own_data_is_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An update that came in past the door (put on the queue directly) and broke a handler
    with its own data: one warning, no traceback, nothing said to a chat that may be bogus."""
    update = update_from(12345)

    said = await handle_error(update, ValueError("text: Input should be a valid string"))

    (warning,) = warnings_and_worse(caplog)
    assert (warning.levelno, warning.exc_info) == (logging.WARNING, None)
    assert warning.getMessage() == (
        "update dropped: update 41: message.text is not a string (ValueError)"
    )
    assert said == []


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("a bug")], ids=repr)
async def test_a_failure_on_a_sound_update_keeps_its_error_and_traceback(
    caplog: pytest.LogCaptureFixture, error: Exception
) -> None:
    update = update_from("hello")
    assert update_flaw(update.to_dict()) is None

    said = await handle_error(update, error)

    (logged,) = warnings_and_worse(caplog)
    assert (logged.levelno, logged.getMessage()) == (logging.ERROR, "update 41 failed")
    assert logged.exc_info is not None and logged.exc_info[1] is error
    assert len(said) == 1  # the chat hears a short apology
