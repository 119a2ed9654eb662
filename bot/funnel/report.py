"""The funnel read back per flow and step: ``funnel_report`` and its two renderings.

For each step since a day: how many conversations reached it, answered it (moved on), went
back from it, abandoned there (cancelled, ended, or idle), and created a delivery from it,
each counted once per conversation; how many times it was re-asked, and for which reasons;
how many hand-offs to a person were opened there (each one);
the median time from its question to its answer. Drop-off is the share of the conversations
that reached the step and abandoned there. Flows are listed in the registry's order and each
flow's steps in the order the flow asks them (as declared); a step or flow the registry no
longer has (renamed since) comes after, by how many reached it.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from bot.funnel.recorder import day_of
from bot.periods import since_seconds
from bot.store.funnel_events import FunnelEvents
from conversations.flow import FlowRegistry
from conversations.flows import default_registry
from conversations.texts.catalogue import Catalogue

REPORT_PERIODS: Final = ("24h", "7d")
"""The periods offered to choose from (an operator's ``/report``, the console); any period
``bot.periods`` reads is accepted."""
DEFAULT_PERIOD: Final = "7d"


@dataclass
class StepRow:
    """One step's figures (see the module docstring)."""

    flow: str
    step: str
    reached: int = 0
    answered: int = 0
    reasked: int = 0
    went_back: int = 0
    abandoned: int = 0
    created: int = 0
    handoffs: int = 0
    median_seconds: float | None = None
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def drop_off(self) -> float:
        """The share of the conversations that reached the step and abandoned there."""
        return self.abandoned / self.reached if self.reached else 0.0

    def top_reasons(self, count: int = 3) -> list[tuple[str, int]]:
        """The most frequent re-ask reasons, most first (ties by name)."""
        return sorted(self.reasons.items(), key=lambda item: (-item[1], item[0]))[:count]


async def funnel_report(
    events: FunnelEvents,
    *,
    since_day: int,
    flow: str | None = None,
    registry: FlowRegistry | None = None,
) -> list[StepRow]:
    """Every step's row since ``since_day`` (of ``flow`` only, if given), in flow order
    (``registry``'s flows, the shipped ones by default; see the module docstring)."""
    rows: dict[tuple[str, str], StepRow] = {}
    for tally in await events.tally(since_day, flow):
        row = rows.setdefault((tally.flow, tally.step), StepRow(tally.flow, tally.step))
        if tally.kind == "reasked":
            row.reasked += tally.events
            row.reasons[tally.reason or "unknown"] += tally.events
        elif tally.kind == "handoff":
            row.handoffs += tally.events
        elif tally.kind in ("reached", "answered", "went_back", "abandoned", "created"):
            setattr(row, tally.kind, getattr(row, tally.kind) + tally.sessions)
    times: defaultdict[tuple[str, str], list[float]] = defaultdict(list)
    for step_flow, step, seconds in await events.answer_times(since_day, flow):
        times[(step_flow, step)].append(seconds)
    for key, seconds_list in times.items():
        if key in rows:
            rows[key].median_seconds = statistics.median(seconds_list)
    return sorted(rows.values(), key=_flow_order(registry or default_registry()))


async def report_for(
    events: FunnelEvents,
    now: float,
    period: str,
    *,
    flow: str | None = None,
    registry: FlowRegistry | None = None,
) -> list[StepRow]:
    """``funnel_report`` over the last ``period`` (``7d``, ``24h``: ``bot.periods``) before
    ``now``, counted by whole days as the events are kept: from the start of the day ``period``
    ago. ValueError for a text that is not a period. Every reader of the funnel (the shell,
    an operator's ``/report``, the console) goes through here, so one period means one set of
    days everywhere."""
    since_day = day_of(now - since_seconds(period))
    return await funnel_report(events, since_day=since_day, flow=flow, registry=registry)


def flows_of(rows: Sequence[StepRow]) -> list[str]:
    """The flows of ``rows``, in the rows' order (``funnel_report``'s: the registry's)."""
    return list(dict.fromkeys(row.flow for row in rows))


def _flow_order(registry: FlowRegistry) -> Callable[[StepRow], tuple[int, str, int, int, str]]:
    """The sort key of a row: its flow's place in ``registry``, then its step's in the flow;
    what the registry does not know after what it knows, by name, then by how many reached."""
    flows = {name: place for place, name in enumerate(registry.names)}
    steps = {
        (name, step.name): place
        for name in registry.names
        for place, step in enumerate(registry[name].steps)
    }
    unknown = len(flows) + len(steps)  # after every place either mapping holds

    def key(row: StepRow) -> tuple[int, str, int, int, str]:
        return (
            flows.get(row.flow, unknown),
            row.flow,
            steps.get((row.flow, row.step), unknown),
            -row.reached,
            row.step,
        )

    return key


def duration_text(seconds: float | None) -> str:
    """A median time as the report writes it: ``45 s``, ``12 min``, ``2.5 h``; ``-`` for none."""
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7_200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3_600:.1f} h"


