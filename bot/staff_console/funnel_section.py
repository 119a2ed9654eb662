"""The funnel: ``GET /console/funnel?period=7d&flow=...``, read by any staff member.

The figures are ``bot.funnel.report``'s, read through ``report_for`` as ``deliverybot report``
and an operator's ``/report`` read them, so the three never disagree. Per flow: a bar chart
of the conversations reaching each step, one of the hand-offs to a person opened at each step
(when any were), both drawn by the server as SVG (``funnel_chart``), and the same numbers in a
table. A period or a flow that cannot be read is said in one sentence on a 400.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.config import CONSOLE_PATH
from bot.funnel.report import (
    DEFAULT_PERIOD,
    REPORT_PERIODS,
    StepRow,
    duration_text,
    flows_of,
    report_for,
)
from bot.periods import since_seconds
from bot.staff_console.console_kit import ConsoleKit, NavEntry
from bot.staff_console.funnel_chart import BarChart, bar_chart
from conversations.flows import default_registry
from conversations.texts.catalogue import Catalogue

FUNNEL: Final = f"{CONSOLE_PATH}/funnel"
_PERCENT: Final = "#,##0.0%"


@dataclass(frozen=True)
class StepLine:
    """One step's row of the table, said from the page's catalogue."""

    step: str
    reached: str
    answered: str
    drop_off: str
    median: str
    reasked: str
    went_back: str
    created: str
    handoffs: str
    reasons: str


@dataclass(frozen=True)
class FlowFunnel:
    """One flow's charts and table."""

    flow: str
    reached: BarChart
    handoffs: BarChart | None
    lines: tuple[StepLine, ...]


class FunnelSection:
    """The funnel per flow and step, over a chosen period and flow."""

    nav = NavEntry(FUNNEL, "console_web.funnel.title")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [Route("/funnel", self.funnel, methods=["GET"])]

    async def funnel(self, request: Request) -> Response:
        """The page; a malformed period or an unknown flow is said on a 400."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        fields = parse_qs(request.url.query)
        period = (fields.get("period") or [DEFAULT_PERIOD])[-1].strip() or DEFAULT_PERIOD
        flow = (fields.get("flow") or [""])[-1].strip()
        names = default_registry().names
        refusal = _refusal(catalogue, period, flow, names)
        context: dict[str, Any] = {
            "period": period,
            "flow": flow,
            # The period asked, when it is another that ``bot.periods`` reads (``30d``).
            "periods": REPORT_PERIODS
            if refusal
            else tuple(dict.fromkeys((*REPORT_PERIODS, period))),
            "flows": names,
            "funnels": (),
            "refusal": refusal,
        }
        if refusal is not None:
            return self._kit.page(request, "funnel.html", found, status=400, **context)
        rows = await report_for(
            self._kit.store.funnel, self._kit.clock(), period, flow=flow or None
        )
        context["funnels"] = tuple(
            _flow_funnel(catalogue, name, [r for r in rows if r.flow == name])
            for name in flows_of(rows)
        )
        return self._kit.page(request, "funnel.html", found, **context)


def _refusal(catalogue: Catalogue, period: str, flow: str, names: Sequence[str]) -> str | None:
    try:
        since_seconds(period)
    except ValueError:
        return catalogue.say(
            "console_web.funnel.refused_period",
            period=period[:16],
            periods=", ".join(REPORT_PERIODS),
        )
    if flow and flow not in names:
        return catalogue.say(
            "console_web.funnel.refused_flow", flow=flow[:40], flows=", ".join(names)
        )
    return None


def _flow_funnel(catalogue: Catalogue, flow: str, rows: Sequence[StepRow]) -> FlowFunnel:
    say = catalogue.say
    reached = bar_chart(
        say("console_web.funnel.reached_chart", flow=flow),
        [
            (
                row.step,
                row.reached,
                say(
                    "console_web.funnel.reached_bar",
                    step=row.step,
                    reached=row.reached,
                    answered=row.answered,
                    drop_off=catalogue.number(row.drop_off, _PERCENT),
                ),
            )
            for row in rows
        ],
    )
    handed = [
        (
            row.step,
            row.handoffs,
            say("console_web.funnel.handoff_bar", step=row.step, count=row.handoffs),
        )
        for row in rows
    ]
    handoffs = None
    if any(count for _, count, _ in handed):
        handoffs = bar_chart(say("console_web.funnel.handoff_chart", flow=flow), handed)
    return FlowFunnel(flow, reached, handoffs, tuple(_line(catalogue, row) for row in rows))


def _line(catalogue: Catalogue, row: StepRow) -> StepLine:
    reasons = ", ".join(f"{reason} {count}" for reason, count in row.top_reasons())
    return StepLine(
        step=row.step,
        reached=str(row.reached),
        answered=str(row.answered),
        drop_off=catalogue.number(row.drop_off, _PERCENT),
        median=duration_text(row.median_seconds),
        reasked=str(row.reasked),
        went_back=str(row.went_back),
        created=str(row.created),
        handoffs=str(row.handoffs),
        reasons=reasons or "-",
    )
