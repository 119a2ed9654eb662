"""One user per private chat: forged updates in Ada's chat from Chidi, at every question of an
order, on both store backends.

At each prompt Chidi "taps" every button of Ada's prompt and "sends", in Ada's chat, each kind
of message the bot reads (text, a reply button's label, a contact, a location, a photo, a map
pick, every command). Telegram never sends such an update in a private chat; only someone
holding the webhook secret or the bot token can. Each is refused at the gatekeeper with one
warning: no turn runs, no tap is answered, nothing is sent, Ada's order stays where it was, and
no row anywhere names Chidi. Ada then answers for real and her order is created, linked to her.

The stack is the production runtime with PTB's real Application polling the fake Bot API
(``tests/e2e/conftest.py``), over SQLite or over PostgreSQL.
"""

from __future__ import annotations

import copy
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from telegram import Update

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from tests.e2e.conftest import (
    ADA,
    ADA_PHONE,
    CHIDI,
    OPERATORS,
    RECEIVER_PHONE,
    BotStack,
    tiny_png,
)
from tests.fakes import SentMessage, TgUser
from tests.fakes.telegram_keyboards import buttons
from tests.telegram_adapter.stack_backends import limits, stack

Body = dict[str, Any]
__all__ = ["limits", "stack"]

# Every verb of the chat service: a forged update must reach none of them.
TURN_VERBS = ("start", "new_order", "repeat", "resume", "handle", "cancel")
COMMANDS = ("start", "new", "repeat", "cancel", "help", "status", "deliveries", "back", "skip")
ADA_S = ChatRef(TELEGRAM, ADA.id)  # Ada's private chat, and Chidi as a sender in it
CHIDI_IN_ADAS = ADA_S.user(CHIDI.id)
MAP_PICK = '{"v":1,"step":"pickup_place","lat":6.5095,"lng":3.3711}'


