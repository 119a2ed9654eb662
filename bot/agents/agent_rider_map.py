"""``AgentRiderMap``: the rider on the map for agent conversations, as ``rider_position``
events among the conversation's others (``store.agent_events``: SSE, the channel's webhook,
MCP's resource and push).

An agent's program draws its own map, so it is told the position as data, and only when it
changed: the rider moved, the position became unavailable (``position`` null: none fit to
show, the same case in which a chat reads "not available right now"), or available again. A
fix at the same point as the last one shown (a rider waiting at a door) adds nothing; neither
does the same fix twice. The delivery's end needs no event of its own: its status event says
it (delivered, cancelled), and no ``rider_position`` follows it.

Each event's key is stable (``position:<delivery>:<taken_at>``, or
``position:<delivery>:none:<the fix shown before>``), so a ``show`` repeated after a crash,
before the tracking job kept the new record, adds nothing twice.

The record kept in ``shown`` is this module's own JSON: the fix last told (its time and point),
or ``{"at": null}`` once the position was told unavailable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.agents.agent_channel import EventBell
from bot.chat_ref import ChatRef
from bot.store import Store
from bot.store.rider_positions import Fix, Point
from bot.tracking.rider_map import NOTHING_SHOWN
from bot.tracking.rider_view import RiderView

RIDER_POSITION = "rider_position"
"""The events' ``type``."""


@dataclass(frozen=True)
class _Told:
    """What an agent conversation was last told of a delivery's rider: the fix (None: that
    the position is not available)."""

    fix: Fix | None

    def record(self) -> str:
        if self.fix is None:
            return json.dumps({"at": None})
        point = self.fix.point
        return json.dumps({"at": self.fix.taken_at, "lat": point.latitude, "lng": point.longitude})


def _told(shown: str) -> _Told | None:
    """The record ``shown`` read back (None: nothing told yet, or a record not this one's)."""
    if shown == NOTHING_SHOWN:
        return None
    try:
        value = json.loads(shown)
        if value["at"] is None:
            return _Told(None)
        return _Told(Fix(Point(float(value["lat"]), float(value["lng"])), float(value["at"])))
    except (ValueError, KeyError, TypeError):
        return None


def rider_position_event(view: RiderView) -> dict[str, Any]:
    """The ``rider_position`` event of ``view`` (without its ``event_id``): the delivery, the
    rider by first name, the position (null: not available right now), the estimate in minutes
    and the customer's sentence (``message``, in the conversation's language)."""
    fix = view.position
    first = (view.rider_name or "").split()
    position = (
        None
        if fix is None
        else {
            "latitude": fix.point.latitude,
            "longitude": fix.point.longitude,
            "taken_at": iso_time(fix.taken_at),
        }
    )
    return {
        "type": RIDER_POSITION,
        "delivery_id": view.delivery_id,
        "ref": view.ref,
        "status": view.milestone,
        "rider": {"name": first[0] if first else None, "vehicle_type": view.vehicle_type},
        "position": position,
        "eta_minutes": view.eta_minutes,
        "message": view.text,
    }


def iso_time(unix: float) -> str:
    """``unix`` seconds as ISO 8601 in UTC, to the second (``2026-12-03T08:49:40Z``)."""
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class AgentRiderMap:
    """The agent channels' ``RiderMap``: ``AgentRiderMap(store, bell)``; see the module
    docstring."""

    def __init__(self, store: Store, bell: EventBell) -> None:
        self._store = store
        self._bell = bell

    async def show(self, chat: ChatRef, view: RiderView, shown: str) -> str:
        """Keep a ``rider_position`` event for ``chat`` when the position changed since
        ``shown``; the new record (``shown`` itself when nothing was told)."""
        before = _told(shown)
        now = _Told(view.position)
        if before is not None and not _changed(before, now):
            return shown
        key = _event_key(view.delivery_id, before, now)
        body = json.dumps({"event_id": key, **rider_position_event(view)}, ensure_ascii=False)
        if await self._store.agent_events.add(chat, key, body):
            await self._bell.ring()
        return now.record()

    async def end(self, chat: ChatRef, view: RiderView | None, shown: str) -> None:
        """Nothing: the delivery's status event tells the agent it ended."""


def _changed(before: _Told, now: _Told) -> bool:
    """Whether ``now`` is news after ``before``: available or not, or another point."""
    if before.fix is None or now.fix is None:
        return (before.fix is None) != (now.fix is None)
    return before.fix.point != now.fix.point


def _event_key(delivery_id: str, before: _Told | None, now: _Told) -> str:
    if now.fix is not None:
        return f"position:{delivery_id}:{now.fix.taken_at:.3f}"
    after = "start" if before is None or before.fix is None else f"{before.fix.taken_at:.3f}"
    return f"position:{delivery_id}:none:{after}"
