"""Housekeeping: what the store keeps only for a while is pruned, once an hour.

``Housekeeping`` is the job (``bot.jobs``) running ``housekeep`` every ``HOUSEKEEPING_SECONDS``.
Every pass is a set of deletes by age, so it is idempotent: on a shared store every process
runs its own housekeeping, and two passes at once simply find less to do (a row another
process deleted, or a session a customer just saved, is left alone: each ``DELETE`` re-checks
its condition on the row it locks).
"""

from __future__ import annotations

import logging
from typing import Final

from bot.funnel.idle import record_idle_abandoned
from bot.funnel.recorder import DEFAULT_FUNNEL_DAYS, day_of
from bot.jobs import Job
from bot.store import Store

log = logging.getLogger(__name__)

HOUSEKEEPING_SECONDS: Final = 3600.0
UPDATE_IDS_KEPT_SECONDS: Final = 8 * 86_400  # Telegram may reuse ids after a week of silence
RELAYED_KEPT_SECONDS: Final = 30 * 86_400  # far beyond the service's webhook retries
ALERTS_KEPT_SECONDS: Final = 86_400  # far beyond the time an alert is not repeated
AUDIT_KEPT_SECONDS: Final = 90 * 86_400  # [storage] audit_days' default
DRAFTS_KEPT_SECONDS: Final = 86_400  # [limits] drafts_per_hour looks back an hour


async def housekeep(
    store: Store,
    *,
    session_idle_seconds: float,
    audit_seconds: float = AUDIT_KEPT_SECONDS,
    funnel_days: int = DEFAULT_FUNNEL_DAYS,
) -> None:
    """One pass: expired media, old update ids, relayed events and sent marks, expired
    hand-off invitations, old operator alert times, the staff's expired sign-in links and
    dead console sessions, orders started a day ago (counted for ``[limits]``), audit events
    older than ``audit_seconds`` and funnel days older than ``funnel_days`` are dropped, and
    so are the sessions (unfinished orders) nobody answered for ``session_idle_seconds``,
    counted in the funnel as abandoned first."""
    now = store.clock()
    await store.audit.prune(now - audit_seconds)
    await store.customer_counts.prune_drafts(now - DRAFTS_KEPT_SECONDS)
    await store.funnel.prune(day_of(now) - funnel_days)
    await record_idle_abandoned(store, before=now - session_idle_seconds)
    await store.media.purge_expired(now)
    # Handled updates leave the Telegram inbox before their ids are forgotten: a stored update
    # whose id is no longer known as handled would be handled again.
    await store.telegram_inbox.prune_handled()
    await store.updates.prune(now - UPDATE_IDS_KEPT_SECONDS)
    await store.inbox.purge_processed(now - RELAYED_KEPT_SECONDS)
    await store.sent.prune(now - RELAYED_KEPT_SECONDS)
    await store.otp_invitations.prune(now)
    await store.operator_alerts.prune(now - ALERTS_KEPT_SECONDS)
    await store.staff.prune(now)
    abandoned = await store.sessions.purge_idle(now - session_idle_seconds)
    if abandoned:
        days = session_idle_seconds / 86_400
        log.info("dropped %d unfinished orders idle for %g days", abandoned, days)


class Housekeeping(Job):
    """A ``housekeep`` pass every ``HOUSEKEEPING_SECONDS`` (after a failed one too), in every
    process."""

    name = "housekeeping"

    def __init__(
        self,
        store: Store,
        *,
        session_idle_seconds: float,
        audit_seconds: float = AUDIT_KEPT_SECONDS,
        funnel_days: int = DEFAULT_FUNNEL_DAYS,
    ) -> None:
        super().__init__()
        self._store = store
        self._session_idle_seconds = session_idle_seconds
        self._audit_seconds = audit_seconds
        self._funnel_days = funnel_days

    async def run_once(self) -> float:
        await housekeep(
            self._store,
            session_idle_seconds=self._session_idle_seconds,
            audit_seconds=self._audit_seconds,
            funnel_days=self._funnel_days,
        )
        return HOUSEKEEPING_SECONDS

    def backoff(self, failures: int) -> float:
        return HOUSEKEEPING_SECONDS
