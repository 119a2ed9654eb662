"""The orders housekeeping drops for being idle, counted as abandoned at their step."""

from __future__ import annotations

import logging

import pydantic

from bot.funnel.recorder import day_of
from bot.funnel.steps import abandoned_idle
from bot.store import Store
from bot.store.funnel_events import FunnelEvent
from conversations import Session

logger = logging.getLogger(__name__)


async def record_idle_abandoned(store: Store, *, before: float) -> int:
    """Record the unfinished orders untouched since ``before`` (about to be dropped) as
    abandoned (``idle``) at their steps; returns how many events. Every instance's
    housekeeping may record the same order: the report counts each conversation once."""
    now = store.clock()
    events: list[FunnelEvent] = []
    for record in await store.sessions.list_open():
        if record.updated_at >= before:
            continue
        try:
            session = Session.model_validate_json(record.data)
        except pydantic.ValidationError:
            continue  # an unreadable session is dropped by the chat service, uncounted
        for event in abandoned_idle(session):
            events.append(
                FunnelEvent(
                    day_of(now), event.flow, event.step, event.kind, event.reason, session.id, now
                )
            )
    await store.funnel.add(events)
    return len(events)
