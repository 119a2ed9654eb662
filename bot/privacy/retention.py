"""``Retention``: each kind of personal data removed once past its ``[privacy]`` time, hourly.

The job runs in one process of those sharing a store (leader-only: the passes are bounded
deletes by age, and a second process would only repeat the same scans). A pass prunes every
kind of ``bot.store.retention_prunes`` in turn, each from its own limit, and counts the rows in
``deliverybot_retention_removed_total{kind}``. The unfinished orders it drops are counted in the
funnel as abandoned at their step first (``bot.funnel.idle``).

A kind whose prune fails is logged and the others still run: one broken kind must not keep the
rest past their time. The pass then comes back sooner, ``RETRY_SECONDS`` later.

Each pass also completes the forget requests of customers whose open deliveries have ended
(``store.customer_data.complete_pending``).

The technical prunes (Telegram's update ids, operator alert times, staff sign-in links, orders
counted for ``[limits]``, the funnel's days) stay in ``bot.runtime.housekeeping``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final

from bot.config.privacy_section import PrivacyConfig
from bot.funnel.idle import record_idle_abandoned
from bot.jobs import Job
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.store import Store
from bot.store.retention_prunes import RETENTION_KINDS, RetentionKind

log = logging.getLogger(__name__)

RETENTION_SECONDS: Final = 3600.0
"""How often a pass runs: the shortest limit is hours (photos), the others days."""
RETRY_SECONDS: Final = 300.0
"""How soon a pass comes back after one where a kind failed (or the whole pass did)."""


def kind_limits(privacy: PrivacyConfig) -> dict[RetentionKind, float]:
    """Each kind's limit in seconds: rows older than this are past their time. Photos' is 0:
    each photo's own expiry (``photos_hours`` after it was stored) is its time."""
    day = 86_400.0
    return {
        "drafts": privacy.drafts_seconds,
        "transcripts": privacy.transcripts_days * day,
        "finished_orders": privacy.finished_orders_days * day,
        "customer_details": privacy.customer_details_days * day,
        "inbox": privacy.inbox_days * day,
        "photos": 0.0,
        "audit": privacy.audit_days * day,
        "handoffs": privacy.handoffs_days * day,
    }


async def prune_kind(store: Store, kind: RetentionKind, before: float) -> int:
    """Prune ``kind`` of what is older than ``before``; the rows removed."""
    prunes: dict[RetentionKind, Callable[[float], Awaitable[int]]] = {
        "drafts": store.retention.drafts,
        "transcripts": store.retention.transcripts,
        "finished_orders": store.retention.finished_orders,
        "customer_details": store.retention.customer_details,
        "inbox": store.retention.inbox,
        "photos": store.retention.photos,
        "audit": store.retention.audit,
        "handoffs": store.retention.handoffs,
    }
    if kind == "drafts":
        await record_idle_abandoned(store, before=before)
    return await prunes[kind](before)


async def retain(
    store: Store, privacy: PrivacyConfig, metrics: Metrics = NO_METRICS
) -> dict[RetentionKind, int]:
    """One pass over every kind; the rows each removed. A kind that failed is left out (and
    logged), the others run."""
    now = store.clock()
    limits = kind_limits(privacy)
    removed: dict[RetentionKind, int] = {}
    for kind in RETENTION_KINDS:
        try:
            rows = await prune_kind(store, kind, now - limits[kind])
        except Exception:
            log.exception("retention: pruning %s failed; the other kinds go on", kind)
            continue
        removed[kind] = rows
        if rows:
            metrics.count_retention_removed(kind, rows)
    done = ", ".join(f"{kind} {rows}" for kind, rows in removed.items() if rows)
    if done:
        log.info("retention removed rows past their [privacy] time: %s", done)
    try:
        # Customers who asked to be forgotten while a delivery was open: erased now it ended.
        completed = await store.customer_data.complete_pending()
    except Exception:
        log.exception("retention: completing the waiting forget requests failed")
    else:
        if completed:
            log.info("retention completed %d forget requests whose deliveries ended", completed)
    return removed


class Retention(Job):
    """A ``retain`` pass every ``RETENTION_SECONDS``, in the process that leads."""

    name = "retention"
    leader_only = True

    def __init__(self, store: Store, privacy: PrivacyConfig, metrics: Metrics = NO_METRICS) -> None:
        super().__init__()
        self._store = store
        self._privacy = privacy
        self._metrics = metrics

    async def run_once(self) -> float:
        removed = await retain(self._store, self._privacy, self._metrics)
        return RETENTION_SECONDS if len(removed) == len(RETENTION_KINDS) else RETRY_SECONDS

    def backoff(self, failures: int) -> float:
        return RETRY_SECONDS
