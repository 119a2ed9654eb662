"""The funnel page over real HTTP, its store on both backends: per flow, the bars' widths are
proportional to the conversations reaching each step, the hand-offs are charted per step,
the table holds exactly what ``deliverybot report`` prints for the same period, and a period
or a flow that cannot be read is said in one sentence (400)."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator

import markupsafe
import pytest

from bot.funnel.recorder import day_of
from bot.funnel.report import render_table, report_for
from bot.staff_console.funnel_chart import BAR_SPACE
from bot.store import Store
from bot.store.funnel_events import FunnelEvent
from tests.staff_console.conftest import START
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

_SECTION = re.compile(r'<section class="funnel" data-flow="([^"]+)">(.*?)</section>', re.S)
_RECT = re.compile(r'<rect class="bar-fill"[^>]* width="([0-9.]+)"')
_BAR = re.compile(r'<g class="bar"[^>]*>\s*<title[^>]*>([^<]*)</title>')
_ROW = re.compile(r'<tr data-step="([^"]+)">(.*?)</tr>', re.S)
_CELL = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
_CHARTS = re.compile(r'<svg class="chart".*?</svg>', re.S)


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        yield opened


def _event(
    flow: str, step: str, kind: str, session: str, at: float, reason: str | None = None
) -> FunnelEvent:
    return FunnelEvent(day_of(at), flow, step, kind, reason, session, at)


async def _record(store: Store) -> None:
    """Four pickup & delivery conversations and one errand today; one older one (3 days)."""
    now = START
    events = [
        _event("pickup_delivery", "pickup_place", "reached", f"s{n}", now - 600 + n)
        for n in range(4)
    ]
    events += [
        _event("pickup_delivery", "pickup_place", "answered", f"s{n}", now - 500 + n)
        for n in range(3)
    ]
    events += [
        _event("pickup_delivery", "pickup_place", "abandoned", "s3", now - 100, "cancelled"),
        _event("pickup_delivery", "pickup_address", "reached", "s0", now - 499),
        _event("pickup_delivery", "pickup_address", "reached", "s1", now - 498),
        _event("pickup_delivery", "pickup_address", "reasked", "s1", now - 480, "invalid_answer"),
        _event("pickup_delivery", "pickup_address", "handoff", "s1", now - 470),
        _event("pickup_delivery", "pickup_address", "handoff", "s0", now - 460),
        _event("pickup_delivery", "pickup_address", "answered", "s0", now - 400),
        _event("errand", "what", "reached", "e1", now - 300),
        _event("errand", "what", "answered", "e1", now - 240),
        _event("errand", "what", "reached", "old", now - 3 * 86_400),
        _event("errand", "what", "handoff", "old", now - 3 * 86_400 + 5),
    ]
    await store.funnel.add(events)


def _sections(page: str) -> dict[str, str]:
    return dict(_SECTION.findall(page))


def _table(section: str) -> list[list[str]]:
    return [
        [html.unescape(cell).strip() for cell in [step, *_CELL.findall(row)][1:]]
        for step, row in _ROW.findall(section)
    ]


def _report_lines(text: str, flow: str) -> list[list[str]]:
    """``deliverybot report``'s rows of ``flow``, cell by cell (its columns are apart by two
    spaces or more; no cell holds two spaces)."""
    block = text.split(f"{flow}, last ", 1)[1].split("\n\n", 1)[0]
    return [re.split(r"\s{2,}", line.strip()) for line in block.splitlines()[2:]]


async def test_bars_and_table_match_the_report(site: ConsoleSite, store: Store) -> None:
    await _record(store)
    client = await site.signed_in()
    answer = await client.get("/console/funnel?period=7d")
    assert answer.status_code == 200
    sections = _sections(answer.text)
    assert list(sections) == ["pickup_delivery", "errand"]  # the registry's order

    rows = await report_for(store.funnel, store.clock(), "7d")
    printed = render_table(rows, period="7d")
    for flow, section in sections.items():
        assert _table(section) == _report_lines(printed, flow)

    reached_chart, handoff_chart = _CHARTS.findall(sections["pickup_delivery"])
    widths = [float(w) for w in _RECT.findall(reached_chart)]
    reached = [row.reached for row in rows if row.flow == "pickup_delivery"]
    assert reached == [4, 2]
    assert widths == [BAR_SPACE * n / max(reached) for n in reached]  # proportional
    titles = [html.unescape(t) for t in _BAR.findall(reached_chart)]
    assert titles[0] == SHIPPED.say(
        "console_web.funnel.reached_bar",
        step="pickup_place",
        reached=4,
        answered=3,
        drop_off="25.0%",
    )
    # The hand-offs per step: none at pickup_place, both at pickup_address.
    assert [float(w) for w in _RECT.findall(handoff_chart)] == [0.0, BAR_SPACE]
    assert html.unescape(_BAR.findall(handoff_chart)[1]) == SHIPPED.say(
        "console_web.funnel.handoff_bar", step="pickup_address", count=2
    )
    # The errand's hand-off was three days ago: in the 7 days, not in the last 24 hours.
    assert len(_CHARTS.findall(sections["errand"])) == 2


async def test_a_shorter_period_and_one_flow(site: ConsoleSite, store: Store) -> None:
    await _record(store)
    client = await site.signed_in()
    answer = await client.get("/console/funnel?period=24h&flow=errand")
    assert answer.status_code == 200
    sections = _sections(answer.text)
    assert list(sections) == ["errand"]
    assert _table(sections["errand"])[0][:3] == ["what", "1", "1"]  # the older one left out
    assert len(_CHARTS.findall(sections["errand"])) == 1
    assert html.escape(SHIPPED.say("console_web.funnel.no_handoffs")) in sections["errand"]
    assert '<option value="24h" selected>' in answer.text

    empty = await client.get("/console/funnel?period=24h&flow=return_parcel")
    assert empty.status_code == 200
    assert SHIPPED.say("console_web.funnel.none", period="24h") in empty.text


@pytest.mark.parametrize(
    ("query", "key", "values"),
    [
        ("period=last+week", "console_web.funnel.refused_period", {"period": "last week"}),
        ("period=0d", "console_web.funnel.refused_period", {"period": "0d"}),
        # Past a few hundred digits a period is no longer a number a clock can subtract.
        (
            "period=" + "9" * 30 + "d",
            "console_web.funnel.refused_period",
            {"period": "9" * 16},  # a refusal repeats the first 16 characters
        ),
        ("flow=<b>nope", "console_web.funnel.refused_flow", {"flow": "<b>nope"}),
    ],
)
async def test_a_malformed_choice_is_said_in_one_sentence(
    site: ConsoleSite, store: Store, query: str, key: str, values: dict[str, str]
) -> None:
    await _record(store)
    client = await site.signed_in()
    answer = await client.get(f"/console/funnel?{query}")
    assert answer.status_code == 400
    names = "order, pickup_delivery, errand, pharmacy_errand, return_parcel"
    words = {"periods": "24h, 7d", "flows": names, **values}
    needed = {
        name: value for name, value in words.items() if f"{{{name}}}" in SHIPPED.messages[key]
    }
    assert str(markupsafe.escape(SHIPPED.say(key, **needed))) in answer.text
    assert "<section" not in answer.text and "<b>nope" not in answer.text


async def test_signed_out_is_sent_to_sign_in(site: ConsoleSite) -> None:
    answer = await site.client().get("/console/funnel")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/console/signed-out"
