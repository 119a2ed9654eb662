"""``FunnelRecorder``: a turn's step events into ``store.funnel``, off the turn's path.

A turn only appends its events to a buffer; they are written in one group at most
``FLUSH_SECONDS`` later (or at once past ``FLUSH_EVENTS``), so a turn waits for no extra commit
(with ``synchronous = "full"`` each commit is a disk flush). ``aclose`` writes what is left. A
crash loses at most the last few seconds of events: figures for a report, not state. A store
that fails a write loses that group, with a warning: the funnel never fails a turn.
"""

from __future__ import annotations

import asyncio
import logging

from bot.clocks import Clock
from bot.funnel.steps import StepEvent, StepMark, abandoned_idle, events_of, handed_off
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.store.funnel_events import FunnelEvent, FunnelEvents
from bot.store.store_errors import StoreError
from conversations import Session, Turn

logger = logging.getLogger(__name__)

DEFAULT_FUNNEL_DAYS = 90  # ``[storage] funnel_days``'s default
FLUSH_SECONDS = 2.0
FLUSH_EVENTS = 200
DAY_SECONDS = 86_400


def day_of(at: float) -> int:
    """The unix day of ``at`` (what the funnel is kept and reported by)."""
    return int(at // DAY_SECONDS)


class FunnelRecorder:
    """See the module docstring."""

    def __init__(self, events: FunnelEvents, clock: Clock, metrics: Metrics = NO_METRICS) -> None:
        self._events = events
        self._clock = clock
        self._metrics = metrics  # the business's: each step event is counted there too
        self._buffer: list[FunnelEvent] = []
        self._timer: asyncio.TimerHandle | None = None
        self._writing: set[asyncio.Task[None]] = set()

    def turn(
        self, before: StepMark | None, session: Session, turn: Turn, refusal: str | None = None
    ) -> None:
        """Record the turn that took ``before`` (None: a new order) to ``session``;
        ``refusal``: the reason its create was refused for, when it was (``events_of``)."""
        self._keep(session.id, events_of(before, session, turn, refusal))

    def handoff(self, session: Session) -> None:
        """Record a hand-off to a person opened while the order was at its step."""
        self._keep(session.id, handed_off(session))

    def idle(self, session: Session) -> None:
        """Record an unfinished order dropped for being idle."""
        self._keep(session.id, abandoned_idle(session))

    async def flush(self) -> None:
        """Write every buffered event now (and wait for writes already on their way)."""
        self._write_buffered()
        while self._writing:
            await asyncio.gather(*self._writing, return_exceptions=True)

    async def aclose(self) -> None:
        """Write what is left."""
        await self.flush()

    def _keep(self, session_id: str, events: list[StepEvent]) -> None:
        if not events:
            return
        now = self._clock()
        for event in events:
            self._buffer.append(
                FunnelEvent(
                    day_of(now), event.flow, event.step, event.kind, event.reason, session_id, now
                )
            )
            self._metrics.count_funnel_event(event.flow, event.step, event.kind)
        if len(self._buffer) >= FLUSH_EVENTS:
            self._write_buffered()
        elif self._timer is None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(FLUSH_SECONDS, self._write_buffered)

    def _write_buffered(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._buffer:
            return
        group, self._buffer = self._buffer, []
        task = asyncio.get_running_loop().create_task(self._write(group))
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def _write(self, group: list[FunnelEvent]) -> None:
        try:
            await self._events.add(group)
        except StoreError:
            logger.warning("funnel: %d step events could not be written", len(group))
