"""Housekeeping: the store's technical bookkeeping, kept only for a while, pruned once an hour.

``Housekeeping`` is the job (``bot.jobs``) running ``housekeep`` every ``HOUSEKEEPING_SECONDS``.
What it prunes serves the bot's own working (update ids, alert times, sign-in links, orders
counted for ``[limits]``, the funnel's days); personal data past its ``[privacy]`` time is the
retention job's (``bot.privacy.retention``), so nothing is pruned twice. Every pass is a set of
deletes by age, so it is idempotent: on a shared store every process runs its own
housekeeping, and two passes at once simply find less to do.
"""

from __future__ import annotations

from typing import Final

from bot.funnel.recorder import DEFAULT_FUNNEL_DAYS, day_of
from bot.jobs import Job
from bot.store import Store

HOUSEKEEPING_SECONDS: Final = 3600.0
UPDATE_IDS_KEPT_SECONDS: Final = 8 * 86_400  # Telegram may reuse ids after a week of silence
ALERTS_KEPT_SECONDS: Final = 86_400  # far beyond the time an alert is not repeated
DRAFTS_KEPT_SECONDS: Final = 86_400  # [limits] drafts_per_hour looks back an hour
WINDOWS_KEPT_SECONDS: Final = 2 * 86_400  # a day past WhatsApp's 24-hour window


async def housekeep(store: Store, *, funnel_days: int = DEFAULT_FUNNEL_DAYS) -> None:
    """One pass: handled Telegram updates and old update ids, expired hand-off invitations,
    old operator alert times, the staff's expired sign-in links and dead console sessions,
    orders started a day ago (counted for ``[limits]``), WhatsApp windows closed a day ago and
    funnel days older than ``funnel_days`` are dropped."""
    now = store.clock()
    await store.customer_counts.prune_drafts(now - DRAFTS_KEPT_SECONDS)
    await store.funnel.prune(day_of(now) - funnel_days)
    # Handled updates leave the Telegram inbox before their ids are forgotten: a stored update
    # whose id is no longer known as handled would be handled again.
    await store.telegram_inbox.prune_handled()
    await store.updates.prune(now - UPDATE_IDS_KEPT_SECONDS)
    await store.otp_invitations.prune(now)
    await store.operator_alerts.prune(now - ALERTS_KEPT_SECONDS)
    await store.staff.prune(now)
    await store.whatsapp_windows.forget_before(now - WINDOWS_KEPT_SECONDS)


class Housekeeping(Job):
    """A ``housekeep`` pass every ``HOUSEKEEPING_SECONDS`` (after a failed one too), in every
    process."""

    name = "housekeeping"

    def __init__(self, store: Store, *, funnel_days: int = DEFAULT_FUNNEL_DAYS) -> None:
        super().__init__()
        self._store = store
        self._funnel_days = funnel_days

    async def run_once(self) -> float:
        await housekeep(self._store, funnel_days=self._funnel_days)
        return HOUSEKEEPING_SECONDS

    def backoff(self, failures: int) -> float:
        return HOUSEKEEPING_SECONDS
