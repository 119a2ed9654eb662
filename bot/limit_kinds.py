"""The limits a customer can hit, named once: the keys of ``[limits]`` that are limits, the
audit trail's word for each hit and the metrics' label.

At the bottom of the house so that the configuration (``bot.config.limits_section``), the
metrics (``bot.metrics.audit_counts``) and the channels that explain a refusal read one list
without importing each other.
"""

from __future__ import annotations

from typing import Literal, get_args

LimitKind = Literal[
    "open_deliveries", "unpaid_deliveries", "creates_per_hour", "creates_per_day", "drafts_per_hour"
]
"""The keys of ``[limits]`` that are limits: what a customer can hit (the audit trail's and
the metrics' name for each)."""
LIMIT_KINDS: tuple[LimitKind, ...] = get_args(LimitKind)
