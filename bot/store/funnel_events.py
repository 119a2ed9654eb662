"""``store.funnel``: the funnel's step events (``bot.funnel``), kept per day.

Written in groups (``add``), read back aggregated (``tally``, ``answer_times``) for the report,
dropped by day (``prune``). Each conversation is counted once per step and kind
(``count(DISTINCT session)``), so the same event written twice (two instances' housekeeping
finding the same idle order) counts once; re-asks count every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.database import Executor

_COLUMNS = "(day, flow, step, kind, reason, session, at)"
_ROW = "(?, ?, ?, ?, ?, ?, ?)"
_TALLY = """SELECT flow, step, kind, coalesce(reason, ''), count(*), count(DISTINCT session)
    FROM funnel_events WHERE day >= ? {flow} GROUP BY flow, step, kind, reason"""
# Each answer's time since its session last reached that step (the step's question shown),
# both within the period: one pass over the period's rows in (session, step, at) order.
_ANSWER_TIMES = """SELECT flow, step, at - last_reached FROM (
        SELECT flow, step, kind, at, max(CASE WHEN kind = 'reached' THEN at END) OVER (
            PARTITION BY session, step ORDER BY at ROWS UNBOUNDED PRECEDING) AS last_reached
        FROM funnel_events WHERE day >= ? AND kind IN ('reached', 'answered') {flow}
    ) AS steps WHERE kind = 'answered' AND last_reached IS NOT NULL"""
_PRUNE = "DELETE FROM funnel_events WHERE day < ?"
_FIRST_DAY = "SELECT min(day) FROM funnel_events"
# Rows per INSERT: SQLite allows 32,766 parameters in one statement, seven a row here.
_GROUP = 500


@dataclass(frozen=True)
class FunnelEvent:
    """One step event; see the schema step's comment (``bot.store.schema``)."""

    day: int
    flow: str
    step: str
    kind: str
    reason: str | None
    session: str
    at: float


@dataclass(frozen=True)
class Tally:
    """How often one (flow, step, kind, reason) happened since a day: ``events`` in all, in
    ``sessions`` different conversations."""

    flow: str
    step: str
    kind: str
    reason: str
    events: int
    sessions: int


class FunnelEvents:
    """``store.funnel``; see the module docstring."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    async def add(self, events: Sequence[FunnelEvent]) -> None:
        """Keep ``events`` (a few statements for many)."""
        for start in range(0, len(events), _GROUP):
            group = events[start : start + _GROUP]
            values = ", ".join(_ROW for _ in group)
            params = tuple(
                value
                for e in group
                for value in (e.day, e.flow, e.step, e.kind, e.reason, e.session, e.at)
            )
            await self._db.execute(
                f"INSERT INTO funnel_events {_COLUMNS} VALUES {values}",  # noqa: S608 - placeholders only
                params,
            )

    async def tally(self, since_day: int, flow: str | None = None) -> list[Tally]:
        """Every (flow, step, kind, reason) since ``since_day`` (of ``flow`` only, if given)."""
        sql, params = _filtered(_TALLY, since_day, flow, "flow")
        rows = await self._db.fetch_all(sql, params)
        return [
            Tally(str(r[0]), str(r[1]), str(r[2]), str(r[3]), int(r[4]), int(r[5])) for r in rows
        ]

    async def answer_times(
        self, since_day: int, flow: str | None = None
    ) -> list[tuple[str, str, float]]:
        """``(flow, step, seconds)`` of every answer since ``since_day``: how long after its
        question was shown."""
        sql, params = _filtered(_ANSWER_TIMES, since_day, flow, "flow")
        rows = await self._db.fetch_all(sql, params)
        return [(str(r[0]), str(r[1]), float(r[2])) for r in rows if r[2] is not None]

    async def prune(self, before_day: int) -> int:
        """Drop the events of days before ``before_day``; return how many."""
        return await self._db.execute(_PRUNE, (before_day,))

    async def first_day(self) -> int | None:
        """The oldest day kept, if any."""
        row = await self._db.fetch_one(_FIRST_DAY)
        return None if row is None or row[0] is None else int(row[0])


def _filtered(
    template: str, since_day: int, flow: str | None, column: str
) -> tuple[str, tuple[object, ...]]:
    if flow is None:
        return template.format(flow=""), (since_day,)
    return template.format(flow=f"AND {column} = ?"), (since_day, flow)
