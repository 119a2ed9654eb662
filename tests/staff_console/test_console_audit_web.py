"""The audit page over real HTTP, its store on both backends: newest first, each filter alone
(actor, action, subject, outcome, day, period), pages by keyset that neither skip nor repeat an
event (events of one same moment included), a malformed filter said in one sentence (400),
and no token on the page though signing in is audited."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from datetime import date
from urllib.parse import parse_qs, urlsplit

import markupsafe
import pytest

from bot.staff_console.audit_section import PAGE_SIZE
from bot.staff_console.console_guard import SESSION_COOKIE
from bot.store import Store
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

_ROW = re.compile(r'<tr data-seq="(\d+)">(.*?)</tr>', re.S)
_CELL = re.compile(r"<td>(.*?)</td>", re.S)
_TAG = re.compile(r"<[^>]+>")
_NEXT = re.compile(r'<a href="([^"]+)" rel="next">')
DAY = 86_400


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        yield opened


def _rows(page: str) -> list[list[str]]:
    """Each listed event's cells as text: when, who, action, subject, outcome, detail."""
    return [
        [html.unescape(_TAG.sub("", cell)).strip() for cell in _CELL.findall(row)]
        for _, row in _ROW.findall(page)
    ]


async def _trail(store: Store, clock: FakeClock) -> None:
    """Five events over three days (the last one today, at START + 2 days)."""
    audit = store.audit
    await audit.record("telegram:1900", "block", "telegram:42", "done", "spam")
    clock.advance(60)
    await audit.record("telegram:1900", "assign", "3f2a9c1e-0001", "refused: rider_unavailable")
    clock.advance(DAY)
    await audit.record("shell", "unblock", "telegram:42", "done")
    clock.advance(DAY)
    await audit.record("bot", "limit", "telegram:77", "refused: drafts_per_hour")
    await audit.record("staff:9", "assign", "3f2a9c1e-0001", "done", "rdr_tunde")


async def test_newest_first_each_filter_alone(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    await _trail(store, fake_clock)
    client = await site.signed_in()  # its link and sign-in are audited too, last

    async def listed(query: str) -> list[list[str]]:
        answer = await client.get(f"/console/audit?{query}")
        assert answer.status_code == 200, answer.text
        return _rows(answer.text)

    everything = await listed("")
    assert [row[2] for row in everything] == [
        "console_signin", "console_link", "assign", "limit", "unblock", "assign", "block",
    ]  # fmt: skip
    assert everything[2][1:] == ["staff:9", "assign", "3f2a9c1e-0001", "done", "rdr_tunde"]
    assert everything[2][0] == SHIPPED.say(
        "console_web.at", day=SHIPPED.day(date(2027, 1, 17)), time="08:01:00"
    )
    assert [r[2] for r in await listed("actor=telegram:1900")] == ["assign", "block"]
    assert [r[1] for r in await listed("action=assign")] == ["staff:9", "telegram:1900"]
    assert [r[2] for r in await listed("subject=telegram:42")] == ["unblock", "block"]
    assert [r[2] for r in await listed("outcome=refused")] == ["limit", "assign"]
    assert [r[2] for r in await listed("outcome=refused:+drafts")] == ["limit"]
    assert [r[2] for r in await listed("day=2027-01-16")] == ["unblock"]
    fake_clock.advance(1)  # the unblock, a day and a second ago, is out of the last 24h
    assert [r[2] for r in await listed("period=24h&actor=staff:9")] == ["assign"]
    assert len(await listed("period=24h")) == 4  # the sign-in's two, the assign, the limit
    assert [r[2] for r in await listed("period=7d&actor=telegram:1900")] == ["assign", "block"]
    assert await listed("actor=telegram:1900&action=unblock") == []


async def test_every_filter_link_narrows_the_page(site: ConsoleSite, store: Store) -> None:
    client = await site.signed_in()
    await store.audit.record("telegram:1900", "block", "telegram:42", "done")
    answer = await client.get("/console/audit?action=block")
    links = re.findall(r'<td><a href="([^"]+)">telegram:42</a></td>', answer.text)
    assert len(links) == 1
    query = parse_qs(urlsplit(html.unescape(links[0])).query)
    assert query == {"action": ["block"], "subject": ["telegram:42"]}


async def test_pages_follow_each_other_by_keyset(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    client = await site.signed_in()
    total = PAGE_SIZE + 12
    for n in range(total):
        if n % 3 == 0:
            fake_clock.advance(1)  # three events share each moment: ordered by their seq
        await store.audit.record("telegram:1900", "assign", f"d{n:03}", "done")
    seen: list[str] = []
    url = "/console/audit?action=assign"
    pages = 0
    while url:
        answer = await client.get(html.unescape(url))
        assert answer.status_code == 200
        seen += [row[3] for row in _rows(answer.text)]
        found = _NEXT.search(answer.text)
        url = found[1] if found else ""
        pages += 1
    assert pages == 2
    assert seen == [f"d{n:03}" for n in reversed(range(total))]  # none skipped or repeated


@pytest.mark.parametrize(
    ("query", "key", "values"),
    [
        ("actor=Bad+Actor", "console_web.audit.refused_actor", {"actor": "Bad Actor"}),
        ("action=DROP+TABLE", "console_web.audit.refused_action", {"action": "DROP TABLE"}),
        ("subject=" + "x" * 121, "console_web.audit.refused_long", {"limit": 120}),
        ("outcome=done%0Aevil", "console_web.audit.refused_long", {"limit": 120}),
        (
            "day=2027-02-30",
            "console_web.refused_day",
            {"day": "2027-02-30", "example": "2027-01-15"},
        ),
        ("day=2027-01-15&period=7d", "console_web.audit.refused_day_and_period", {}),
        ("period=soon", "console_web.audit.refused_period", {"period": "soon"}),
        ("period=3661d", "console_web.audit.refused_period", {"period": "3661d"}),
        ("after=1800000000.0~x", "console_web.refused_page", {}),
    ],
)
async def test_a_malformed_filter_is_said_in_one_sentence(
    site: ConsoleSite, store: Store, query: str, key: str, values: dict[str, object]
) -> None:
    client = await site.signed_in()
    answer = await client.get(f"/console/audit?{query}")
    assert answer.status_code == 400
    assert str(markupsafe.escape(SHIPPED.say(key, **values))) in answer.text
    assert _rows(answer.text) == []


async def test_no_token_is_ever_on_the_page(site: ConsoleSite, store: Store) -> None:
    link = await site.link("Bob", "admin")
    client = site.client()
    assert (await client.post(link)).status_code == 303
    await client.post(link)  # used again: refused, and audited
    answer = await client.get("/console/audit")
    assert answer.status_code == 200
    actions = [row[2] for row in _rows(answer.text)]
    assert actions == ["console_signin", "console_signin", "console_link"]
    token = link.rsplit("/", 1)[1]
    session = client.cookies[SESSION_COOKIE]
    assert token not in answer.text and session not in answer.text
