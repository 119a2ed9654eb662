"""``ChatRef`` and ``UserRef``: a chat, and a customer, named by their channel.

A chat is its channel's name and the channel's own id for it: Telegram's chat id, the console's
chat number, an agent conversation's sequence number. Ids of different channels may be equal;
the pair never is. A customer is named in the channel of their chat (``ChatRef.user``), so one
person's Telegram account and an agent's customer are different customers even when their ids
coincide. Every row, lock, message plan and session keyed by a chat or a customer carries both
parts, and whatever reaches a chat (the relay, a later turn) asks the channel registered under
``channel`` (``bot.channels``).

The value is a leaf of the code base: it imports nothing of the bot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

TELEGRAM: Final = "telegram"
"""Telegram's chats and users, by Telegram's ids."""
CONSOLE: Final = "console"
"""The terminal console's chats (the embedded demo)."""
AGENTS: Final = "agents"
"""Agent channels' conversations (by their sequence number) and customers (by theirs)."""
WHATSAPP: Final = "whatsapp"
"""WhatsApp's chats and customers, by the customer's WhatsApp number (``wa_id``, digits)."""
LOG: Final = "log"
"""The log of a bot without a messenger: its one chat (``OPERATOR_LOG``) is the operators'."""


@dataclass(frozen=True, order=True)
class ChatRef:
    """One chat: ``channel`` (a registered channel's name) and ``id``, that channel's id for it."""

    channel: str
    id: int

    def user(self, user_id: int) -> UserRef:
        """The customer ``user_id`` of this chat's channel."""
        return UserRef(self.channel, user_id)

    def __str__(self) -> str:
        return f"{self.channel}:{self.id}"


OPERATOR_LOG: Final = ChatRef(LOG, 0)
"""The one operator "chat" of a bot without Telegram: the log (``bot.agents.chatless_channel``
logs what is sent to it)."""


@dataclass(frozen=True, order=True)
class UserRef:
    """One customer: ``channel`` (the channel of their chats) and ``id``, that channel's id."""

    channel: str
    id: int

    def __str__(self) -> str:
        return f"{self.channel}:{self.id}"


_WRITTEN: Final = re.compile(r"(?:([a-z][a-z0-9_-]{0,31}):)?(-?[0-9]+)")
WRITTEN_CHAT_HELP: Final = (
    "a chat is written channel:id (telegram:-1001234567890, console:1), or a Telegram chat id alone"
)


def parse_chat_ref(written: int | str) -> ChatRef:
    """The chat ``written`` names: ``channel:id`` (``telegram:-100123``, ``console:1``), or a
    number alone for a Telegram chat, as before chats were named by their channel. Raises
    ``ValueError`` saying why for anything else; whether a channel of that name runs is the
    bot's to say, not the ref's."""
    if isinstance(written, bool):
        raise ValueError(WRITTEN_CHAT_HELP)
    if isinstance(written, int):
        return ChatRef(TELEGRAM, written)
    found = _WRITTEN.fullmatch(written.strip())
    if found is None:
        raise ValueError(f"{written!r} is not a chat: {WRITTEN_CHAT_HELP}")
    channel, number = found.groups()
    return ChatRef(channel or TELEGRAM, int(number))
