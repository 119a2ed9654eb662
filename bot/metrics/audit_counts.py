"""The audit trail as counters: every event ``store.audit`` writes is counted here too, as an
operator action (``deliverybot_operator_actions_total``) or a limit hit
(``deliverybot_limit_hits_total``). The business's ``Metrics.count_audit_event`` is the trail's
observer, set by the core's wiring (``bot.bot_core.build_core``): the store below knows nothing
of the metrics; ``audit_series`` here says which series an event counts in.

Counted per process, as every other counter: each instance counts what it wrote, and
``sum()`` over the instances is the whole. Reading the counts from the trail instead would
make every instance agree, but the trail is pruned after ``[privacy] audit_days``, so such a
count would fall, and a Prometheus counter never falls. What the shell writes (``deliverybot
customers block``) is in the trail but in no counter: that process is not scraped.

The trail's words are free text (``refused: validation_error``, ``done; 1 open order(s)
dropped``); the labels are bounded here: an action outside ``OPERATOR_ACTIONS`` or a kind
outside ``[limits]``' is ``other``.
"""

from __future__ import annotations

from bot.limit_kinds import LIMIT_KINDS

LIMIT_ACTION = "limit"  # the trail's action for a limit hit (actor ``bot``)
OPERATOR_ACTIONS = frozenset(
    {
        "block",
        "unblock",
        "assign",
        "unassign",
        "cancel",
        "handoff_take",
        "handoff_reply",
        "handoff_fill",
        "handoff_close",
    }
)
# How an action ended, by the outcome's first words: "already blocked" and "was not blocked"
# changed nothing.
_UNCHANGED = ("already", "was not")


def audit_series(action: str, outcome: str) -> tuple[bool, str, str]:
    """Where one event of the trail (``store.audit.record``'s ``action`` and ``outcome``) is
    counted: whether it is a limit hit (else an operator action), and its two labels (the
    limit's kind or the action; how it ended)."""
    if action == LIMIT_ACTION:
        verdict, _, kind = outcome.partition(": ")
        return True, kind if kind in LIMIT_KINDS else "other", _ended(verdict)
    return False, action if action in OPERATOR_ACTIONS else "other", _ended(outcome)


def _ended(outcome: str) -> str:
    """``outcome`` as one of done, refused, unchanged, other."""
    head = outcome.split(";")[0].split(":")[0].strip()
    if head in ("done", "refused"):
        return head
    return "unchanged" if head.startswith(_UNCHANGED) else "other"
