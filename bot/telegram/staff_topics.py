"""Forum topics in the operators' chat: one per hand-off, where the chat is a forum group.

Whether the chat is a forum (Telegram's ``is_forum``) is asked once (``getChat``) and kept
for the process: turning topics on or off in a group takes a restart to be seen. A topic that
cannot be created (the bot may not manage topics, say) is no failure: the hand-off is then
posted as one message with its reference, as in a group without topics. Topic calls are a few
per hand-off, so they go straight to the Bot API, outside the send pacing of messages.
"""

from __future__ import annotations

import logging
from typing import Final

from telegram import Bot
from telegram.error import BadRequest, Forbidden, TelegramError

log = logging.getLogger(__name__)

MAX_TOPIC_NAME: Final = 128  # Telegram's limit on a topic's name, in characters
_NOT_MODIFIED: Final = "topic_not_modified"  # closing a topic closed already


def topic_name(ref: str, customer: str) -> str:
    """The hand-off's topic name: its reference and the customer's display name."""
    return f"#{ref} {customer}".strip()[:MAX_TOPIC_NAME]


class StaffTopics:
    """Topics of the operators' chats through ``bot``."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._forums: dict[int, bool] = {}

    async def is_forum(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is a forum group (asked once; a failed question is asked
        again next time, and meanwhile the answer is no)."""
        known = self._forums.get(chat_id)
        if known is not None:
            return known
        try:
            chat = await self._bot.get_chat(chat_id)
        except TelegramError as error:
            log.warning("could not tell whether chat %s has topics: %s", chat_id, _said(error))
            return False
        self._forums[chat_id] = bool(chat.is_forum)
        return self._forums[chat_id]

    async def open(self, chat_id: int, name: str) -> int | None:
        """A new topic named ``name``: its thread id, or None when it could not be made."""
        try:
            topic = await self._bot.create_forum_topic(chat_id, name)
        except TelegramError as error:
            log.warning("no topic for a hand-off in chat %s: %s", chat_id, _said(error))
            return None
        return topic.message_thread_id

    async def close(self, chat_id: int, thread_id: int) -> None:
        """Close the topic (closed already: nothing to do)."""
        try:
            await self._bot.close_forum_topic(chat_id, thread_id)
        except TelegramError as error:
            if _NOT_MODIFIED not in _said(error).lower():
                log.warning("topic %s of chat %s not closed: %s", thread_id, chat_id, _said(error))


def _said(error: TelegramError) -> str:
    """Telegram's own description; a network error's text (from the HTTP stack, which may
    name the request's URL and so the token) reduced to its type."""
    return error.message if isinstance(error, BadRequest | Forbidden) else type(error).__name__
