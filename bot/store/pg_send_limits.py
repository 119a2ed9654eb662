"""Telegram's and WhatsApp's send windows and agent channels' request buckets, kept in
PostgreSQL for every instance (the shared side of ``bot.store.send_limits``).

``PgSendBudget``: every send any instance makes is a row of its messenger's ledger
(``SendLedger``: ``telegram_sends``, or ``whatsapp_sends``): its chat and when it was
granted. A send is granted only while the last ``overall`` span holds fewer than
its count of sends, every window of its chat likewise, and no hold (``telegram_holds``) keeps
the chat or every chat (the row of ``EVERY_CHAT``: a 429 about the whole bot); judged and
recorded in one transaction under one advisory lock, so two instances never both take the
last slot of a window. The instance's own ``RateLimiter`` has already lined its sends up;
this is the check all instances pass together, and it answers how long to wait when another
instance took the slot.

``PgRequestBuckets``: a row per agent channel with its tokens and when they were counted,
updated under the row's lock (``SELECT ... FOR UPDATE``), so each token is taken once.

Times are the database server's clock, the one clock every instance shares (tests that run
the instances in one process on a fake clock pass it instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.clocks import Clock
from bot.store.advisory_locks import (
    DEFAULT_NAMESPACE,
    TELEGRAM_SENDS_LOCK,
    WHATSAPP_SENDS_LOCK,
)
from bot.store.database import Executor
from bot.store.pg_backend import NOT_WAITING_FOR_THE_DISK
from bot.store.pg_database import PgDatabase
from bot.store.send_limits import Bucket, SpanLimit, take_token

_NOW = "SELECT extract(epoch FROM clock_timestamp())::double precision"
_LOCK_SENDS = "SELECT pg_advisory_xact_lock(?, ?)"
# No Telegram chat has id 0 (users are positive, groups negative): its row holds every chat.
EVERY_CHAT: Final = 0


@dataclass(frozen=True)
class SendLedger:
    """Where one messenger's shared sends are kept: its tables of sends and holds, and the
    advisory lock its grants take (each messenger's overall window counts its own sends)."""

    sends: str
    holds: str
    lock: int


TELEGRAM_LEDGER: Final = SendLedger("telegram_sends", "telegram_holds", TELEGRAM_SENDS_LOCK)
WHATSAPP_LEDGER: Final = SendLedger("whatsapp_sends", "whatsapp_holds", WHATSAPP_SENDS_LOCK)
"""WhatsApp's (schema step 26): its chats are customers' numbers, counted apart from
Telegram's chat ids."""


# A ledger's statements, its tables named by ``SendLedger`` (fixed names, never input).
_HELD_UNTIL = """SELECT held_until FROM {holds} WHERE chat_id IN (?, ?)
    ORDER BY held_until DESC LIMIT 1"""
_FORGET_SENDS = "DELETE FROM {sends} WHERE sent_at <= ?"
_FORGET_HOLDS = "DELETE FROM {holds} WHERE held_until <= ?"
_RECENT = "SELECT sent_at FROM {sends} WHERE sent_at > ? ORDER BY sent_at DESC LIMIT ?"
_RECENT_TO_CHAT = """SELECT sent_at FROM {sends} WHERE chat_id = ? AND sent_at > ?
    ORDER BY sent_at DESC LIMIT ?"""
_RECORD = "INSERT INTO {sends} (chat_id, sent_at) VALUES (?, ?)"
_HOLD = """INSERT INTO {holds} (chat_id, held_until) VALUES (?, ?)
    ON CONFLICT (chat_id) DO UPDATE
    SET held_until = greatest({holds}.held_until, excluded.held_until)"""


@dataclass(frozen=True)
class _LedgerSql:
    held_until: str
    forget_sends: str
    forget_holds: str
    recent: str
    recent_to_chat: str
    record: str
    hold: str

    @classmethod
    def of(cls, ledger: SendLedger) -> _LedgerSql:
        def named(sql: str) -> str:
            return sql.format(sends=ledger.sends, holds=ledger.holds)

        return cls(
            named(_HELD_UNTIL),
            named(_FORGET_SENDS),
            named(_FORGET_HOLDS),
            named(_RECENT),
            named(_RECENT_TO_CHAT),
            named(_RECORD),
            named(_HOLD),
        )


_NEW_BUCKET = """INSERT INTO agent_request_buckets (channel, tokens, counted_at) VALUES (?, ?, ?)
    ON CONFLICT (channel) DO NOTHING"""
_LOCK_BUCKET = """SELECT tokens, counted_at FROM agent_request_buckets WHERE channel = ?
    FOR UPDATE"""
_SET_BUCKET = "UPDATE agent_request_buckets SET tokens = ?, counted_at = ? WHERE channel = ?"

# The shortest wait answered: a slot whose window ends "now" is asked for again just after.
_LEAST_WAIT = 0.001


async def _now(clock: Clock | None, tx: Executor) -> float:
    if clock is not None:
        return clock()
    row = await tx.fetch_one(_NOW)
    assert row is not None
    return float(row[0])


class PgSendBudget:
    """Telegram's windows and holds for every instance; see the module docstring."""

    def __init__(
        self,
        db: PgDatabase,
        *,
        clock: Clock | None = None,
        namespace: int = DEFAULT_NAMESPACE,
        ledger: SendLedger = TELEGRAM_LEDGER,
    ) -> None:
        self._db = db
        self._clock = clock  # None: the database server's clock
        self._namespace = namespace  # the store's, for its fixed locks
        self._lock = ledger.lock
        self._sql = _LedgerSql.of(ledger)

    async def try_send(
        self, chat_id: int, overall: SpanLimit, chat: Sequence[SpanLimit], keep: float
    ) -> float:
        """0: the send is recorded now; or the seconds to wait before asking again."""
        async with self._db.transaction() as tx:
            # A send lost in a server crash lets one more through once: not worth a disk
            # flush before every message.
            await tx.execute(NOT_WAITING_FOR_THE_DISK)
            await tx.fetch_one(_LOCK_SENDS, (self._namespace, self._lock))
            now = await _now(self._clock, tx)
            sql = self._sql
            held = await tx.fetch_one(sql.held_until, (chat_id, EVERY_CHAT))
            if held is not None and float(held[0]) > now:
                return float(held[0]) - now
            await tx.execute(sql.forget_sends, (now - keep,))
            wait = await self._wait(tx, sql.recent, (), overall, now)
            for window in chat:
                wait = max(wait, await self._wait(tx, sql.recent_to_chat, (chat_id,), window, now))
            if wait > 0:
                return wait
            await tx.execute(sql.record, (chat_id, now))
            return 0.0

    async def hold(self, chat_id: int, seconds: float) -> None:
        """Hold ``chat_id`` back for every instance (Telegram answered 429)."""
        if chat_id == EVERY_CHAT:
            raise ValueError("chat id 0 is no chat: hold_every_chat holds them all")
        await self._hold(chat_id, seconds)

    async def hold_every_chat(self, seconds: float) -> None:
        """Hold every chat back for every instance (a 429 about the whole bot)."""
        await self._hold(EVERY_CHAT, seconds)

    async def _hold(self, chat_id: int, seconds: float) -> None:
        async with self._db.transaction() as tx:
            now = await _now(self._clock, tx)
            await tx.execute(self._sql.forget_holds, (now,))
            await tx.execute(self._sql.hold, (chat_id, now + seconds))

    @staticmethod
    async def _wait(
        tx: Executor, sql: str, key: tuple[int, ...], window: SpanLimit, now: float
    ) -> float:
        """Seconds until ``window`` has room for one more send (0: it has now)."""
        rows = await tx.fetch_all(sql, (*key, now - window.span, window.count))
        if len(rows) < window.count:
            return 0.0
        return max(float(rows[-1][0]) + window.span - now, _LEAST_WAIT)


class PgRequestBuckets:
    """Agent channels' token buckets for every instance; see the module docstring."""

    def __init__(self, db: PgDatabase, *, clock: Clock | None = None) -> None:
        self._db = db
        self._clock = clock  # None: the database server's clock

    async def take(self, name: str, capacity: int, refill_seconds: float) -> float | None:
        """None: a token of ``name``'s bucket was taken; or the seconds until one is there."""
        async with self._db.transaction() as tx:
            await tx.execute(NOT_WAITING_FOR_THE_DISK)
            now = await _now(self._clock, tx)
            await tx.execute(_NEW_BUCKET, (name, float(capacity), now))
            row = await tx.fetch_one(_LOCK_BUCKET, (name,))
            assert row is not None  # made just above if it was missing
            bucket, wait = take_token(
                Bucket(float(row[0]), float(row[1])), now, capacity, refill_seconds
            )
            await tx.execute(_SET_BUCKET, (bucket.tokens, bucket.at, name))
            return wait
