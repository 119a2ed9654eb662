"""Whether a webhook event is newer than what a chat was last shown of its delivery.

The service stamps events in whole seconds (``created``), and it may deliver them in any
order, so two events of one delivery often share a second and arrive reversed. A later second
always wins; within one second the delivery's own progression decides, as the spec's
transition table draws it::

    awaiting_price ─> pending ─> matched ─> picked_up ─> in_transit ─> delivered
         └──────────────┴──────────┴─> cancelled         matched ─unassign─> pending

* an event whose ``previous_status`` is the status shown follows it: applied (this is how the
  one move backwards the spec allows, unassign, gets through);
* otherwise the status further along the progression wins; an event that would move the view
  back is older and is refused;
* a final status (``delivered``, ``cancelled``) is never left, whatever the second.

Limits, chosen and documented: a status outside the spec's list has no place in the
progression, so within one second it applies in arrival order (as every event did before).
An unassign and an assign of the same delivery within the same second (``matched`` ->
``pending`` -> ``matched``) cannot be ordered from statuses alone; the one processed last wins.
"""

from __future__ import annotations

from dataclasses import dataclass

FINAL_STATUSES: frozenset[str] = frozenset({"delivered", "cancelled"})
"""Statuses after which a delivery is no longer polled, and its chat's view never moves."""

# Position along the progression; the two final statuses share the last place.
PROGRESSION: dict[str, int] = {
    "awaiting_price": 0,
    "pending": 1,
    "matched": 2,
    "picked_up": 3,
    "in_transit": 4,
    "delivered": 5,
    "cancelled": 5,
}


@dataclass(frozen=True)
class ShownStatus:
    """What a chat was last shown: a status and the ``created`` second of the event behind it.

    ``created`` is None while only the create response is known.
    """

    status: str
    created: int | None


@dataclass(frozen=True)
class StatusEvent:
    """The part of a webhook event that places it in its delivery's history."""

    status: str
    created: int
    previous_status: str | None = None


def moves_forward(shown: ShownStatus, event: StatusEvent) -> bool:
    """Whether ``event`` may replace ``shown``; re-applying the shown event is allowed."""
    if shown.created is not None and event.created != shown.created:
        later = event.created > shown.created
        return later and (shown.status not in FINAL_STATUSES or event.status == shown.status)
    if shown.status in FINAL_STATUSES:
        return event.status == shown.status
    # The same second (or the create response, whose second is unknown): progression decides.
    if event.status == shown.status or event.previous_status == shown.status:
        return True
    now, then = PROGRESSION.get(event.status), PROGRESSION.get(shown.status)
    if now is None or then is None:
        return True
    return now > then
