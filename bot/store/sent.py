"""Sent markers: each relay message is sent once in effect, across crashes.

A message is identified by a ``SendKey``: the id of what caused it (a webhook event id, or any
stable id such as ``poll:<delivery>:<status>``), the chat, and the kind of message. The relay
does::

    if await store.sent.claim(key):
        message = await bot.send_message(...)        # may raise: then store.sent.release(key)
        await store.sent.mark_sent(key, message.message_id)

A claim is exclusive within one open ``Store``, so two tasks cannot send the same message. A
claim left by an earlier process (it crashed between claim and mark_sent) is taken over, so the
message is sent on restart. On PostgreSQL, where the other holder may be a live instance, its
claim is taken over only once it is older than the relay's lease. Once marked sent, a key is
never claimable again. The one window left is a crash after Telegram accepted the message but
before ``mark_sent`` committed: that message is sent twice, the price of never losing one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Executor
from bot.store.inbox import DEFAULT_LEASE_SECONDS
from bot.store.store_backend import Backend, StoreDatabase


@dataclass(frozen=True)
class SendKey:
    """What a message is: its cause, its chat, and its kind (``status``, ``tracking``, ...)."""

    event_id: str
    chat: ChatRef
    kind: str


CLAIM = """INSERT INTO sent_messages (event_id, channel, chat_id, kind, claimed_by, claimed_at)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (event_id, channel, chat_id, kind) DO UPDATE
    SET claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at
    WHERE sent_messages.sent_at IS NULL
      AND sent_messages.claimed_by IS DISTINCT FROM excluded.claimed_by"""
"""A send claim, taken from any other holder; a backend whose holders may be alive narrows
it (``Backend.claim_send``)."""
_WAS_SENT = """SELECT 1 FROM sent_messages
    WHERE event_id = ? AND channel = ? AND chat_id = ? AND kind = ? AND sent_at IS NOT NULL"""
_MARK_SENT = """INSERT INTO sent_messages
        (event_id, channel, chat_id, kind, claimed_by, claimed_at, sent_at, message_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (event_id, channel, chat_id, kind) DO UPDATE
    SET sent_at = excluded.sent_at, message_id = excluded.message_id
    WHERE sent_messages.sent_at IS NULL"""
_MESSAGE_ID = """SELECT message_id FROM sent_messages
    WHERE event_id = ? AND channel = ? AND chat_id = ? AND kind = ? AND sent_at IS NOT NULL"""
_RELEASE = """UPDATE sent_messages SET claimed_by = NULL
    WHERE event_id = ? AND channel = ? AND chat_id = ? AND kind = ?
      AND sent_at IS NULL AND claimed_by = ?"""
_PRUNE = "DELETE FROM sent_messages WHERE claimed_at < ?"


class SentMessages:
    """``store.sent``: claim, send, mark; see the module docstring for the protocol."""

    def __init__(
        self,
        db: StoreDatabase,
        clock: Clock,
        holder: str,
        backend: Backend,
        *,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
    ) -> None:
        self._db = db
        self._clock = clock
        self._backend = backend  # whose claims they are: one process's, or leased
        self._lease_seconds = lease_seconds
        # Identifies this open Store: claims by any other holder are leftovers of a crash.
        self._holder = holder

    async def claim(self, key: SendKey) -> bool:
        """Take the right to send ``key``; False when it was sent or another task holds it."""
        now = self._clock()
        claim = (*_key(key), self._holder, now)
        return await self._backend.claim_send(self._db, claim, now - self._lease_seconds)

    async def was_sent(self, key: SendKey) -> bool:
        """Whether ``key`` is marked sent."""
        return await self._db.fetch_one(_WAS_SENT, _key(key)) is not None

    async def mark_sent(self, key: SendKey, message_id: int | None) -> bool:
        """Record that ``key`` was sent as Telegram message ``message_id``.

        Returns False when it was already marked (the first message id is kept).
        """
        return await mark_sent(self._db, self._holder, self._clock(), key, message_id)

    async def message_id(self, key: SendKey) -> int | None:
        """The Telegram message id recorded by ``mark_sent`` (None if unsent or unknown)."""
        row = await self._db.fetch_one(_MESSAGE_ID, _key(key))
        return None if row is None or row[0] is None else int(row[0])

    async def release(self, key: SendKey) -> bool:
        """Give up this holder's claim after a failed send, so a later attempt may claim it."""
        return await self._db.execute(_RELEASE, (*_key(key), self._holder)) > 0

    async def prune(self, before: float) -> int:
        """Delete markers claimed before ``before``; return how many.

        Keep them longer than the inbox keeps processed events, or a redelivered event could
        be relayed again.
        """
        return await self._db.execute(_PRUNE, (before,))


async def mark_sent(
    db: Executor, holder: str, now: float, key: SendKey, message_id: int | None
) -> bool:
    """``SentMessages.mark_sent`` on ``db`` (another repository's transaction)."""
    params = (*_key(key), holder, now, now, message_id)
    return await db.execute(_MARK_SENT, params) > 0


def _key(key: SendKey) -> tuple[str, str, int, str]:
    return (key.event_id, key.chat.channel, key.chat.id, key.kind)
