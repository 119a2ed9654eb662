"""The store's ``Coordination`` on PostgreSQL: what several instances share through it."""

from __future__ import annotations

from bot.store.advisory_locks import BACKGROUND_JOBS_LOCK, DEFAULT_NAMESPACE, ChatLockKeys
from bot.store.coordination import Coordination
from bot.store.pg_chat_locks import PgChatLocks
from bot.store.pg_database import PgDatabase
from bot.store.pg_leadership import PgLeadership
from bot.store.pg_rate_budget import PgRateBudget
from bot.store.pg_send_limits import WHATSAPP_LEDGER, PgRequestBuckets, PgSendBudget


async def pg_coordination(
    dsn: str,
    db: PgDatabase,
    *,
    pool_size: int,
    keys: ChatLockKeys,
    namespace: int = DEFAULT_NAMESPACE,
) -> Coordination:
    """Advisory chat locks (a connection and a pool of their own, keyed by ``keys``), the
    background jobs' leadership (a connection opened on its first ask), and the Partner API's
    rate budget, Telegram's send budget and agent channels' request buckets in ``db``; the
    fixed locks among them in the store's lock ``namespace``. Every connection opened here
    has the store's schema (``db.schema``) as its ``search_path``."""
    chat_locks = await PgChatLocks.connect(dsn, pool_size=pool_size, keys=keys, schema=db.schema)
    leadership = PgLeadership.for_dsn(
        dsn, BACKGROUND_JOBS_LOCK, namespace=namespace, schema=db.schema
    )

    async def close() -> None:
        await chat_locks.close()
        await leadership.close()

    return Coordination(
        chat_locks,
        leadership,
        PgRateBudget(db),
        PgSendBudget(db, namespace=namespace),
        PgRequestBuckets(db),
        shared=True,
        close=close,
        whatsapp_send_budget=PgSendBudget(db, namespace=namespace, ledger=WHATSAPP_LEDGER),
    )
