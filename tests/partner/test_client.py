"""PartnerClient: the request each endpoint sends, what it parses, local checks, failures."""

from __future__ import annotations

import json
import logging
import math
import traceback

import httpx
import pytest

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import Capabilities, Delivery, DeliveryPage, Rider
from bot.partner.options import ClientOptions
from bot.partner.transport import surely_unsent

# --- every endpoint, under both auth header styles -------------------------------------------


@pytest.fixture(params=["bearer", "x-api-key"])
def auth_style(request):
    return request.param


@pytest.fixture
def authed(make_client, auth_style):
    return make_client(options=ClientOptions(auth_header=auth_style))


@pytest.fixture
def check_auth(auth_style, api_key):
    def check(request: httpx.Request) -> None:
        if auth_style == "bearer":
            assert request.headers["authorization"] == f"Bearer {api_key}"
            assert "x-api-key" not in request.headers
        else:
            assert request.headers["x-api-key"] == api_key
            assert "authorization" not in request.headers
        assert request.headers["accept"] == "application/json"
        assert request.headers["user-agent"].startswith("deliverybot/")

    return check


def only_request(api) -> httpx.Request:
    assert len(api.requests) == 1
    return api.requests[0]


async def test_get_capabilities(authed, api, payloads, check_auth):
    api.on(
        "GET",
        "/capabilities",
        api.reply(200, {"ok": True, "capabilities": payloads.capabilities()}),
    )
    capabilities = await authed.get_capabilities()
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path, request.content) == (
        "GET",
        "/api/v1/capabilities",
        b"",
    )
    assert isinstance(capabilities, Capabilities)
    assert capabilities.organization.slug == "lagos-runners"
    assert capabilities.rateLimits.requestsPerMinute == 180


async def test_list_warehouses(authed, api, payloads, check_auth):
    api.on("GET", "/warehouses", api.reply(200, {"ok": True, "warehouses": [payloads.warehouse()]}))
    warehouses = await authed.list_warehouses()
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("GET", "/api/v1/warehouses")
    assert [w.name for w in warehouses] == ["Main hub"]
    assert warehouses[0].coords is not None


async def test_list_service_locations(authed, api, payloads, check_auth):
    body = {"ok": True, "serviceLocations": [payloads.service_location()]}
    api.on("GET", "/service-locations", api.reply(200, body))
    locations = await authed.list_service_locations()
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("GET", "/api/v1/service-locations")
    assert locations[0].unit.choices() == ["Porter's lodge", "A001", "A002", "A003"]


async def test_create_delivery(authed, api, payloads, check_auth):
    api.on("POST", "/deliveries", api.reply(201, {"ok": True, "delivery": payloads.delivery()}))
    delivery = await authed.create_delivery(payloads.create_request(idempotencyKey="order-0001"))
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("POST", "/api/v1/deliveries")
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.content) == {
        "serviceKind": "pickup_delivery",
        "deliveryMode": "pickup",
        "senderName": "Ada",
        "senderPhone": "+2348000000001",
        "senderEmail": "",
        "receiverName": "Bola",
        "receiverPhone": "+2348000000002",
        "pickupAddress": "1 Marina, Lagos",
        "pickupCoords": {"lng": 3.39, "lat": 6.45},
        "deliveryAddress": "2 Herbert Macaulay Way, Yaba",
        "deliveryCoords": {"lng": 3.37, "lat": 6.51},
        "packageDescription": "A pair of shoes",
        "packageSize": "small",
        "packageImages": ["https://media.test/p/1.jpg"],
        "customerCollectionMethod": "cash_on_delivery",
        "idempotencyKey": "order-0001",
    }
    assert isinstance(delivery, Delivery)
    assert delivery.tracking_url == "https://track.test/track/dlv_123/AC12"


async def test_get_delivery(authed, api, payloads, check_auth):
    api.on(
        "GET", "/deliveries/dlv_123", api.reply(200, {"ok": True, "delivery": payloads.delivery()})
    )
    delivery = await authed.get_delivery("dlv_123")
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("GET", "/api/v1/deliveries/dlv_123")
    assert delivery.id == "dlv_123"
    assert delivery.payment is not None and delivery.payment.delivery_fee == 2500


