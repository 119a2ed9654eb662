"""``ChatRef`` and ``UserRef``: a chat, and a customer, named by their channel.

A chat is its channel's name and the channel's own id for it: Telegram's chat id, the console's
chat number, an agent conversation's sequence number. Ids of different channels may be equal;
the pair never is. A customer is named in the channel of their chat (``ChatRef.user``), so one
person's Telegram account and an agent's customer are different customers even when their ids
coincide. Every row, lock, message plan and session keyed by a chat or a customer carries both
parts, and whatever reaches a chat (the relay, a later turn) asks the channel registered under
``channel`` (``bot.channels``).

A log line never names a chat or a customer by their id: on WhatsApp the id is the customer's
phone number, and any channel's id singles out a person. It names them by ``for_log``, a
``LogRef`` that the log's handler writes as ``channel:#`` and the first hex digits of an HMAC
of the ref under the log's own key (``log_pseudonym``; ``bot.runtime.logs``): the same chat
reads the same in every line under one key, and nobody without the key can tell whose it is,
not even by hashing every phone number there is.

The value is a leaf of the code base: it imports nothing of the bot.
"""

from __future__ import annotations

import hashlib
import hmac
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

    @property
    def for_log(self) -> LogRef:
        """This chat as a log line names it: a pseudonym, never its id."""
        return LogRef(self.channel, self.id)

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

    @property
    def for_log(self) -> LogRef:
        """This customer as a log line names them: a pseudonym, never their id."""
        return LogRef(self.channel, self.id)

    def __str__(self) -> str:
        return f"{self.channel}:{self.id}"


PSEUDONYM_HEX: Final = 8
"""Hex digits of a log pseudonym: 32 bits, enough to follow one chat through a log (two of a
business's chats rarely share one; a line is about a customer, not proof of who they are)."""


@dataclass(frozen=True)
class LogRef:
    """A chat or a customer (``channel`` and ``id``) on its way into a log line.

    The log's handler writes it with the log's key (``written``); written any other way (a
    log without that handler, an f-string) it reads ``channel:#?``, so the id never leaks.
    """

    channel: str
    id: int

    def written(self, key: bytes) -> str:
        """``channel:#`` and this ref's pseudonym under ``key`` (``log_pseudonym``)."""
        return f"{self.channel}:#{log_pseudonym(key, self.channel, self.id)}"

    def __str__(self) -> str:
        return f"{self.channel}:#?"

    def __repr__(self) -> str:
        return str(self)


def log_pseudonym(key: bytes, channel: str, id: int) -> str:
    """The first ``PSEUDONYM_HEX`` hex digits of HMAC-SHA256 of ``channel:id`` under ``key``:
    keyed, because a plain hash of a phone number is undone by hashing every number."""
    digest = hmac.new(key, f"{channel}:{id}".encode(), hashlib.sha256).hexdigest()
    return digest[:PSEUDONYM_HEX]


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