class TurnCounter:
    """Counts the chat service's verbs called while it is installed on the running bot."""

    def __init__(self, stack: BotStack) -> None:
        self.calls: Counter[str] = Counter()
        chats = stack.bot.ctx.chats
        for verb in TURN_VERBS:
            setattr(chats, verb, self._counted(verb, getattr(chats, verb)))

    def _counted(
        self, verb: str, method: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[verb] += 1
            return await method(*args, **kwargs)

        return counted


def as_chidi(body: Body) -> Body:
    """``body`` (Ada's message in her chat) as if Chidi had sent it there."""
    forged = copy.deepcopy(body)
    forged["message"]["from"] = CHIDI.to_json()
    return forged


def forged_updates(stack: BotStack, prompt: SentMessage | None) -> list[Body]:
    """Chidi's taps on every button of Ada's ``prompt`` and his messages of every kind,
    all in Ada's private chat."""
    updates = stack.tg.updates
    forged: list[Body] = []
    if prompt is not None:
        # An inline keyboard as it stands now; a reply keyboard as it was sent.
        current = stack.tg.message(ADA.id, prompt.message_id) or prompt.message
        for button in buttons(current.get("reply_markup") or prompt.reply_markup):
            if "callback_data" in button:
                forged.append(updates.callback_query(CHIDI, prompt, button["callback_data"]))
            elif not any(key.startswith("request_") or key == "web_app" for key in button):
                forged.append(as_chidi(updates.text(ADA, button["text"])))
    forged += [
        as_chidi(updates.text(ADA, "12 Herbert Macaulay Way, Yaba")),
        as_chidi(updates.text(ADA, RECEIVER_PHONE)),
        as_chidi(updates.contact(CHIDI, "+2348035550000", chat=ADA.private_chat)),
        as_chidi(updates.location(ADA, 6.5095, 3.3711)),
        as_chidi(updates.photo(ADA, tiny_png())),
        as_chidi(updates.web_app_data(ADA, MAP_PICK)),
        *(as_chidi(updates.command(ADA, name)) for name in COMMANDS),
    ]
    return forged


async def push_forged(
    stack: BotStack, prompt: SentMessage | None, caplog: pytest.LogCaptureFixture
) -> list[Body]:
    """Push Chidi's forged updates at ``prompt``; assert each was refused with one warning and
    had no effect at all. Returns them."""
    tg, processor = stack.tg, stack.processor
    assert processor is not None
    forged = forged_updates(stack, prompt)
    session = await stack.bot.ctx.chats.session(ADA.chat)
    calls = len(tg.calls())
    counter = TurnCounter(stack)
    caplog.clear()

    for body in forged:
        tg.push_update(body)
    for body in forged:
        await processor.processed(body["update_id"])
    await stack.bot.conversation.settle()

    assert counter.calls == Counter()  # no turn ran
    assert [(c.method, c.params) for c in tg.calls()[calls:] if c.method != "getUpdates"] == []
    assert await stack.bot.ctx.chats.session(ADA.chat) == session
    refused = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert refused == [
        f"update refused: update {body['update_id']}: user {CHIDI_IN_ADAS.for_log} in user "
        f"{ADA_S.for_log}'s chat"
        for body in forged
    ]
    return forged


async def rows_naming(stack: BotStack, user: TgUser) -> list[tuple[str, tuple[Any, ...]]]:
    """Every row of every table with a cell that is ``user``'s id (as a number or text)."""
    db = stack.bot.store._db  # the whole store, table by table: nothing may hold his id
    if stack.config.storage.backend == "postgres":
        listing = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    else:
        listing = "SELECT name FROM sqlite_master WHERE type = 'table'"
    names = {user.id, str(user.id), f"telegram:{user.id}"}
    found = []
    for (table,) in await db.fetch_all(listing):
        # The table's name comes from the database's own catalogue.
        for row in await db.fetch_all(f"SELECT * FROM {table}"):  # noqa: S608
            if any(isinstance(cell, int | str) and cell in names for cell in row):
                found.append((str(table), row))
    return found


async def test_forged_updates_in_a_private_chat_are_refused_at_every_question(
    stack: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    ada = ADA.id
    forged = await push_forged(stack, None, caplog)  # before any order

    async def step(answer: Awaitable[list[SentMessage]]) -> None:
        await answer
        await push_forged(stack, stack.prompt(ada), caplog)

    await step(stack.command(ADA, "new"))
    await step(stack.tap(stack.prompt(ada), "✓ Pickup & delivery"))
    await step(stack.location(ADA, 6.5095, 3.3711))
    await step(stack.text(ADA, "12 Herbert Macaulay Way, Yaba"))
    await step(stack.tap(stack.prompt(ada), "UNILAG Main Gate"))
    await step(stack.contact(ADA, ADA_PHONE))
    await step(stack.text(ADA, "Bola Ahmed"))
    await step(stack.text(ADA, RECEIVER_PHONE))
    await step(stack.text(ADA, "A pair of shoes in a box"))
    await step(stack.tap(stack.prompt(ada), "Small"))
    await step(stack.photo(ADA))  # at the summary now: cash in person is pre-set
    summary = stack.prompt(ada)
    await stack.tap(summary, "Confirm and send")
    await push_forged(stack, summary, caplog)  # the old summary's buttons, after the create

    (link,) = await stack.bot.store.deliveries.for_user(UserRef("telegram", ADA.id), 5)
    assert (link.chat.id, link.user_id) == (ADA.id, ADA.id)
    assert stack.partner is not None and len(stack.partner.creates) == 1
    assert await rows_naming(stack, CHIDI) == []
    assert stack.tg.sent_messages(CHIDI.id) == []

    # A forged update delivered again is a repeat: dropped quietly, not warned about twice.
    application, repeated = stack.bot.application, forged[0]
    caplog.clear()
    await application.update_queue.put(Update.de_json(repeated, application.bot))
    assert stack.processor is not None
    await stack.processor.processed(repeated["update_id"], times=2)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_tap_on_an_orders_button_in_a_group_runs_no_turn(
    stack: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    (prompt,) = await stack.command(ADA, "new")
    tap = stack.tg.updates.tap(prompt, "✓ Pickup & delivery")
    tap["callback_query"]["message"]["chat"] = OPERATORS.to_json()
    tap["callback_query"]["from"] = CHIDI.to_json()
    counter = TurnCounter(stack)

    await stack.send(tap)

    assert counter.calls == Counter()
    assert stack.tg.callback_answer(tap["callback_query"]["id"]) is None
    assert stack.tg.sent_messages(OPERATORS.id) == []
    assert await rows_naming(stack, CHIDI) == []