async def test_list_deliveries(authed, api, payloads, check_auth):
    body = {"ok": True, "deliveries": [payloads.delivery()], "next_cursor": "c-2"}
    api.on("GET", "/deliveries", api.reply(200, body))
    page = await authed.list_deliveries(limit=10, status="pending", cursor="c-1")
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("GET", "/api/v1/deliveries")
    assert dict(request.url.params) == {"limit": "10", "status": "pending", "cursor": "c-1"}
    assert isinstance(page, DeliveryPage)
    assert [d.id for d in page.deliveries] == ["dlv_123"]
    assert page.next_cursor == "c-2"


async def test_list_deliveries_sends_no_query_by_default(client, api):
    api.on(
        "GET", "/deliveries", api.reply(200, {"ok": True, "deliveries": [], "next_cursor": None})
    )
    page = await client.list_deliveries()
    assert only_request(api).url.query == b""
    assert page.deliveries == [] and page.next_cursor is None


async def test_cancel_delivery(authed, api, payloads, check_auth):
    cancelled = payloads.delivery(status="cancelled", cancellation_reason="Changed my mind")
    api.on(
        "POST", "/deliveries/dlv_123/cancel", api.reply(200, {"ok": True, "delivery": cancelled})
    )
    delivery = await authed.cancel_delivery("dlv_123", "  Changed my mind ")
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("POST", "/api/v1/deliveries/dlv_123/cancel")
    assert json.loads(request.content) == {"reason": "Changed my mind"}
    assert delivery.status == "cancelled"


async def test_cancel_accepts_the_reduced_body(client, api):
    reduced = {"ok": True, "delivery": {"id": "dlv_123", "status": "cancelled"}}
    api.on("POST", "/deliveries/dlv_123/cancel", api.reply(200, reduced))
    delivery = await client.cancel_delivery("dlv_123", "Customer asked")
    assert (delivery.id, delivery.status, delivery.is_partial) == ("dlv_123", "cancelled", True)


async def test_list_riders(authed, api, payloads, check_auth):
    api.on("GET", "/riders", api.reply(200, {"ok": True, "riders": [payloads.rider()]}))
    riders = await authed.list_riders(pickup_lat=6.45, pickup_lng=3.39, radius_km=5, idle_only=True)
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("GET", "/api/v1/riders")
    assert dict(request.url.params) == {
        "pickup_lat": "6.45",
        "pickup_lng": "3.39",
        "radius_km": "5.0",
        "idle_only": "true",
    }
    assert isinstance(riders[0], Rider)
    assert riders[0].location is not None and riders[0].location.fresh


async def test_list_riders_without_filters_sends_no_query(client, api):
    api.on("GET", "/riders", api.reply(200, {"ok": True, "riders": []}))
    assert await client.list_riders() == []
    assert only_request(api).url.query == b""


async def test_assign_rider(authed, api, payloads, check_auth):
    matched = payloads.delivery(
        status="matched", rider_assigned=True, rider={"id": "rdr_1", "name": "Tunde"}
    )
    api.on("POST", "/deliveries/dlv_123/assign", api.reply(200, {"ok": True, "delivery": matched}))
    delivery = await authed.assign_rider("dlv_123", "rdr_1")
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("POST", "/api/v1/deliveries/dlv_123/assign")
    assert json.loads(request.content) == {"riderId": "rdr_1"}
    assert delivery.rider is not None and delivery.rider.id == "rdr_1"


async def test_unassign_rider(authed, api, payloads, check_auth):
    pending = payloads.delivery(status="pending")
    api.on(
        "POST", "/deliveries/dlv_123/unassign", api.reply(200, {"ok": True, "delivery": pending})
    )
    delivery = await authed.unassign_rider("dlv_123")
    request = only_request(api)
    check_auth(request)
    assert (request.method, request.url.path) == ("POST", "/api/v1/deliveries/dlv_123/unassign")
    assert request.content == b""
    assert delivery.rider_assigned is False


async def test_delivery_ids_are_path_escaped(client, api, payloads):
    api.on(
        "GET", "/deliveries/a/b c?", api.reply(200, {"ok": True, "delivery": payloads.delivery()})
    )
    await client.get_delivery("a/b c?")
    assert only_request(api).url.raw_path == b"/api/v1/deliveries/a%2Fb%20c%3F"


# --- paging -----------------------------------------------------------------------------------


