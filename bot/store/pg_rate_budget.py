"""``PgRateBudget``: the Partner API's per-key request budget, kept in PostgreSQL for every
instance (``bot.partner.shared_request_limiter`` asks it before each request).

The service allows ``rateLimits`` requests per key in any 60-second window. Each instance's own
limiter would let N instances together send N times that. Here every request start is a row
(``partner_request_starts``) and a start is granted only while fewer than the limit were in use
in the last window, judged under a transaction-scoped advisory lock per key so two instances
never both take the last slot. As in each process's log (``bot.partner.request_limiter``), a
start is in use until its answer is back: its row's ``started_at`` is first a ticket
``IN_FLIGHT_LIMIT`` ahead of now, counted as now while it is ahead; ``finish`` moves it to the
answer's time. A row whose instance died before finishing it counts as answered at its ticket,
so it is freed, late but surely. Times are the database server's clock, the one clock all
instances share. A 429's ``Retry-After`` is shared too (``partner_rate_blocks``), so one
instance's refusal holds every instance back. ``wait_time`` reads how long a start would wait
now, for the notice a customer gets when their create is held back.

``key_id`` is a fingerprint of the API key, never the key.
"""

from __future__ import annotations

from bot.clocks import Clock
from bot.store.advisory_locks import RATE_BUDGET_NAMESPACE
from bot.store.database import Executor
from bot.store.pg_backend import NOT_WAITING_FOR_THE_DISK
from bot.store.pg_database import PgDatabase

_LOCK_KEY = "SELECT pg_advisory_xact_lock(?, hashtext(?))"
_NOW = "SELECT extract(epoch FROM clock_timestamp())::double precision"
_BLOCKED_UNTIL = "SELECT blocked_until FROM partner_rate_blocks WHERE key_id = ?"
_FORGET_OLD = "DELETE FROM partner_request_starts WHERE key_id = ? AND started_at <= ?"
_RECENT = """SELECT started_at FROM partner_request_starts WHERE key_id = ?
    ORDER BY started_at DESC LIMIT ?"""
_RECENT_IN_WINDOW = """SELECT started_at FROM partner_request_starts
    WHERE key_id = ? AND started_at > ? ORDER BY started_at DESC LIMIT ?"""
_RECORD = "INSERT INTO partner_request_starts (key_id, started_at) VALUES (?, ?)"
_FINISH = """UPDATE partner_request_starts SET started_at = least(started_at, ?)
    WHERE key_id = ? AND started_at = ?"""
_BLOCK = """INSERT INTO partner_rate_blocks (key_id, blocked_until) VALUES (?, ?)
    ON CONFLICT (key_id) DO UPDATE
    SET blocked_until = greatest(partner_rate_blocks.blocked_until, excluded.blocked_until)"""


# How long a start with no answer recorded counts as in use, as a process's own log counts it
# (``bot.partner.request_limiter.IN_USE_LIMIT_SECONDS``): longer than a request lives.
IN_FLIGHT_LIMIT = 120.0
# How soon to ask again when the budget is spent by starts still in use: their answers free
# them at a time nobody can know, and usually within a second.
IN_USE_RECHECK = 0.25


class PgRateBudget:
    """Grants request starts against a key's shared budget; see the module docstring."""

    def __init__(self, db: PgDatabase, *, clock: Clock | None = None) -> None:
        self._db = db
        # None: the database server's clock, the one every instance shares (tests that run
        # the instances in one process on a fake clock pass it here).
        self._clock = clock

    async def try_start(
        self, key_id: str, limit: int | None, window: float
    ) -> tuple[float, float | None]:
        """Record a request start now, in use until ``finish``, and return ``(0, ticket)``;
        or return ``(seconds to wait first, None)``, nothing recorded. ``limit`` None means
        no cap (a shared block still holds)."""
        async with self._db.transaction() as tx:
            # A start lost in a server crash lets a few more requests through once: a 429 the
            # client waits out, not worth a disk flush before every request.
            await tx.execute(NOT_WAITING_FOR_THE_DISK)
            await tx.fetch_one(_LOCK_KEY, (RATE_BUDGET_NAMESPACE, key_id))
            now = await self._now(tx)
            blocked = await tx.fetch_one(_BLOCKED_UNTIL, (key_id,))
            if blocked is not None and float(blocked[0]) > now:
                return float(blocked[0]) - now, None
            await tx.execute(_FORGET_OLD, (key_id, now - window))
            recent = [float(row[0]) for row in await tx.fetch_all(_RECENT, (key_id, limit or 1))]
            if limit is not None and len(recent) >= limit:
                limiting = recent[-1]
                if limiting > now:  # still in use
                    return min(IN_USE_RECHECK, window), None
                return max(limiting + window - now, 0.001), None
            # Recorded even with no cap known here (before this instance has read the key's
            # rateLimits), so the instances that know it count this start too. The ticket is
            # the key's latest time, so ``finish`` finds this row and no other.
            ticket = max(now + IN_FLIGHT_LIMIT, recent[0] + 0.001 if recent else 0.0)
            await tx.execute(_RECORD, (key_id, ticket))
            return 0.0, ticket

    async def finish(self, key_id: str, ticket: float) -> None:
        """The start ``ticket`` names has its answer: it counts from now, for one window."""
        # No lock: a start asked for meanwhile sees the row in use or answered, both true.
        await self._db.execute(_FINISH, (await self._now(self._db), key_id, ticket))

    async def wait_time(self, key_id: str, limit: int | None, window: float, ahead: int) -> float:
        """Seconds a start asked for now would wait, behind ``ahead`` others that will start
        first (a read: nothing recorded, no lock taken)."""
        now = await self._now(self._db)
        blocked = await self._db.fetch_one(_BLOCKED_UNTIL, (key_id,))
        start = max(now, float(blocked[0]) if blocked is not None else now)
        if limit is None:
            return start - now
        rows = await self._db.fetch_all(_RECENT_IN_WINDOW, (key_id, now - window, limit))
        # A start still in use counts as now; every count is then at most now.
        starts = sorted(min(float(row[0]), now) for row in rows)
        # The others ahead take the first free slots, in turn; this one the next.
        for _ in range(ahead + 1):
            if len(starts) >= limit:
                start = max(start, starts[-limit] + window)
            starts.append(start)
        return start - now

    async def block_for(self, key_id: str, seconds: float) -> None:
        """Hold every instance back for ``seconds`` (the service answered 429)."""
        async with self._db.transaction() as tx:
            await tx.execute(_BLOCK, (key_id, await self._now(tx) + seconds))

    async def _now(self, tx: Executor) -> float:
        if self._clock is not None:
            return self._clock()
        row = await tx.fetch_one(_NOW)
        assert row is not None
        return float(row[0])