_HEADER = ("step", "reached", "answered", "drop-off", "median time", "re-asked", "went back",
           "created", "hand-offs", "top re-ask reasons")  # fmt: skip


def render_table(rows: list[StepRow], *, period: str) -> str:
    """The report as text tables, one per flow (``deliverybot report``), under fixed English
    column headings: a table for whoever runs the shell, with step and flow names as the flows
    declare them (an operator's chat gets ``render_short``, said from the catalogue it is
    given: in Telegram, the operator's own client language)."""
    if not rows:
        return f"No funnel events in the last {period}.\n"
    out: list[str] = []
    for flow in flows_of(rows):
        table: list[tuple[str, ...]] = [_HEADER]
        for row in (r for r in rows if r.flow == flow):
            reasons = ", ".join(f"{reason} {n}" for reason, n in row.top_reasons()) or "-"
            figures = (row.reached, row.answered)
            counts = (row.reasked, row.went_back, row.created, row.handoffs)
            table.append(
                (row.step, *map(str, figures), f"{row.drop_off:.1%}",
                 duration_text(row.median_seconds), *map(str, counts), reasons)
            )  # fmt: skip
        widths = [max(len(line[i]) for line in table) for i in range(len(_HEADER))]
        out.append(f"{flow}, last {period}:")
        for line in table:
            cells = [line[0].ljust(widths[0])]
            cells += [
                cell.rjust(width) for cell, width in zip(line[1:-1], widths[1:-1], strict=True)
            ]
            cells.append(line[-1])
            out.append("  " + "  ".join(cells).rstrip())
        out.append("")
    return "\n".join(out)


def render_short(catalogue: Catalogue, rows: list[StepRow], *, period: str, steps: int = 5) -> str:
    """The report in a few lines per flow (an operator's chat), said from ``catalogue``:
    conversations started and deliveries created, the steps losing the most, then where
    customers asked for a person."""
    say = catalogue.say
    if not rows:
        return say("ops.report.none", period=period)
    out = [say("ops.report.title", period=period)]
    for flow in flows_of(rows):
        flow_rows = [r for r in rows if r.flow == flow]
        started = max(r.reached for r in flow_rows)
        created = sum(r.created for r in flow_rows)
        out.append(say("ops.report.flow", flow=flow, started=started, created=created))
        losing = sorted((r for r in flow_rows if r.abandoned), key=lambda r: -r.abandoned)
        for row in losing[:steps]:
            top = row.top_reasons(1)
            line = say(
                "ops.report.step",
                step=row.step,
                abandoned=row.abandoned,
                reached=row.reached,
                share=f"{row.drop_off:.0%}",
                median=duration_text(row.median_seconds),
            )
            out.append(line + (say("ops.report.reason", reason=top[0][0]) if top else ""))
        handed = sorted((r for r in flow_rows if r.handoffs), key=lambda r: (-r.handoffs, r.step))
        if handed:
            steps_text = ", ".join(f"{r.step} {r.handoffs}" for r in handed[:steps])
            out.append(say("ops.report.handoffs", steps=steps_text))
    return "\n".join(out)
