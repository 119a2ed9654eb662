"""One customer's chat served by two instances on one PostgreSQL database, its updates landing
on either (the reverse proxy spreads Telegram's webhook): each instance draws its turns over
what the chat shows now, not over what it drew itself before the chat's last turns ran on the
other.

Two in-process ``Runtime``s in webhook mode (``instances_in_process``: updates handed to the
chosen instance's Application, as its ``/telegram`` route does), one FakeTelegram, one sandbox,
real PostgreSQL.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from telegram import Update

from bot.store.pg_local_server import LocalPostgres
from bot.telegram.limits import RateLimiter
from conversations.services import ServiceUnavailable
from conversations.texts import dialogue
from tests.fakes import FakeTelegram, SentMessage
from tests.fakes.telegram_keyboards import buttons
from tests.support.words import SHIPPED

from .conftest import (
    ADA,
    ADA_PHONE,
    RECEIVER_PHONE,
    instant_time,
    sandbox_and_telegram,
)
from .instances_in_process import Instance, start_instance, webhook_config


class Pair:
    """Two instances of the bot and the Telegram they share."""

    def __init__(self, tg: FakeTelegram, instances: list[Instance]) -> None:
        self.tg = tg
        self.a, self.b = instances

    async def send(self, instance: Instance, update: dict[str, Any]) -> list[SentMessage]:
        """``update`` handled by ``instance``; the bot's messages to Ada it caused."""
        before = len(self.tg.sent_messages(ADA.id))
        application = instance.runtime.application
        await application.update_queue.put(Update.de_json(update, application.bot))
        await instance.processor.processed(update["update_id"], timeout=20)
        await instance.runtime.conversation.settle()
        return self.tg.sent_messages(ADA.id)[before:]

    def prompt(self) -> SentMessage:
        """The last message to Ada with buttons to tap (as ``BotStack.prompt``)."""
        for message in reversed(self.tg.sent_messages(ADA.id)):
            markup = message.reply_markup or {}
            if "inline_keyboard" in markup or any(
                not any(key.startswith("request_") for key in button) for button in buttons(markup)
            ):
                return message
        raise LookupError("no message with buttons was sent")


@pytest.fixture
async def pair(postgres_server: LocalPostgres, tmp_path: Path) -> AsyncIterator[Pair]:
    dsn = await postgres_server.create_database("chat_across_instances")
    async with contextlib.AsyncExitStack() as exits:
        switch, sandbox, tg = await sandbox_and_telegram(exits)
        tg.add_chat(ADA)
        config = webhook_config(tg, sandbox, dsn, tmp_path)
        instances: list[Instance] = []
        for _ in range(2):
            time = instant_time()
            limiter = RateLimiter(clock=time.clock, sleep=time.sleep)
            instances.append(await start_instance(exits, config, sandbox, limiter))
        switch.app = instances[0].runtime.web_app
        yield Pair(tg, instances)


async def test_a_tap_on_the_prompt_another_instance_drew_is_taken(pair: Pair) -> None:
    a, b, tg = pair.a, pair.b, pair.tg
    first = (await pair.send(a, tg.updates.command(ADA, "new")))[-1]
    await pair.send(b, tg.updates.tap(first, "✓ Pickup & delivery"))
    await pair.send(b, tg.updates.location(ADA, 6.5095, 3.3711))
    await pair.send(b, tg.updates.text(ADA, "12 Herbert Macaulay Way, Yaba"))
    await pair.send(b, tg.updates.tap(pair.prompt(), "UNILAG Main Gate"))
    await pair.send(b, tg.updates.contact(ADA, ADA_PHONE))
    await pair.send(b, tg.updates.text(ADA, "Bola Ahmed"))
    await pair.send(b, tg.updates.text(ADA, RECEIVER_PHONE))
    await pair.send(b, tg.updates.text(ADA, "A pair of shoes in a box"))
    tidied_by_b = tg.message(ADA.id, first.message_id)["text"]

    replies = await pair.send(a, tg.updates.tap(pair.prompt(), "Small"))  # drawn by b

    assert not any("earlier question" in reply.text for reply in replies)
    session = await a.runtime.ctx.chats.session(ADA.chat)
    assert session is not None and "package_size" in session.answers
    # a did not tidy its own old prompt again (b wrote the tapped choice under it).
    assert tg.message(ADA.id, first.message_id)["text"] == tidied_by_b


async def test_a_command_draws_over_the_order_the_chat_has_now(pair: Pair) -> None:
    a, b, tg = pair.a, pair.b, pair.tg
    first = (await pair.send(a, tg.updates.command(ADA, "new")))[-1]
    await pair.send(b, tg.updates.tap(first, "✓ Pickup & delivery"))
    asked = (await pair.send(b, tg.updates.command(ADA, "cancel")))[-1]
    await pair.send(b, tg.updates.tap(asked, "Yes, cancel it"))
    second = (await pair.send(b, tg.updates.command(ADA, "new")))[-1]  # a new order, on b
    await pair.send(b, tg.updates.tap(second, "✓ Pickup & delivery"))
    tidied_by_b = tg.message(ADA.id, first.message_id)["text"]

    asked = (await pair.send(a, tg.updates.command(ADA, "cancel")))[-1]
    done = await pair.send(b, tg.updates.tap(asked, "Yes, cancel it"))

    # a's buttons carried the open order's tag, not the first order's: the tap was taken.
    assert [reply.text for reply in done] == ["Cancelled. Nothing was ordered."]
    assert await b.runtime.ctx.chats.session(ADA.chat) is None
    assert tg.message(ADA.id, first.message_id)["text"] == tidied_by_b


async def test_the_reply_keyboard_another_instance_put_up_is_taken_away(pair: Pair) -> None:
    a, b, tg = pair.a, pair.b, pair.tg
    first = (await pair.send(a, tg.updates.command(ADA, "new")))[-1]
    drawn = await pair.send(b, tg.updates.tap(first, "✓ Pickup & delivery"))
    assert "keyboard" in (drawn[-1].reply_markup or {})  # the pickup question, shared on b

    replies = await pair.send(a, tg.updates.location(ADA, 6.5095, 3.3711))

    assert (replies[0].reply_markup or {}).get("remove_keyboard") is True
    assert "inline_keyboard" in (replies[-1].reply_markup or {})  # the next question


async def test_an_outage_met_while_catching_up_is_said_once(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, tg = pair.a, pair.b, pair.tg
    first = (await pair.send(a, tg.updates.command(ADA, "new")))[-1]
    await pair.send(b, tg.updates.tap(first, "✓ Pickup & delivery"))
    await pair.send(b, tg.updates.location(ADA, 6.5095, 3.3711))

    async def down() -> None:
        raise ServiceUnavailable("the catalogue cannot be read")

    monkeypatch.setattr(a.runtime.ctx.chats.engine.services.catalog, "catalogue", down)
    replies = await pair.send(a, tg.updates.text(ADA, "12 Herbert Macaulay Way, Yaba"))

    assert [reply.text for reply in replies] == [dialogue.SERVICE_DOWN.render(SHIPPED)]