async def test_iter_deliveries_follows_cursors_to_the_end(client, api, payloads):
    pages = {
        None: (["d1", "d2"], "c1"),
        "c1": (["d3"], "c2"),
        "c2": (["d4"], None),
    }

    def page(request: httpx.Request) -> httpx.Response:
        ids, following = pages[request.url.params.get("cursor")]
        deliveries = [payloads.delivery(id=i, status="matched") for i in ids]
        return api.reply(200, {"ok": True, "deliveries": deliveries, "next_cursor": following})

    api.on("GET", "/deliveries", page)
    seen = [d.id async for d in client.iter_deliveries(status="matched", page_size=2)]
    assert seen == ["d1", "d2", "d3", "d4"]
    assert [dict(r.url.params) for r in api.requests] == [
        {"limit": "2", "status": "matched"},
        {"limit": "2", "status": "matched", "cursor": "c1"},
        {"limit": "2", "status": "matched", "cursor": "c2"},
    ]


async def test_iter_deliveries_stops_on_a_repeated_cursor(client, api, payloads):
    body = {"ok": True, "deliveries": [payloads.delivery()], "next_cursor": "same"}
    api.on("GET", "/deliveries", api.reply(200, body))
    with pytest.raises(errors.PartnerError, match="repeated a page cursor"):
        async for _ in client.iter_deliveries():
            pass
    assert len(api.requests) == 2


# --- parameters checked before sending ----------------------------------------------------------

LOCAL_REJECTIONS = [
    ("limit 0", lambda c: c.list_deliveries(limit=0), "limit"),
    ("limit 51", lambda c: c.list_deliveries(limit=51), "limit"),
    ("limit bool", lambda c: c.list_deliveries(limit=True), "limit"),
    ("empty cursor", lambda c: c.list_deliveries(cursor=""), "cursor"),
    ("page size 0", lambda c: anext(c.iter_deliveries(page_size=0)), "limit"),
    ("lat alone", lambda c: c.list_riders(pickup_lat=6.4), "pickup_lng"),
    ("lng alone", lambda c: c.list_riders(pickup_lng=3.4), "pickup_lat"),
    ("radius alone", lambda c: c.list_riders(radius_km=5), "radius_km"),
    (
        "radius 501",
        lambda c: c.list_riders(pickup_lat=6.4, pickup_lng=3.4, radius_km=501),
        "radius_km",
    ),
    (
        "radius -1",
        lambda c: c.list_riders(pickup_lat=6.4, pickup_lng=3.4, radius_km=-1),
        "radius_km",
    ),
    (
        "radius nan",
        lambda c: c.list_riders(pickup_lat=6.4, pickup_lng=3.4, radius_km=math.nan),
        "radius_km",
    ),
    ("lat 91", lambda c: c.list_riders(pickup_lat=91, pickup_lng=3.4), "pickup_lat"),
    ("reason short", lambda c: c.cancel_delivery("d1", "no"), "reason"),
    ("reason blank", lambda c: c.cancel_delivery("d1", "  ab   "), "reason"),
    ("reason long", lambda c: c.cancel_delivery("d1", "x" * 501), "reason"),
    ("empty id", lambda c: c.get_delivery(""), "deliveryId"),
    ("dot-dot id", lambda c: c.cancel_delivery("..", "Changed my mind"), "deliveryId"),
    ("empty rider", lambda c: c.assign_rider("d1", " "), "riderId"),
]


@pytest.mark.parametrize(
    ("call", "field"), [c[1:] for c in LOCAL_REJECTIONS], ids=[c[0] for c in LOCAL_REJECTIONS]
)
async def test_out_of_range_parameters_never_reach_the_wire(client, api, call, field):
    with pytest.raises(errors.InvalidFields) as caught:
        await call(client)
    assert caught.value.status == 0
    assert field in caught.value.field_errors
    assert "checked before sending" in str(caught.value)
    assert api.requests == []


async def test_boundary_parameters_are_sent(client, api):
    api.on("GET", "/deliveries", api.reply(200, {"ok": True, "deliveries": []}))
    api.on("GET", "/riders", api.reply(200, {"ok": True, "riders": []}))
    await client.list_deliveries(limit=1)
    await client.list_deliveries(limit=50)
    await client.list_riders(pickup_lat=6.4, pickup_lng=3.4, radius_km=0)
    await client.list_riders(pickup_lat=6.4, pickup_lng=3.4, radius_km=500)
    assert len(api.requests) == 4


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda r: setattr(r, "idempotencyKey", "short"), "idempotencyKey"),
        (lambda r: setattr(r, "idempotencyKey", "k" * 121), "idempotencyKey"),
        (lambda r: r.packageImages.extend(["https://media.test/x.jpg"] * 6), "packageImages"),
        (lambda r: r.packageImages.append("http://media.test/x.jpg"), "packageImages"),
        (lambda r: setattr(r, "isPODEnabled", True), "podAmount"),
        (lambda r: setattr(r, "warehouseId", "wh-1"), "warehouseId"),
    ],
    ids=["key too short", "key too long", "7 images", "http image", "pod", "warehouse id"],
)
async def test_a_create_request_changed_after_it_was_built_is_checked_again(
    client, api, payloads, mutate, field
):
    request = payloads.create_request()
    mutate(request)  # request models do not validate assignment
    with pytest.raises(errors.InvalidFields) as caught:
        await client.create_delivery(request)
    assert field in caught.value.field_errors
    assert api.requests == []


