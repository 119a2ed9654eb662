"""The fake's forum topics, driven by python-telegram-bot's real Bot: created, written in,
closed, with Telegram's checks and the wire format clients read."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import telegram
from telegram.error import BadRequest

from . import FakeTelegram, TgChat, TgUser
from .test_telegram_api import ptb_bot

FORUM = TgChat.group(-1001500, "Dispatch", forum=True)
GROUP = TgChat.group(-1001501, "Plain group", supergroup=True)
OLU = TgUser(1900, "Olu")


@asynccontextmanager
async def forum_and_bot() -> AsyncIterator[tuple[FakeTelegram, telegram.Bot]]:
    async with FakeTelegram.running() as tg, ptb_bot(tg) as bot:
        tg.add_chat(FORUM)
        tg.add_chat(GROUP)
        yield tg, bot


async def test_a_topic_is_created_written_in_and_closed() -> None:
    async with forum_and_bot() as (tg, bot):
        await _create_write_and_close(tg, bot)


async def _create_write_and_close(tg: FakeTelegram, bot: telegram.Bot) -> None:
    assert (await bot.get_chat(FORUM.id)).is_forum

    topic = await bot.create_forum_topic(FORUM.id, "#K7M2QX Ada Obi")
    assert topic.name == "#K7M2QX Ada Obi" and topic.icon_color == 7322096
    thread = topic.message_thread_id
    first = tg.message(FORUM.id, thread)
    assert first is not None and first["forum_topic_created"]["name"] == "#K7M2QX Ada Obi"

    sent = await bot.send_message(FORUM.id, "card", message_thread_id=thread)
    assert sent.message_thread_id == thread and sent.is_topic_message
    # Not a reply to anything else: Telegram shows it as a reply to the topic's first message.
    assert sent.reply_to_message is not None and sent.reply_to_message.message_id == thread

    staff = tg.updates.in_topic(tg.updates.text(OLU, "On it", chat=FORUM), thread)
    written = telegram.Update.de_json(staff, bot)
    assert written.message is not None and written.message.message_thread_id == thread
    assert written.message.is_topic_message
    assert written.message.reply_to_message is not None
    assert written.message.reply_to_message.forum_topic_created is not None

    assert await bot.close_forum_topic(FORUM.id, thread)
    assert tg.topic_closed(FORUM.id, thread) is True
    with pytest.raises(BadRequest, match="Topic_not_modified"):
        await bot.close_forum_topic(FORUM.id, thread)


async def test_topics_need_a_forum_and_a_real_thread() -> None:
    async with forum_and_bot() as (_, bot):
        await _refusals(bot)


async def _refusals(bot: telegram.Bot) -> None:
    assert not (await bot.get_chat(GROUP.id)).is_forum
    with pytest.raises(BadRequest, match="The chat is not a forum"):
        await bot.create_forum_topic(GROUP.id, "#K7M2QX Ada")
    with pytest.raises(BadRequest, match="Topic_name_empty"):
        await bot.create_forum_topic(FORUM.id, " ")
    with pytest.raises(BadRequest, match="Topic_name_invalid"):
        await bot.create_forum_topic(FORUM.id, "x" * 129)
    with pytest.raises(BadRequest, match="Message thread not found"):
        await bot.send_message(FORUM.id, "lost", message_thread_id=999)
    with pytest.raises(BadRequest, match="Topic_id_invalid"):
        await bot.close_forum_topic(FORUM.id, 999)
