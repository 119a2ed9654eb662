"""The health figures, read once for whoever shows them: ``/metrics`` (``endpoint``) sets its
gauges from ``read_work_figures`` and serves its counters, the console's health page
(``bot.staff_console.health_section``) shows the same ``WorkFigures`` and the same counters
(``Metrics.process_counts``), so the two never disagree.

Two kinds of figures, said apart wherever they are shown:

* ``WorkFigures``: the work waiting in the database (the inboxes' backlogs and their oldest
  item's age, the creates still followed up, the open orders by flow). Every instance reads
  the same rows: the whole deployment's.
* ``ProcessCounts``: what this process counted since it started (429s, waits, calls without
  an answer, messages not sent). Each instance counts its own; the whole is their sum. Kept
  only when the business records metrics (``[metrics] enabled``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from bot.store import Store
from bot.store.queue_gauges import Backlog

PARTNER_EVENTS_INBOX: Final = "partner_events"
TELEGRAM_UPDATES_INBOX: Final = "telegram_updates"


@dataclass(frozen=True)
class InboxFigures:
    """One inbox: how many items wait, and how long the oldest has waited (0 when none)."""

    pending: int
    oldest_seconds: float


@dataclass(frozen=True)
class WorkFigures:
    """The work waiting in the database, the whole deployment's (see the module docstring)."""

    inboxes: Mapping[str, InboxFigures]
    followups: int
    open_by_flow: Mapping[str, int]


@dataclass(frozen=True)
class ProcessCounts:
    """What this process counted since it started (see the module docstring)."""

    partner_429: int
    """The Partner API answered 429 (``deliverybot_partner_rate_limited_total{cause=
    "service_429"}``)."""
    own_limit_waits: int
    """Requests held back to stay under the key's limit (``{cause="own_limit"}``)."""
    telegram_429: int
    """Telegram answered a send with 429 (``deliverybot_telegram_rate_limited_total``)."""
    partner_no_answer: int
    """Partner API attempts that got no answer (``deliverybot_partner_requests_total{status=
    "error"}``, every operation)."""
    relay_failures: int
    """Relayed messages not sent (``deliverybot_relay_failures_total``, every reason)."""
    unconfirmed_creates: int
    """Creates whose answer was lost (``deliverybot_creates_total{outcome="unconfirmed"}``)."""


async def read_work_figures(store: Store, now: float) -> WorkFigures:
    """The work waiting in ``store`` at ``now`` (StoreError when the database does not
    answer)."""
    partner_events = await store.gauges.partner_events()
    updates = await store.gauges.telegram_updates()
    followups = await store.unconfirmed.count_open()
    sessions = await store.sessions.list_open()
    return WorkFigures(
        inboxes={
            PARTNER_EVENTS_INBOX: _inbox(partner_events, now),
            TELEGRAM_UPDATES_INBOX: _inbox(updates, now),
        },
        followups=followups,
        open_by_flow=Counter(_flow_of(record.data) for record in sessions),
    )


def _inbox(backlog: Backlog, now: float) -> InboxFigures:
    waited = 0.0 if backlog.oldest_since is None else max(0.0, now - backlog.oldest_since)
    return InboxFigures(backlog.pending, waited)


def _flow_of(session_json: str) -> str:
    try:
        flow = json.loads(session_json).get("flow")
    except (ValueError, AttributeError):
        return "unreadable"
    return flow if isinstance(flow, str) else "unreadable"
