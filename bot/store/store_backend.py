"""What every store backend offers the repositories: ``StoreDatabase`` and ``Backend``.

The SQLite ``Database`` (``bot.store.database``) and the PostgreSQL ``PgDatabase``
(``bot.store.pg_database``) both run single statements (the ``Executor`` calls) and open
transactions whose statements commit together. A repository takes a ``StoreDatabase`` when it
opens transactions, an ``Executor`` when it only runs statements (so it also works inside
another repository's transaction).

The repositories' SQL is written once, in what both databases understand. The few things
that truly differ (SQLite's ``rowid``, a turn's save in one statement, the claims several
instances compete for) are the ``Backend``'s: ``bot.store.sqlite_backend`` and
``bot.store.pg_backend`` each hold their own, and a repository that needs one is handed it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from bot.store.database import Executor, Row
from bot.store.grouped_inserts import RowInserts


class StoreDatabase(Executor, Protocol):
    """A database the store runs on: statements, transactions, a label and ``close``."""

    @property
    def path(self) -> Path: ...

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Executor]: ...

    def passed_by_reads(self) -> Executor:
        """The database for lone writes its reads need not wait for (rows nothing reads in
        step with their writing)."""
        ...

    async def close(self) -> None: ...


class Backend(Protocol):
    """The statements one database needs in its own words, and how it groups concurrent
    inserts (``GroupedInserts``)."""

    @property
    def packs_sessions(self) -> bool:
        """Whether session JSON is stored deflated (``session_packing``)."""
        ...

    @property
    def last_order_sql(self) -> str:
        """``SELECT saved_order`` of a user's (``channel = ? AND user_id = ?``) newest delivery
        that kept one, the last
        linked first among rows of the same second."""
        ...

    def grouped_inserts(
        self,
        db: StoreDatabase,
        table: str,
        columns: Sequence[str],
        key: str,
        *,
        passed_by_reads: bool = False,
    ) -> RowInserts:
        """Concurrent inserts into ``table`` committed in groups (``GroupedInserts``), skipping
        rows whose ``key`` exists; ``passed_by_reads``: reads need not wait for them."""
        ...

    async def prepare(self) -> None:
        """Make what the statements below need on each connection, when the store opens."""
        ...

    async def save_turn(
        self, db: Executor, session: tuple[str, int, int, object, float], update_id: int
    ) -> None:
        """Save ``(channel, chat_id, user_id, data, updated_at)`` and record ``update_id`` as
        seen at ``updated_at``, in one statement."""
        ...

    async def claim_send(
        self, db: StoreDatabase, claim: tuple[str, str, int, str, str, float], stale_before: float
    ) -> bool:
        """Claim ``(event_id, channel, chat_id, kind, holder, now)`` in ``sent_messages``: False
        when it
        was sent or a live holder has it (a claim from before ``stale_before`` is a dead one's)."""
        ...

    async def claim_inbox(
        self, db: StoreDatabase, holder: str, limit: int, lease_seconds: float, now: float
    ) -> list[Row]:
        """Up to ``limit`` pending inbox rows for ``holder`` (``inbox.NEXT_BATCH``'s columns
        and order), leased to it for ``lease_seconds``."""
        ...

    async def renew_leases(self, db: Executor, holder: str, until: float) -> int:
        """Extend ``holder``'s leases on pending events to ``until``; return how many."""
        ...
