"""The bare integer chat and user ids the services above the store still pass, as refs.

The store names every chat and customer by its channel (``bot.chat_ref``); the services above
it (``ChatService``, the customer desk, the relay, the adapters) still carry one integer per
chat, with agent conversations and customers numbered at or below ``AGENT_ID_BASE``. This
module is the one place that reads such an integer as a ref and back, while they move to
``ChatRef`` (issue #22, point 1); it goes once nothing passes a bare id.

Every other id is read as Telegram's: the console (the demo) keeps its chats in a fresh
temporary store, so nothing it writes outlives the process under that name.
"""

from __future__ import annotations

from bot.chat_ref import AGENTS, TELEGRAM, ChatRef, UserRef

AGENT_ID_BASE = -(2**50)
"""Agent conversations and customers are ``AGENT_ID_BASE - seq``: far below any Telegram id."""


def is_agent_id(chat_or_user_id: int) -> bool:
    """Whether a bare chat or user id is an agent conversation's or customer's."""
    return chat_or_user_id <= AGENT_ID_BASE


def chat_ref(chat_id: int) -> ChatRef:
    """The chat a bare ``chat_id`` names."""
    if is_agent_id(chat_id):
        return ChatRef(AGENTS, AGENT_ID_BASE - chat_id)
    return ChatRef(TELEGRAM, chat_id)


def user_ref(user_id: int) -> UserRef:
    """The customer a bare ``user_id`` names."""
    if is_agent_id(user_id):
        return UserRef(AGENTS, AGENT_ID_BASE - user_id)
    return UserRef(TELEGRAM, user_id)


def bare_id(ref: ChatRef | UserRef) -> int:
    """The bare id the services know ``ref`` by."""
    return AGENT_ID_BASE - ref.id if ref.channel == AGENTS else ref.id
