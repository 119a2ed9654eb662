"""Every PostgreSQL advisory lock key the bot takes, in one place, so no two jobs share one.

A chat's lock (``pg_chat_locks``) is the one-bigint form, keyed by ``ChatLockKeys.key``: its
channel's lock tag and its id, so equal ids of two channels never share a lock. Each channel
declares its own tag (``bot.channel_kind.ChannelKind``, carried by its registration); the store
is told every channel this bot knows, and refuses two channels under one tag.

Advisory locks are the database's, whatever schema a store's tables are in, so two businesses
on one database whose customers share a chat id (one Telegram user talking to both bots) would
share that chat's lock if the key were the chat alone. So a store in a lock namespace of its
own mixes it in: the key is a 64-bit hash of (namespace, tag, id). The default namespace keeps
``tag * 2**53 + id``, the key every running instance of a single business takes, so an upgrade
with old and new instances side by side still shares each chat's lock. Two chats whose keys
collide (about one pair in 2**64, per pair of chats in use at once) only take their turns one
after the other: a chat lock orders turns, it decides nothing, so a collision costs a wait,
never a wrong answer. Everything else
is the two-int form, ``(namespace, key)``, which never meets a one-bigint lock: the fixed jobs
below in the store's namespace (``[storage.postgres] lock_namespace``, ``DEFAULT_NAMESPACE``
unless set, so two businesses sharing one database each lead, migrate and claim on their own
locks), and each API key's rate budget in a namespace of its own, keyed by a hash of the key's
fingerprint (any int may come out of a hash, so it must not share a namespace with the fixed
keys; one key is one budget, whichever business spends it).

The SQLite code that shares repositories with PostgreSQL imports it too.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable
from typing import Final

from bot.channel_kind import ChannelKind
from bot.chat_ref import ChatRef

CHAT_ID_BOUND: Final = 2**52
"""Every chat id of a channel is within ±2**52: Telegram's ids have at most 52 significant
bits; the other channels count up from 1."""


class ChatLockKeys:
    """The lock tags of the channels declared to the store, and each chat's lock key.

    A store is told its channels' kinds when it opens (every channel the bot knows, running or
    not: an operator's block locks a chat of any channel) and again as each registers; a name
    declared twice must keep its tag, and no two names may share one.
    """

    def __init__(self, kinds: Iterable[ChannelKind] = (), *, namespace: int | None = None) -> None:
        self._tags: dict[str, int] = {}
        # The store's lock namespace, mixed into every key unless it is the default's.
        self._mixed_in = None if namespace in (None, DEFAULT_NAMESPACE) else namespace
        for kind in kinds:
            self.declare(kind)

    def declare(self, kind: ChannelKind) -> None:
        """Know ``kind``'s tag; raises ``ValueError`` when its name has another tag already,
        or another channel has this tag."""
        known = self._tags.get(kind.name)
        if known is not None and known != kind.lock_tag:
            raise ValueError(f"channel {kind.name!r} has chat lock tag {known} already")
        for name, tag in self._tags.items():
            if tag == kind.lock_tag and name != kind.name:
                raise ValueError(f"channel {kind.name!r}: chat lock tag {tag} is taken by {name!r}")
        self._tags[kind.name] = kind.lock_tag

    def tag(self, channel: str) -> int | None:
        """The tag declared for ``channel``, or None."""
        return self._tags.get(channel)

    def key(self, chat: ChatRef) -> int:
        """The one-bigint advisory lock key of ``chat``: ``tag * 2**53 + id``, one per
        (channel, id), in the default namespace (Telegram's tag is 0, so a Telegram chat's key
        is its id, as before channels were named); a 64-bit hash of (namespace, tag, id) in
        any other (see the module docstring). Raises ``ValueError`` for a channel without a
        tag or an id out of bounds."""
        tag = self._tags.get(chat.channel)
        if tag is None:
            raise ValueError(f"channel {chat.channel!r} has no chat lock tag")
        if not -CHAT_ID_BOUND < chat.id < CHAT_ID_BOUND:
            raise ValueError(f"chat {chat} is beyond the chat lock keys' bounds")
        if self._mixed_in is not None:
            return _hashed_key(self._mixed_in, tag, chat.id)
        return tag * 2 * CHAT_ID_BOUND + chat.id


def _hashed_key(namespace: int, tag: int, chat_id: int) -> int:
    """A signed 64-bit key (PostgreSQL's bigint) spread over the whole range."""
    packed = struct.pack(">iiq", namespace, tag, chat_id)
    digest = hashlib.blake2b(packed, digest_size=8, person=b"dlvb-chat").digest()
    return int.from_bytes(digest, "big", signed=True)


DEFAULT_NAMESPACE: Final = 0x646C7662
"""The fixed jobs' namespace unless the store is given another; spells "dlvb"."""

MIGRATION_LOCK = 1
"""Held while a migration is applied (transaction-scoped)."""

INBOX_CLAIM_LOCK = 2
"""Serialises the relay's inbox claims (transaction-scoped)."""

BACKGROUND_JOBS_LOCK = 3
"""Held by the instance that runs the jobs only one instance may run, for as long as it leads
(session): the status poller, the follow-up of lost creates and the agent event webhooks."""

TELEGRAM_SENDS_LOCK = 4
"""Serialises the grants of Telegram sends (``pg_send_limits``; transaction-scoped): the
overall window is one for all chats."""

WHATSAPP_SENDS_LOCK = 5
"""Serialises the grants of WhatsApp sends, as ``TELEGRAM_SENDS_LOCK`` Telegram's."""

RATE_BUDGET_NAMESPACE = 0x646C7672
"""The Partner API's per-key budgets (transaction-scoped); spells "dlvr"."""

LOCK_SESSION_KEEPALIVES = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}
"""Server settings of every connection that holds (or waits for) a session lock: when its
instance vanishes without closing it (a machine or network gone), the server notices within
about 25 s and lets the locks go, instead of after the system's default of about two hours,
which would stop that chat, or every job only one instance runs, for as long."""
