"""Every query a repository runs is answered from an index, not a table scan or a sort.

The plans are read from SQLite itself (EXPLAIN QUERY PLAN) on a migrated file, so an edit to a
query or an index that loses the index fails here rather than slowing the bot down in production.
"""

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path
from types import ModuleType

import pytest

from bot.store import (
    Store,
    blocked,
    customer_search,
    delivery_changes,
    delivery_links,
    handoffs,
    inbox,
    media_files,
    otp_handoffs,
    rider_positions,
    sent,
    sessions,
    sqlite_backend,
    unconfirmed_creates,
    updates,
    verified_phones,
)
from bot.store.sqlite_backend import NEXT_CHANGE_VIEW

# Queries that read or change rows by a condition; inserts and whole-table listings are left out.
INDEXED_QUERIES: list[tuple[ModuleType, str]] = [
    (sessions, "_GET"),
    (sessions, "_DELETE"),
    (sessions, "_LIST"),
    (sessions, "_PURGE_IDLE"),
    (delivery_links, "_GET"),
    (delivery_links, "_FOR_USER"),
    (sqlite_backend, "_LAST_ORDER_FOR"),
    (delivery_links, "_COUNT_FOR_USER"),
    (delivery_links, "_OWNED_BY"),
    (delivery_links, "_UPDATE_VIEW"),
    (delivery_links, "_MARK_TRACKING_SENT"),
    (delivery_links, "_LIST_OPEN"),
    (inbox, "NEXT_BATCH"),
    (inbox, "_MARK_PROCESSED"),
    (inbox, "_RECORD_FAILURE"),
    (inbox, "_COUNTS"),
    (inbox, "_PURGE_PROCESSED"),
    (sent, "_WAS_SENT"),
    (sent, "_MESSAGE_ID"),
    (sent, "_RELEASE"),
    (sent, "_PRUNE"),
    (media_files, "_GET"),
    (media_files, "_DELETE"),
    (media_files, "_DELETE_EXPIRED"),
    (updates, "_PRUNE"),
    (verified_phones, "_PHONE_FOR"),
    (verified_phones, "_FORGET"),
    (otp_handoffs, "_DELIVERY_EXISTS"),
    (otp_handoffs, "_GET"),
    (otp_handoffs, "_GET_BY_LINK"),
    (otp_handoffs, "_PENDING_FOR_PHONE"),
    (unconfirmed_creates, "_GET"),
    (unconfirmed_creates, "_DUE"),
    (unconfirmed_creates, "_OPEN_WITH"),
    (unconfirmed_creates, "_RETRY_LATER"),
    (unconfirmed_creates, "_SETTLE"),
    (unconfirmed_creates, "_REMOVE"),
    (unconfirmed_creates, "_COUNT_OPEN"),
    (otp_handoffs, "_MARK_DELIVERED"),
    (otp_handoffs, "_DISCARD"),
    (otp_handoffs, "_PRUNE"),
    (blocked, "_CLEAR"),
    (delivery_changes, "_SINCE"),
    (delivery_changes, "_CHAT_CHANGED"),
    (delivery_links, "_NOTE_STATUS"),
    (delivery_links, "_NOTE_PAID"),
    *((handoffs, name) for name in ("_GET", "_WAITING_FOR_CHAT", "_BY_POST", "_BY_THREAD")),
    *((handoffs, name) for name in ("_POSTED", "_TAKE", "_CLOSE", "_IDLE", "_TOUCH", "_HEAD")),
    *((handoffs, name) for name in ("_CLAIM", "_MESSAGE", "_DELIVERED", "_RELEASE", "_RECENT")),
    *((handoffs, name) for name in ("_PENDING_REFS", "_COUNT_SINCE", "_NOT_CLOSED")),
    *((customer_search, name) for name in ("_KNOWN", "_FACTS", "_DELIVERIES", "_LIMITS_HIT")),
    (customer_search, "_PROVED_PHONE"),
    # ``_TRACKED`` reads every kept row by design: test_rider_positions checks its plan.
    *((rider_positions, name) for name in ("_ON_MAP", "_DELIVERY_EXISTS", "_DROP")),
]


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plans") / "plans.db"

    async def create() -> None:
        async with Store.open(path):
            pass

    asyncio.run(create())
    return path


@pytest.mark.parametrize(
    ("module", "name"),
    INDEXED_QUERIES,
    ids=[f"{module.__name__.rsplit('.', 1)[-1]}.{name}" for module, name in INDEXED_QUERIES],
)
def test_query_uses_an_index(migrated: Path, module: ModuleType, name: str) -> None:
    sql: str = getattr(module, name)
    params = (None,) * sql.count("?")
    with closing(sqlite3.connect(migrated)) as raw:
        raw.execute(NEXT_CHANGE_VIEW)  # a TEMP view: the store makes it on each connection
        plan = [str(row[3]) for row in raw.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
    for step in plan:
        # The next change number's view is one row (a scalar over an index).
        one_row = "CONSTANT" in step or "delivery_next_change" in step
        table_scan = step.startswith("SCAN") and "INDEX" not in step and not one_row
        assert not table_scan, (sql, plan)
        assert "TEMP B-TREE" not in step, (sql, plan)
