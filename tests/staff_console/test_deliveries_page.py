"""``deliveries_page``: a page of the list in words, over a real store on both backends."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qs
from zoneinfo import ZoneInfo

from bot.chat_ref import ChatRef
from bot.staff_console.deliveries_page import deliveries_page
from bot.staff_console.delivery_filters import (
    DeliveryFilters,
    FiltersRefused,
    parse_cursor,
    parse_filters,
)
from bot.store import ListedDetails, Store
from bot.store.delivery_list import Attention
from conversations.texts.catalogue import Catalogue
from tests.staff_console.conftest import START
from tests.support.words import SHIPPED, said_in

LAGOS = ZoneInfo("Africa/Lagos")
PHONE = "+2348031234567"
ADA = ListedDetails(customer_name="Ada Obi")


def _filters(query: str, catalogue: Catalogue = SHIPPED) -> DeliveryFilters:
    found = parse_filters(
        catalogue, parse_qs(query), channels=("telegram", "agents"), zone=LAGOS, phone_region="NG"
    )
    assert isinstance(found, DeliveryFilters), found
    return found


async def _add(
    store: Store,
    delivery_id: str,
    at: float,
    *,
    status: str = "pending",
    listed: ListedDetails = ADA,
) -> None:
    await store.deliveries.add(
        delivery_id, ChatRef("telegram", 42), 42, at, "+2348039999999", None, status,
        details=listed,
    )  # fmt: skip


async def test_a_row_in_words_money_and_local_times(store: Store) -> None:
    await _add(
        store,
        "3f2a9c1e-1111-4bbb-8ccc-000000000001",
        START,
        status="picked_up",
        listed=ListedDetails(
            fee=2600.0,
            currency="NGN",
            rider_id="rdr_tunde",
            rider_name="Tunde Bakare",
            customer_name="Ada Obi",
        ),
    )
    page = await deliveries_page(store, SHIPPED, _filters(""))
    [row] = page.rows
    assert page.next_after is None
    assert (row.reference, row.customer, row.channel_label) == ("3F2A9C1E", "Ada Obi", "Telegram")
    assert (row.status, row.status_label) == ("picked_up", SHIPPED.say("status.picked_up"))
    assert row.fee == SHIPPED.money(2600, "NGN")
    assert (row.paid, row.payment_label) == (False, SHIPPED.say("payment.unpaid"))
    assert (row.rider, row.assigned) == ("Tunde Bakare", True)
    # 08:00 UTC is 09:00 in Lagos.
    assert row.created_at == datetime(2027, 1, 15, 9, 0, tzinfo=LAGOS)
    assert row.created_label == SHIPPED.say(
        "console_web.at", day=SHIPPED.day(row.created_at.date()), time="09:00"
    )
    assert row.attention_labels == ()


async def test_an_unpriced_unassigned_delivery_says_so_in_french(store: Store) -> None:
    await _add(store, "aaaa0001-0000-4000-8000-000000000000", START, status="awaiting_price")
    french = said_in("fr")
    [row] = (await deliveries_page(store, french, _filters("", french))).rows
    assert row.fee == "pas encore de prix"
    assert row.rider == "aucun livreur"
    assert row.status_label == french.say("status.awaiting_price")
    assert row.attention == {Attention.UNPRICED, Attention.UNASSIGNED}
    assert row.attention_labels == ("pas encore de prix", "pas encore de livreur")
    assert row.created_label.endswith(" à 09:00")


async def test_pages_follow_each_other_by_their_cursor(store: Store) -> None:
    ids = [f"{n:08x}-0000-4000-8000-000000000000" for n in range(7)]
    for n, delivery_id in enumerate(ids):
        await _add(store, delivery_id, START + n)
    filters = _filters("")
    seen: list[str] = []
    after = None
    while True:
        page = await deliveries_page(store, SHIPPED, filters, after, size=3)
        seen += [row.delivery_id for row in page.rows]
        if page.next_after is None:
            break
        cursor = parse_cursor(SHIPPED, page.next_after)
        assert not isinstance(cursor, FiltersRefused)
        after = cursor
    assert seen == ids[::-1]


async def test_search_by_reference_or_phone_as_typed(store: Store) -> None:
    wanted = "3f2a9c1e-1111-4bbb-8ccc-000000000001"
    await _add(store, wanted, START, listed=ListedDetails(sender_phone=PHONE))
    await _add(store, "3f2b0000-1111-4bbb-8ccc-000000000002", START + 1)
    for typed in ("3F2A9C", "3f2a9c1e", "0803 123 4567", "%2B234 803 123 4567", "2348031234567"):
        page = await deliveries_page(store, SHIPPED, _filters(f"q={typed}"))
        assert [row.delivery_id for row in page.rows] == [wanted], typed


async def test_the_business_day_filter_follows_its_zone(store: Store) -> None:
    # 23:30 UTC on the 14th is already the 15th in Lagos.
    late = "bbbb0001-0000-4000-8000-000000000000"
    await _add(store, late, START - 8.5 * 3600)
    await _add(store, "bbbb0002-0000-4000-8000-000000000000", START - 9.5 * 3600)
    page = await deliveries_page(store, SHIPPED, _filters("day=2027-01-15"))
    assert [row.delivery_id for row in page.rows] == [late]
