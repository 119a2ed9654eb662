"""Every rule of POST /deliveries, each with an accepted and a rejected case."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from .support import (
    IMAGE_URL,
    WAREHOUSE_IKEJA,
    WAREHOUSE_LEKKI,
    Connect,
    CreateDelivery,
    MakeSandbox,
)

Body = dict[str, Any]


async def field_errors(api: httpx.AsyncClient, body: Body) -> dict[str, list[str]]:
    """The fieldErrors of a create that must fail with 400 validation_error."""
    response = await api.post("/deliveries", json=body)
    assert response.status_code == 400, response.text
    payload = response.json()
    assert payload["ok"] is False and payload["code"] == "validation_error"
    errors: dict[str, list[str]] = payload["fieldErrors"]
    return errors


async def accepted(api: httpx.AsyncClient, body: Body) -> Body:
    response = await api.post("/deliveries", json=body)
    assert response.status_code == 201, response.text
    delivery: Body = response.json()["delivery"]
    return delivery


def with_sandbox(
    make_sandbox: MakeSandbox, connect: Connect, data: Body, **changes: Any
) -> httpx.AsyncClient:
    """A client for the default scenario with ``capabilities`` keys replaced."""
    for path, value in changes.items():
        target = data["capabilities"]
        *parents, leaf = path.split("__")
        for parent in parents:
            target = target.setdefault(parent, {})
        target[leaf] = value
    return connect(make_sandbox(data))


# --- required fields, types, enums, lengths ----------------------------------------------------


async def test_valid_pickup_delivery_is_accepted(api: httpx.AsyncClient, pickup_body: Body) -> None:
    delivery = await accepted(api, pickup_body)
    assert delivery["service_kind"] == "pickup_delivery" and delivery["request_source"] == "api"
    assert delivery["customer"]["receiver_phone"] == "+2348098765432"
    assert delivery["pickup"] == {
        "address": "12 Herbert Macaulay Way, Yaba, Lagos",
        "latitude": 6.509,
        "longitude": 3.3792,
        "warehouse_id": None,
    }


@pytest.mark.parametrize(
    "field",
    [
        "serviceKind",
        "deliveryMode",
        "senderName",
        "senderPhone",
        "receiverName",
        "receiverPhone",
        "pickupAddress",
        "pickupCoords",
        "deliveryAddress",
        "deliveryCoords",
        "packageDescription",
        "packageSize",
        "packageImages",
        "customerCollectionMethod",
    ],
)
async def test_required_fields_of_a_pickup_delivery(
    api: httpx.AsyncClient, pickup_body: Body, field: str
) -> None:
    del pickup_body[field]
    errors = await field_errors(api, pickup_body)
    assert field in errors


async def test_errands_need_no_receiver_but_need_a_mode(
    api: httpx.AsyncClient, errand_body: Body
) -> None:
    delivery = await accepted(api, dict(errand_body))
    assert delivery["service_kind"] == "errand" and delivery["customer"]["receiver_name"] is None
    del errand_body["errandMode"]
    assert "errandMode" in await field_errors(api, errand_body)


ERRAND_FIELDS = (
    "errandMode",
    "errandLinks",
    "errandBudgetNgn",
    "errandSubstituteOk",
    "shopPhone",
    "pickupLocationUnknown",
)


@pytest.mark.parametrize("missing", ERRAND_FIELDS)
@pytest.mark.parametrize("how", ["left out", "null"])
async def test_errands_need_all_six_errand_fields(
    api: httpx.AsyncClient, errand_body: Body, missing: str, how: str
) -> None:
    if how == "null":
        errand_body[missing] = None
    else:
        del errand_body[missing]
    errors = await field_errors(api, errand_body)
    assert set(errors) == {missing}
    assert errors[missing][0].startswith("is required for errands")


async def test_every_missing_errand_field_is_named_at_once(
    api: httpx.AsyncClient, errand_body: Body
) -> None:
    for name in ERRAND_FIELDS[1:]:
        del errand_body[name]
    assert set(await field_errors(api, errand_body)) == set(ERRAND_FIELDS[1:])


async def test_errand_fields_may_be_empty_but_present(
    api: httpx.AsyncClient, errand_body: Body
) -> None:
    errand_body.update(errandLinks=[], errandBudgetNgn="", shopPhone="")
    delivery = await accepted(api, errand_body)
    assert delivery["service_kind"] == "errand"


async def test_every_problem_is_reported_at_once(api: httpx.AsyncClient, pickup_body: Body) -> None:
    pickup_body.update(senderName="", packageSize="huge", isFragile="yes", podAmount="100")
    errors = await field_errors(api, pickup_body)
    assert {"senderName", "packageSize", "isFragile", "podAmount"} <= set(errors)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("senderName", 42),
        ("senderName", "x" * 201),
        ("senderPhone", "call me"),
        ("senderPhone", "12345"),
        ("senderEmail", "not-an-email"),
        ("receiverPhone", "+234 801 234 5678 9999 00"),
        ("pickupAddress", "x" * 501),
        ("packageDescription", "   "),
        ("packageSize", "Small"),
        ("isFragile", 1),
        ("customerCollectionMethod", "bank_transfer"),
        ("deliveryMode", "drone"),
        ("distanceKm", -1),
        ("distanceKm", 10**400),
        ("estimatedDurationMinutes", "10"),
        ("pickupContactSameAsSender", "true"),
    ],
)
async def test_types_enums_and_lengths(
    api: httpx.AsyncClient, pickup_body: Body, field: str, value: Any
) -> None:
    pickup_body[field] = value
    assert field in await field_errors(api, pickup_body)


async def test_optional_fields_accept_null_and_empty_email(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body.update(
        senderEmail="",
        isFragile=None,
        pickupContactSameAsSender=True,
        pickupContactName="Gate man",
        pickupContactPhone="08031234567",
        distanceKm=7.5,
        estimatedDurationMinutes=35,
    )
    delivery = await accepted(api, pickup_body)
    assert delivery["customer"]["sender_email"] is None
    assert delivery["distance_km"] == 7.5 and delivery["estimated_duration_minutes"] == 35


async def test_unknown_fields_are_refused(api: httpx.AsyncClient, pickup_body: Body) -> None:
    pickup_body["isPodEnabled"] = True
    assert (await field_errors(api, pickup_body))["isPodEnabled"] == ["is not a known field"]


async def test_errand_fields_are_refused_on_pickup_delivery(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body["errandMode"] = "at_place"
    assert "errandMode" in await field_errors(api, pickup_body)


# --- capabilities allow-list ---------------------------------------------------------------------


async def test_disabled_kind_is_service_disabled_even_with_an_errand_object(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, errand_body: Body
) -> None:
    api = with_sandbox(
        make_sandbox, connect, scenario_data, enabledServiceKinds=["pickup_delivery"]
    )
    caps = (await api.get("/capabilities")).json()["capabilities"]
    assert "errand" in caps  # the errand object is still there; the array wins
    errand_body["senderName"] = ""  # other problems do not matter: the kind is refused first
    response = await api.post("/deliveries", json=errand_body)
    assert response.status_code == 403 and response.json()["code"] == "service_disabled"


async def test_enabled_kind_is_not_service_disabled(
    api: httpx.AsyncClient, errand_body: Body
) -> None:
    await accepted(api, errand_body)


@pytest.mark.parametrize(
    ("flag", "method"),
    [("cashOnDelivery", "cash_on_delivery"), ("onlineCheckout", "online_checkout")],
)
async def test_payment_method_flags(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    flag: str,
    method: str,
) -> None:
    api = with_sandbox(
        make_sandbox, connect, scenario_data, **{f"paymentCollection__{flag}": False}
    )
    pickup_body["customerCollectionMethod"] = method
    assert "customerCollectionMethod" in await field_errors(api, pickup_body)
    other = "online_checkout" if method == "cash_on_delivery" else "cash_on_delivery"
    pickup_body["customerCollectionMethod"] = other
    await accepted(api, pickup_body)


async def test_pod_on_pickup_delivery_when_enabled(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body.update(isPODEnabled=True, podAmount=15000)
    delivery = await accepted(api, pickup_body)
    assert delivery["payment"]["is_pod_enabled"] is True
    assert delivery["payment"]["pod_amount"] == 15000


async def test_pod_needs_an_amount(api: httpx.AsyncClient, pickup_body: Body) -> None:
    pickup_body["isPODEnabled"] = True
    assert "podAmount" in await field_errors(api, pickup_body)
    pickup_body.update(isPODEnabled=False, podAmount=500)
    assert "podAmount" in await field_errors(api, pickup_body)


async def test_pod_refused_when_disabled(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    api = with_sandbox(make_sandbox, connect, scenario_data, pod__enabled=False)
    pickup_body.update(isPODEnabled=True, podAmount=1000)
    assert "isPODEnabled" in await field_errors(api, pickup_body)


async def test_pod_refused_on_errands(api: httpx.AsyncClient, errand_body: Body) -> None:
    errand_body.update(isPODEnabled=True, podAmount=1000)
    assert "isPODEnabled" in await field_errors(api, errand_body)


def warehouse_body(
    pickup_body: Body, warehouse_id: str, address: str, lat: float, lng: float
) -> Body:
    pickup_body.update(
        deliveryMode="warehouse",
        warehouseId=warehouse_id,
        pickupAddress=address,
        pickupCoords={"lng": lng, "lat": lat},
    )
    return pickup_body


async def test_warehouse_mode_with_a_listed_warehouse(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    rows = (await api.get("/warehouses")).json()["warehouses"]
    lekki = next(row for row in rows if row["id"] == WAREHOUSE_LEKKI)
    body = warehouse_body(
        pickup_body, lekki["id"], lekki["address"], lekki["latitude"], lekki["longitude"]
    )
    delivery = await accepted(api, body)
    assert delivery["pickup"]["warehouse_id"] == WAREHOUSE_LEKKI


async def test_warehouse_mode_must_copy_the_row(api: httpx.AsyncClient, pickup_body: Body) -> None:
    body = warehouse_body(pickup_body, WAREHOUSE_IKEJA, "Somewhere else", 6.6018, 3.3515)
    assert set(await field_errors(api, body)) == {"pickupAddress"}
    body = warehouse_body(pickup_body, WAREHOUSE_IKEJA, "14 Allen Avenue, Ikeja, Lagos", 6.61, 3.35)
    assert set(await field_errors(api, body)) == {"pickupCoords"}


async def test_warehouse_mode_needs_a_known_active_warehouse(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    scenario_data["warehouses"][1]["active"] = False
    api = connect(make_sandbox(scenario_data))
    listed = [row["id"] for row in (await api.get("/warehouses")).json()["warehouses"]]
    assert listed == [WAREHOUSE_IKEJA]
    body = warehouse_body(
        pickup_body, WAREHOUSE_LEKKI, "3 Admiralty Way, Lekki Phase 1, Lagos", 6.4474, 3.4723
    )
    assert "warehouseId" in await field_errors(api, body)
    body["warehouseId"] = None
    assert "warehouseId" in await field_errors(api, body)


async def test_warehouse_mode_refused_when_not_allowed(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    api = with_sandbox(make_sandbox, connect, scenario_data, allowWarehouseDropoff=False)
    body = warehouse_body(
        pickup_body, WAREHOUSE_IKEJA, "14 Allen Avenue, Ikeja, Lagos", 6.6018, 3.3515
    )
    assert "deliveryMode" in await field_errors(api, body)


async def test_basic_plan_may_use_only_the_first_warehouse(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    scenario_data["organization"]["plan"] = "basic"
    api = connect(make_sandbox(scenario_data))
    caps = (await api.get("/capabilities")).json()["capabilities"]
    assert caps["features"]["maxWarehouses"] == 1
    second = warehouse_body(
        dict(pickup_body), WAREHOUSE_LEKKI, "3 Admiralty Way, Lekki Phase 1, Lagos", 6.4474, 3.4723
    )
    assert "only the first" in (await field_errors(api, second))["warehouseId"][0]
    first = warehouse_body(
        pickup_body, WAREHOUSE_IKEJA, "14 Allen Avenue, Ikeja, Lagos", 6.6018, 3.3515
    )
    await accepted(api, first)


async def test_warehouse_id_only_in_warehouse_mode(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body["warehouseId"] = WAREHOUSE_IKEJA
    assert "warehouseId" in await field_errors(api, pickup_body)


async def test_errand_modes_follow_the_allow_list(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, errand_body: Body
) -> None:
    api = with_sandbox(
        make_sandbox,
        connect,
        scenario_data,
        errand__enabledModes=["at_place"],
        errand__defaultMode="at_place",
    )
    await accepted(api, dict(errand_body))
    errand_body.update(errandMode="photo", packageImages=[IMAGE_URL])
    assert "errandMode" in await field_errors(api, errand_body)


async def test_link_errands_need_links(api: httpx.AsyncClient, errand_body: Body) -> None:
    errand_body["errandMode"] = "link"
    assert "errandLinks" in await field_errors(api, errand_body)
    errand_body["errandLinks"] = [
        {
            "url": "https://balogun-fabrics.example.com",
            "note": "3 yards",
            "curatedId": "link_balogun_fabrics",
        },
        {"url": "https://shop.example.com/item/9", "note": ""},
    ]
    await accepted(api, errand_body)


@pytest.mark.parametrize(
    "link",
    [
        {"url": "ftp://shop.example.com", "note": ""},
        {"url": "https://shop.example.com"},
        {"url": "https://shop.example.com", "note": "", "curatedId": "link_unknown"},
        {"url": "https://shop.example.com", "note": "", "price": 5},
        "https://shop.example.com",
    ],
)
async def test_bad_errand_links(api: httpx.AsyncClient, errand_body: Body, link: Any) -> None:
    errand_body.update(errandMode="link", errandLinks=[link])
    assert "errandLinks" in await field_errors(api, errand_body)


async def test_unknown_shop_location_needs_the_setting(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, errand_body: Body
) -> None:
    errand_body["pickupLocationUnknown"] = True
    default = connect(make_sandbox(default_data := scenario_data))
    await accepted(default, dict(errand_body))
    default_data["capabilities"]["errand"]["allowUnknownShopLocation"] = False
    strict = connect(make_sandbox(default_data))
    assert "pickupLocationUnknown" in await field_errors(strict, errand_body)


async def test_errand_budget_and_shop_phone(api: httpx.AsyncClient, errand_body: Body) -> None:
    errand_body.update(errandBudgetNgn="8,000.50", shopPhone="+234 1 234 5678")
    await accepted(api, dict(errand_body))
    errand_body["errandBudgetNgn"] = "about 8k"
    assert "errandBudgetNgn" in await field_errors(api, errand_body)


async def test_errands_use_pickup_mode(api: httpx.AsyncClient, errand_body: Body) -> None:
    errand_body.update(deliveryMode="warehouse", warehouseId=WAREHOUSE_IKEJA)
    assert "deliveryMode" in await field_errors(api, errand_body)


# --- coordinates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "coords",
    [
        {"lng": 0, "lat": 0},
        {"lng": 3.4, "lat": 91},
        {"lng": 181, "lat": 6.5},
        {"lng": "3.4", "lat": "6.5"},
        {"lng": 3.4},
        {"lng": 3.4, "lat": 6.5, "alt": 10},
        [3.4, 6.5],
        {"lng": True, "lat": 6.5},
        {"lng": 10**400, "lat": 6.5},
    ],
)
async def test_coordinates_must_be_real(
    api: httpx.AsyncClient, pickup_body: Body, coords: Any
) -> None:
    pickup_body["deliveryCoords"] = coords
    assert "deliveryCoords" in await field_errors(api, pickup_body)


async def test_nan_and_infinity_are_not_numbers(api: httpx.AsyncClient, pickup_body: Body) -> None:
    text = json.dumps(pickup_body)[:-1] + ', "distanceKm": NaN, "podAmount": Infinity}'
    pickup_body["deliveryCoords"] = {"lng": "__nan__", "lat": 6.5}
    response = await api.post(
        "/deliveries", content=text, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert {"distanceKm", "podAmount"} <= set(response.json()["fieldErrors"])
    coords = json.dumps(pickup_body).replace('"__nan__"', "NaN")
    response = await api.post(
        "/deliveries", content=coords, headers={"Content-Type": "application/json"}
    )
    assert "deliveryCoords" in response.json()["fieldErrors"]


async def test_integer_coordinates_are_numbers(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    scenario_data["coverage"] = {"mode": "worldwide"}
    api = connect(make_sandbox(scenario_data))
    pickup_body["deliveryCoords"] = {"lng": 3, "lat": 7}
    delivery = await accepted(api, pickup_body)
    assert (delivery["dropoff"]["longitude"], delivery["dropoff"]["latitude"]) == (3, 7)


# --- images (count rules; hosts and downloads are in test_images) -------------------------------


async def test_image_count_rules(
    api: httpx.AsyncClient, pickup_body: Body, errand_body: Body
) -> None:
    pickup_body["packageImages"] = []
    assert "packageImages" in await field_errors(api, dict(pickup_body))
    pickup_body["packageImages"] = [IMAGE_URL] * 7
    assert "packageImages" in await field_errors(api, dict(pickup_body))
    pickup_body["packageImages"] = [IMAGE_URL] * 6
    assert len((await accepted(api, pickup_body))["id"]) == 36
    errand_body.update(errandMode="photo", packageImages=[])
    assert "packageImages" in await field_errors(api, dict(errand_body))
    errand_body["packageImages"] = [IMAGE_URL]
    await accepted(api, errand_body)


async def test_images_must_be_an_array_of_strings(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body["packageImages"] = IMAGE_URL
    assert "packageImages" in await field_errors(api, dict(pickup_body))
    pickup_body["packageImages"] = [{"url": IMAGE_URL}]
    assert "packageImages" in await field_errors(api, pickup_body)


# --- idempotency key length --------------------------------------------------------------------


@pytest.mark.parametrize(("length", "ok"), [(7, False), (8, True), (120, True), (121, False)])
async def test_idempotency_key_length(
    api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery, length: int, ok: bool
) -> None:
    pickup_body["idempotencyKey"] = "k" * length
    if ok:
        await create(api, pickup_body)
    else:
        assert "idempotencyKey" in await field_errors(api, pickup_body)


@pytest.mark.parametrize("key", ["", "   ", " abc  ", 12345678, ["order-0001"]])
async def test_an_empty_blank_or_non_text_key_is_refused_not_ignored(
    api: httpx.AsyncClient, pickup_body: Body, key: Any
) -> None:
    # Read as "no key", a blank key would let a retried create make a second delivery.
    pickup_body["idempotencyKey"] = key
    assert "idempotencyKey" in await field_errors(api, pickup_body)


async def test_the_key_is_used_exactly_as_sent(
    manual_api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    spaced = await create(manual_api, pickup_body | {"idempotencyKey": "  order-17  "})
    again = await create(manual_api, pickup_body | {"idempotencyKey": "  order-17  "})
    trimmed = await create(manual_api, pickup_body | {"idempotencyKey": "order-17"})
    blank = await create(manual_api, pickup_body | {"idempotencyKey": " " * 8})
    assert again["id"] == spaced["id"]
    assert len({spaced["id"], trimmed["id"], blank["id"]}) == 3


# --- body shape --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content", [b"{not json", b"[1, 2]", b"", b'"text"', b"\xff\xfe", b"[" * 100_000]
)
async def test_body_must_be_a_json_object(api: httpx.AsyncClient, content: bytes) -> None:
    response = await api.post(
        "/deliveries", content=content, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    # Every create validation_error carries fieldErrors, this one included.
    assert response.json()["fieldErrors"] == {"body": ["must be a JSON object"]}
