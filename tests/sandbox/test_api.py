"""GET /deliveries (paging, filter, limits) and GET /deliveries/{id}."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest
from tests.support.clock import FakeClock

from .support import CreateDelivery


async def make_five(partner: PartnerClient, body: dict[str, Any], clock: FakeClock) -> list[str]:
    ids = []
    for _ in range(5):
        ids.append((await partner.create_delivery(CreateDeliveryRequest.model_validate(body))).id)
        clock.advance(1)
    return ids


async def test_pages_newest_first_until_next_cursor_is_null(
    manual_partner: PartnerClient, pickup_body: dict[str, Any], clock: FakeClock
) -> None:
    ids = await make_five(manual_partner, pickup_body, clock)
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await manual_partner.list_deliveries(limit=2, cursor=cursor)
        seen += [d.id for d in page.deliveries]
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            break
        assert cursor == seen[-1]
    assert seen == list(reversed(ids)) and pages == 3
    assert [d.id async for d in manual_partner.iter_deliveries(page_size=2)] == seen


async def test_exact_last_page_has_null_cursor(
    manual_partner: PartnerClient, pickup_body: dict[str, Any], clock: FakeClock
) -> None:
    await make_five(manual_partner, pickup_body, clock)
    page = await manual_partner.list_deliveries(limit=5)
    assert len(page.deliveries) == 5 and page.next_cursor is None
    empty = await manual_partner.list_deliveries(cursor=page.deliveries[-1].id)
    assert empty.deliveries == [] and empty.next_cursor is None


async def test_default_limit_is_20(
    manual_partner: PartnerClient, pickup_body: dict[str, Any]
) -> None:
    request = CreateDeliveryRequest.model_validate(pickup_body)
    for _ in range(21):
        await manual_partner.create_delivery(request)
    page = await manual_partner.list_deliveries()
    assert len(page.deliveries) == 20 and page.next_cursor is not None


async def test_status_filter(
    manual_partner: PartnerClient, pickup_body: dict[str, Any], clock: FakeClock
) -> None:
    ids = await make_five(manual_partner, pickup_body, clock)
    for delivery_id in ids[1::2]:
        await manual_partner.cancel_delivery(delivery_id, "not needed")
    page = await manual_partner.list_deliveries(status="cancelled", limit=1)
    assert [d.id for d in page.deliveries] == [ids[3]]
    rest = await manual_partner.list_deliveries(status="cancelled", cursor=page.next_cursor)
    assert [d.id for d in rest.deliveries] == [ids[1]] and rest.next_cursor is None
    pending = await manual_partner.list_deliveries(status="pending")
    assert [d.id for d in pending.deliveries] == [ids[4], ids[2], ids[0]]
    listed = [d.id async for d in manual_partner.iter_deliveries(status="cancelled")]
    assert listed == [ids[3], ids[1]]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"status": "lost"}, "status"),
        ({"cursor": "not-a-uuid"}, "cursor"),
        ({"cursor": "00000000-0000-4000-8000-000000000000"}, "cursor"),
    ],
)
async def test_list_query_is_validated(
    partner: PartnerClient, params: dict[str, str], field: str
) -> None:
    with pytest.raises(errors.InvalidFields) as caught:
        await partner.list_deliveries(**params)
    assert caught.value.status == 400 and field in caught.value.field_errors


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"limit": "0"}, "limit"),
        ({"limit": "51"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"limit": "2.5"}, "limit"),
        ({"limit": "-1"}, "limit"),
        ({"limit": "²"}, "limit"),
        ({"limit": "１０"}, "limit"),
        ({"page": "2"}, "page"),
    ],
)
async def test_list_query_the_client_would_not_send(
    api: httpx.AsyncClient, params: dict[str, str], field: str
) -> None:
    # Raw httpx: the client's own checks stop these before they are sent.
    response = await api.get("/deliveries", params=params)
    assert response.status_code == 400
    assert field in response.json()["fieldErrors"]


@pytest.mark.parametrize("limit", [1, 50])
async def test_limit_bounds_are_inclusive(partner: PartnerClient, limit: int) -> None:
    assert (await partner.list_deliveries(limit=limit)).deliveries == []


async def test_get_one_delivery(
    api: httpx.AsyncClient, pickup_body: dict[str, Any], create: CreateDelivery
) -> None:
    created = await create(api, pickup_body)
    response = await api.get(f"/deliveries/{created['id']}")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "delivery": created}


async def test_get_unknown_or_malformed_id(api: httpx.AsyncClient) -> None:
    missing = await api.get("/deliveries/00000000-0000-4000-8000-000000000000")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    malformed = await api.get("/deliveries/DLV-123")
    assert malformed.status_code == 400 and "deliveryId" in malformed.json()["fieldErrors"]


async def test_tracking_link_shape(
    api: httpx.AsyncClient, pickup_body: dict[str, Any], create: CreateDelivery
) -> None:
    first = await create(api, pickup_body)
    second = await create(api, pickup_body)
    tracking = first["tracking"]
    assert tracking["path"] == f"/track/{first['id']}/{first['access_code']}"
    assert tracking["url"] == "https://track.sandbox.invalid" + tracking["path"]
    assert tracking["access_code"] == first["access_code"]
    assert len(first["access_code"]) >= 12 and first["access_code"].isalnum()
    assert first["access_code"] != second["access_code"]


async def test_track_host_is_configurable(
    make_sandbox: Any, connect: Any, scenario_data: dict[str, Any], pickup_body: dict[str, Any],
    create: CreateDelivery,
) -> None:  # fmt: skip
    scenario_data["sandbox"]["track_url"] = "https://track.swift-lagos.example/"
    delivery = await create(connect(make_sandbox(scenario_data)), pickup_body)
    assert delivery["tracking"]["url"].startswith("https://track.swift-lagos.example/track/")