# --- answers that are not what they should be ----------------------------------------------------


async def test_a_2xx_body_that_is_not_json_is_a_clear_error(client, api):
    api.on(
        "GET", "/capabilities", api.reply(200, "<html>login</html>", {"content-type": "text/html"})
    )
    with pytest.raises(errors.PartnerError) as caught:
        await client.get_capabilities()
    assert type(caught.value) is errors.PartnerError
    assert caught.value.status == 200
    assert "unreadable body (text/html" in str(caught.value)


async def test_a_2xx_body_of_the_wrong_shape_names_the_fields_not_the_values(client, api):
    secret_ish = "+2348000000009"
    api.on("GET", "/deliveries/d1", api.reply(200, {"ok": True, "delivery": {"id": secret_ish}}))
    with pytest.raises(errors.PartnerError) as caught:
        await client.get_delivery("d1")
    assert "delivery.status" in caught.value.message
    assert secret_ish not in str(caught.value)


@pytest.mark.parametrize(
    ("raised", "mapped", "unsent"),
    [
        (httpx.ConnectError("refused"), errors.ConnectionFailed, True),
        (httpx.RemoteProtocolError("server disconnected"), errors.ConnectionFailed, False),
        (httpx.ReadError("reset by peer"), errors.ConnectionFailed, False),
        (httpx.ConnectTimeout("slow"), errors.RequestTimeout, True),
        (httpx.ReadTimeout("slow"), errors.RequestTimeout, False),
        (httpx.PoolTimeout("busy"), errors.RequestTimeout, True),
        (httpx.UnsupportedProtocol("odd"), errors.PartnerUnreachable, False),
    ],
)
async def test_httpx_failures_are_mapped_once_at_the_boundary(
    make_client, api, api_key, raised, mapped, unsent
):
    client = make_client(options=ClientOptions(max_attempts=1))
    api.on("GET", "/warehouses", raised)
    with pytest.raises(errors.PartnerError) as caught:
        await client.list_warehouses()
    assert type(caught.value) is mapped
    assert isinstance(caught.value, errors.PartnerUnreachable)
    assert caught.value.surely_unsent is unsent
    assert surely_unsent(caught.value) is unsent
    # Not chained: the httpx error's request holds the key in its headers.
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    assert caught.value.status == 0
    for text in (str(caught.value), repr(caught.value)):
        assert api_key not in text
        assert "partner.test" not in text


async def test_error_answers_go_through_the_error_tree(client, api):
    api.on("GET", "/deliveries/d1", api.error(404, "not_found", "Delivery not found"))
    with pytest.raises(errors.NotFound) as caught:
        await client.get_delivery("d1")
    assert (caught.value.status, caught.value.code) == (404, "not_found")


@pytest.mark.parametrize(
    ("path", "call"),
    [
        ("/deliveries", lambda c, p: c.create_delivery(p.create_request())),
        ("/deliveries/d1/cancel", lambda c, p: c.cancel_delivery("d1", "Changed my mind")),
    ],
)
async def test_an_unknown_403_is_a_create_rejection_only_on_create(
    client, api, payloads, path, call
):
    api.on("POST", path, api.error(403, "outside_coverage", "Dropoff is outside coverage"))
    with pytest.raises(errors.ForbiddenError) as caught:
        await call(client, payloads)
    on_create = path == "/deliveries"
    assert isinstance(caught.value, errors.CreateRejected) is on_create
    assert caught.value.code == "outside_coverage"
    assert caught.value.invalidates_capabilities is on_create


# --- the key stays secret ------------------------------------------------------------------------


async def test_the_key_never_shows_in_repr_str_errors_or_logs(client, api, api_key, caplog):
    caplog.set_level(logging.DEBUG)
    api.on(
        "GET",
        "/capabilities",
        api.error(503, "capabilities_failed"),
        api.error(401, "invalid_api_key", f"Unknown key {api_key}"),
    )
    with pytest.raises(errors.InvalidApiKey) as caught:
        await client.get_capabilities()
    texts = [repr(client), str(client), str(caught.value), repr(caught.value), caught.value.message]
    texts += [str(vars(client)), caplog.text]
    assert all(api_key not in text for text in texts)
    assert "<redacted>" in caught.value.message
    assert "api_key=<redacted>" in repr(client)


