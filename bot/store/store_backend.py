"""What every store backend offers the repositories: ``StoreDatabase`` and ``dialect_of``.

The SQLite ``Database`` (``bot.store.database``) and the PostgreSQL ``PgDatabase``
(``bot.store.pg_database``) both run single statements (the ``Executor`` calls) and open
transactions whose statements commit together. A repository takes a ``StoreDatabase`` when it
opens transactions, an ``Executor`` when it only runs statements (so it also works inside
another repository's transaction).

Most SQL is shared: ``PgDatabase`` translates placeholders and SQLite's null-safe ``IS`` once
per text. Where the two databases need different SQL (SQLite's ``rowid``; the claims several
instances compete for) the repository asks ``dialect_of(executor)``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Literal, Protocol

from bot.store.database import Executor

Dialect = Literal["sqlite", "postgres"]


class StoreDatabase(Executor, Protocol):
    """A database the store runs on: statements, transactions, a label and ``close``."""

    @property
    def path(self) -> Path: ...

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Executor]: ...

    async def close(self) -> None: ...


def dialect_of(executor: object) -> Dialect:
    """``"postgres"`` for ``PgDatabase`` and its transactions, ``"sqlite"`` otherwise."""
    return "postgres" if getattr(executor, "dialect", "sqlite") == "postgres" else "sqlite"
