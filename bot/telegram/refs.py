"""Telegram's chats and users as the core names them: refs of the ``telegram`` channel.

The Telegram adapter keeps Telegram's own ids for what it draws and sends; what it hands the
core (the chat service, the customer desk, the chat locks) it names here.
"""

from __future__ import annotations

from bot.chat_ref import TELEGRAM, ChatRef, UserRef


def telegram_chat(chat_id: int) -> ChatRef:
    """The chat Telegram numbers ``chat_id``."""
    return ChatRef(TELEGRAM, chat_id)


def telegram_user(user_id: int) -> UserRef:
    """The customer Telegram numbers ``user_id``."""
    return UserRef(TELEGRAM, user_id)