def _everything_a_failure_can_show(error: BaseException) -> list[str]:
    """Every text a log line or crash report could make of ``error``: str, repr, the chained
    exceptions, the formatted traceback and the repr of every local of every frame in it."""
    texts = [str(error), repr(error), "".join(traceback.format_exception(error))]
    chained: BaseException | None = error
    while chained is not None:
        texts += [str(chained), repr(chained), repr(getattr(chained, "request", None))]
        chained = chained.__cause__ or chained.__context__
    # The first frame is the test's own, which holds the key as a fixture.
    tb = error.__traceback__.tb_next if error.__traceback__ else None
    while tb is not None:
        texts += [
            f"{tb.tb_frame.f_code.co_name}: {value!r}" for value in tb.tb_frame.f_locals.values()
        ]
        tb = tb.tb_next
    return texts


@pytest.mark.parametrize(
    "raised",
    [httpx.ReadTimeout("slow"), httpx.ConnectError("refused"), httpx.RemoteProtocolError("cut")],
)
async def test_a_transport_failure_carries_no_trace_of_the_key(
    make_client, api, api_key, auth_style, raised
):
    client = make_client(options=ClientOptions(auth_header=auth_style, max_attempts=1))

    def fail(request: httpx.Request) -> httpx.Response:
        # The way httpx raises it: the request, auth header and all, rides on the exception.
        raised.request = request
        raise raised

    api.on("GET", "/deliveries/d1", fail)
    with pytest.raises(errors.PartnerUnreachable) as caught:
        await client.get_delivery("d1")
    assert api.requests, "the request was sent, so the key was in play"
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    for text in _everything_a_failure_can_show(caught.value):
        assert api_key not in text


async def test_the_key_is_redacted_before_the_message_is_shortened(client, api, api_key):
    # The key straddles the 300-character cut: shortening first would leave part of it.
    message = "x" * 285 + f" key {api_key} is unknown"
    api.on(
        "GET",
        "/capabilities",
        api.error(401, "invalid_api_key", message, fieldErrors={api_key: [f"bad {api_key}"]}),
    )
    with pytest.raises(errors.InvalidApiKey) as caught:
        await client.get_capabilities()
    secret_part = api_key.removeprefix("sk_live_")
    shown = [str(caught.value), repr(caught.value), repr(caught.value.field_errors)]
    assert all(secret_part[:6] not in text for text in shown)
    assert caught.value.field_errors == {"<redacted>": ["bad <redacted>"]}
    assert caught.value.message.endswith(" key <redacted>")


@pytest.mark.parametrize(
    ("path", "call", "message"),
    [
        ("/capabilities", lambda c: c.get_capabilities(), "not found"),
        ("/warehouses", lambda c: c.list_warehouses(), "not found"),
        ("/deliveries/d1", lambda c: c.get_delivery("d1"), "no such delivery"),
    ],
)
async def test_a_404_without_a_message_names_what_was_missing(client, api, path, call, message):
    # GET /capabilities answers 404 with no code when the org is missing (spec).
    api.on("GET", path, api.reply(404, {"ok": False}))
    with pytest.raises(errors.NotFound) as caught:
        await call(client)
    assert caught.value.message == message


async def test_a_key_with_spaces_is_refused_without_echoing_it(base_url):
    with pytest.raises(ValueError) as caught:
        PartnerClient(base_url, "sk_live_ leaked")
    assert "leaked" not in str(caught.value)


@pytest.mark.parametrize(
    "url", ["ftp://partner.test/api/v1", "partner.test/api/v1", "https://u:p@partner.test/api/v1"]
)
def test_base_url_must_be_a_plain_http_url(url, api_key):
    with pytest.raises(ValueError, match="base_url"):
        PartnerClient(url, api_key)


async def test_the_client_is_an_async_context_manager(base_url, api_key, api, payloads):
    api.on("GET", "/warehouses", api.reply(200, {"ok": True, "warehouses": []}))
    async with PartnerClient(base_url, api_key, transport=httpx.MockTransport(api)) as client:
        assert await client.list_warehouses() == []
    with pytest.raises(RuntimeError, match="closed"):
        await client.list_warehouses()
