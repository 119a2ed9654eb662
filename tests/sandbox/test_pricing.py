from __future__ import annotations

from typing import Any

import pytest

from bot.sandbox.pricing import quote
from bot.sandbox.scenario_parts import PricingSettings, PublicRequestSettings
from bot.sandbox.validated_order import CreateOrder

from .support import Connect, CreateDelivery, MakeSandbox


def order(kind: str = "pickup_delivery", km_east: float = 0.1) -> CreateOrder:
    # At the equator-ish latitude of Lagos one degree of longitude is about 110.6 km.
    return CreateOrder(
        service_kind=kind, delivery_mode="pickup", warehouse_id=None, sender_name="A",
        sender_phone="+2348012345678", sender_email=None, pickup_contact_same_as_sender=None,
        pickup_contact_name=None, pickup_contact_phone=None, receiver_name="B",
        receiver_phone="+2348012345679", pickup_address="a", pickup_lat=6.5, pickup_lng=3.3,
        delivery_address="b", delivery_lat=6.5, delivery_lng=3.3 + km_east / 110.6,
        package_description="box", package_size="small", is_fragile=False, pod_enabled=False,
        pod_amount=None, package_images=(), collection_method="cash_on_delivery",
        idempotency_key=None, errand=None, distance_km=None, duration_minutes=None,
    )  # fmt: skip


RULES = {
    "round_to": 50,
    "rules": [
        {"name": "off", "enabled": False, "base_fee": 1},
        {"name": "errands", "service_kinds": ["errand"], "base_fee": 3000},
        {
            "name": "short",
            "max_distance_km": 10,
            "base_fee": 1000,
            "per_km": 150,
            "minimum_fee": 1500,
        },
        {"name": "long", "max_distance_km": 40, "base_fee": 2000, "per_km": 120},
    ],
}


@pytest.mark.parametrize(
    ("kind", "km", "fee"),
    [
        ("pickup_delivery", 1, 1500),  # minimum fee
        ("pickup_delivery", 6, 1900),  # 1000 + 900
        ("pickup_delivery", 6.1, 1950),  # 1915 rounded up to a multiple of 50
        ("pickup_delivery", 20, 4400),  # the second matching rule
        ("pickup_delivery", 45, None),  # no rule covers it
        ("errand", 45, 3000),  # first rule for errands
    ],
)
def test_first_matching_rule_sets_the_fee(kind: str, km: float, fee: float | None) -> None:
    assert quote(PricingSettings.model_validate(RULES), order(kind, km)) == fee


def test_no_rules_means_no_fee() -> None:
    assert quote(PricingSettings(), order()) is None


async def test_without_a_fee_the_delivery_awaits_a_price(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: dict[str, Any],
    pickup_body: dict[str, Any],
    create: CreateDelivery,
) -> None:
    scenario_data["pricing"]["rules"] = []
    api = connect(make_sandbox(scenario_data))
    delivery = await create(api, pickup_body)
    assert delivery["status"] == "awaiting_price"
    assert delivery["payment"]["delivery_fee"] is None and delivery["rider_assigned"] is False


async def test_with_a_fee_the_delivery_is_pending(
    manual_api: Any, pickup_body: dict[str, Any], create: CreateDelivery
) -> None:
    delivery = await create(manual_api, pickup_body)
    assert delivery["status"] == "pending"
    assert delivery["payment"]["delivery_fee"] == 2400  # 1000 + 150 x 9.2 km, up to 50
    assert delivery["payment"]["currency_code"] == "NGN"
    assert delivery["payment"]["delivery_payment_status"] == "unpaid"


async def test_approval_required_waits_for_staff_even_when_a_rule_prices_it(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: dict[str, Any],
    pickup_body: dict[str, Any],
    create: CreateDelivery,
) -> None:
    scenario_data["capabilities"]["publicRequest"]["requireApproval"] = True
    box = make_sandbox(scenario_data)
    api = connect(box)
    capabilities = (await api.get("/capabilities")).json()["capabilities"]
    assert capabilities["publicRequest"]["requireApproval"] is True
    delivery = await create(api, pickup_body)  # the "Lagos standard" rule covers this trip
    assert delivery["status"] == "awaiting_price"
    assert delivery["payment"]["delivery_fee"] is None and delivery["rider_assigned"] is False
    refused = await api.post(f"/deliveries/{delivery['id']}/assign", json={"riderId": "rdr_tunde"})
    assert refused.json()["code"] == "fee_required"  # not before staff approve it
    approved = box.set_fee(delivery["id"], 2400)
    assert approved["status"] == "pending" and approved["payment"]["delivery_fee"] == 2400


@pytest.mark.parametrize(
    ("mode", "amount", "km", "fee"),
    [
        ("fixed", 2000, 1, 2000.0),  # the rule says 1,500; the business charges a fixed 2,000
        ("fixed", 2000, 20, 2000.0),
        ("fixed", 2000, 45, None),  # fixed pricing does not cover a job no rule covers
        ("starting_from", 1800, 1, 1800.0),  # never below the advertised starting amount
        ("starting_from", 1800, 20, 4400.0),
        ("quote_on_review", 2000, 1, 1500.0),
        ("hidden", 2000, 1, 1500.0),
        ("fixed", 0, 1, 1500.0),  # no amount set: the rules decide
    ],
)
def test_public_pricing_has_the_last_word(
    mode: str, amount: float, km: float, fee: float | None
) -> None:
    public = PublicRequestSettings(pricingMode=mode, pricingAmountNgn=amount)
    assert quote(PricingSettings.model_validate(RULES), order("pickup_delivery", km), public) == fee
