"""Telegram's chats and users as the core names them: refs of the ``telegram`` channel.

The Telegram adapter keeps Telegram's own ids for what it draws and sends; what it hands the
core (the chat service, the customer desk, the chat locks) it names here.
"""

from __future__ import annotations

from telegram import Update

from bot.chat_ref import TELEGRAM, ChatRef, UserRef


def telegram_chat(chat_id: int) -> ChatRef:
    """The chat Telegram numbers ``chat_id``."""
    return ChatRef(TELEGRAM, chat_id)


def telegram_user(user_id: int) -> UserRef:
    """The customer Telegram numbers ``user_id``."""
    return UserRef(TELEGRAM, user_id)


def update_ids(update: Update) -> tuple[int, int]:
    """The chat and the user of a customer's update (the handlers only get such updates)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        raise ValueError("the conversation's handlers only get updates from a user in a chat")
    return chat.id, user.id
