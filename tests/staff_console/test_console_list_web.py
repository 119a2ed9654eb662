"""The deliveries list over real HTTP, its store on both backends: rows in words, the filters
and the search as a GET form, a refused filter said on the page (400), and the next page."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator

import markupsafe
import pytest

from bot.chat_ref import ChatRef
from bot.staff_console.deliveries_page import PAGE_SIZE
from bot.store import ListedDetails, Store
from tests.staff_console.conftest import START
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

ADA_ID = "3f2a9c1e-1111-4bbb-8ccc-000000000001"
CHIDI_ID = "7b00c0de-2222-4bbb-8ccc-000000000002"
_ROW = re.compile(r'<tr data-delivery="([^"]+)">')


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        yield opened


def _shown(key: str, **values: object) -> str:
    return str(markupsafe.escape(SHIPPED.say(key, **values)))


async def _add(
    store: Store, delivery_id: str, at: float, *, status: str, listed: ListedDetails, phone: str
) -> None:
    await store.deliveries.add(
        delivery_id, ChatRef("telegram", 42), 42, at, phone, None, status, details=listed
    )


async def _two(store: Store) -> None:
    await _add(
        store, ADA_ID, START, status="picked_up", phone="+2348031234567",
        listed=ListedDetails(
            fee=2600.0, currency="NGN", rider_id="rdr_tunde", rider_name="Tunde Bakare",
            customer_name="Ada <b>Obi</b>", sender_phone="+2348031234567",
        ),
    )  # fmt: skip
    await _add(
        store, CHIDI_ID, START + 86_400, status="pending", phone="+2348037654321",
        listed=ListedDetails(customer_name="Chidi", sender_phone="+2348037654321"),
    )  # fmt: skip


def _rows(html: str) -> list[str]:
    return _ROW.findall(html)


async def test_the_list_shows_each_delivery_in_words(site: ConsoleSite, store: Store) -> None:
    await _two(store)
    client = await site.signed_in()
    page = await client.get("/console/deliveries")
    assert page.status_code == 200
    assert _rows(page.text) == [CHIDI_ID, ADA_ID]  # newest first
    text = page.text
    assert "Ada &lt;b&gt;Obi&lt;/b&gt;" in text and "<b>Obi" not in text  # escaped
    for shown in (
        "3F2A9C1E",
        SHIPPED.say("status.picked_up"),
        SHIPPED.say("status.pending"),
        SHIPPED.money(2600, "NGN"),
        SHIPPED.say("payment.unpaid"),
        "Tunde Bakare",
        SHIPPED.say("console_web.channel.telegram"),
        SHIPPED.say("console_web.attention.unpriced"),
        SHIPPED.say("console_web.attention.unassigned"),
    ):
        assert str(markupsafe.escape(shown)) in text, shown
    assert _shown("console_web.times_in", zone="UTC") in text
    assert 'rel="next"' not in text


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("status=pending", [CHIDI_ID]),
        ("status=picked_up,pending", [CHIDI_ID, ADA_ID]),
        ("day=2027-01-15", [ADA_ID]),
        ("attention=unassigned&attention=unpriced", [CHIDI_ID]),
        ("q=3f2a", [ADA_ID]),
        ("q=0803+765+4321", [CHIDI_ID]),
        ("status=&day=&channel=&q=", [CHIDI_ID, ADA_ID]),  # the form's blank fields
        ("status=delivered", []),
    ],
)
async def test_filters_and_search_from_the_form(
    site: ConsoleSite, store: Store, query: str, found: list[str]
) -> None:
    await _two(store)
    client = await site.signed_in()
    page = await client.get(f"/console/deliveries?{query}")
    assert page.status_code == 200
    assert _rows(page.text) == found
    if not found:
        assert _shown("console_web.no_deliveries") in page.text


@pytest.mark.parametrize(
    ("query", "key", "values"),
    [
        ("status=lost", "refused_status", {"status": "lost"}),
        ("day=2027-13-01", "refused_day", {"day": "2027-13-01", "example": "2027-01-07"}),
        ("q=hello!", "refused_search", {"search": "hello!"}),
        ("after=nonsense", "refused_page", {}),
    ],
)
async def test_bad_filter_input_is_refused_on_the_page(
    site: ConsoleSite, store: Store, query: str, key: str, values: dict[str, str]
) -> None:
    await _two(store)
    client = await site.signed_in()
    page = await client.get(f"/console/deliveries?{query}")
    assert page.status_code == 400
    if key == "refused_status":
        assert _shown("console_web.refused_status", **values, statuses="").split(":")[0] in (
            page.text
        )
    else:
        assert _shown(f"console_web.{key}", **values) in page.text
    assert _rows(page.text) == []


async def test_the_next_page_link_keeps_the_filters(site: ConsoleSite, store: Store) -> None:
    for n in range(PAGE_SIZE + 1):
        await _add(
            store, f"{n:08x}-0000-4000-8000-000000000000", START + n, status="pending",
            phone="+2348031234567", listed=ListedDetails(customer_name=f"Customer {n}"),
        )  # fmt: skip
    client = await site.signed_in()
    first = await client.get("/console/deliveries?status=pending")
    assert len(_rows(first.text)) == PAGE_SIZE
    link = re.search(r'<a href="([^"]+)" rel="next">', first.text)
    assert link is not None
    href = html.unescape(link.group(1))
    assert href.startswith("/console/deliveries?status=pending&after=")
    second = await client.get(href)
    assert second.status_code == 200
    assert _rows(second.text) == ["00000000-0000-4000-8000-000000000000"]
    assert 'rel="next"' not in second.text
