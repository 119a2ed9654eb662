"""The API's vocabulary: responses parse leniently, requests enforce the spec's rules."""

from __future__ import annotations

import re

import pydantic
import pytest

from bot.partner.models import (
    ERRAND_FIELDS,
    Capabilities,
    Coords,
    CreateDeliveryRequest,
    Delivery,
    DeliveryResponse,
    LocationUnit,
    Rider,
    ServiceLocation,
    ServiceLocationsResponse,
    UnitRange,
    WebhookEvent,
)
from tests.support.partner_json import otp_json


def test_the_reduced_cancel_body_parses():
    delivery = DeliveryResponse.model_validate(
        {"ok": True, "delivery": {"id": "d1", "status": "cancelled"}}
    ).delivery
    assert (delivery.id, delivery.status, delivery.is_partial) == ("d1", "cancelled", True)
    assert delivery.tracking_url is None and delivery.rider is None


def test_a_full_delivery_is_not_partial(payloads):
    delivery = Delivery.model_validate(payloads.delivery())
    assert not delivery.is_partial
    assert delivery.customer is not None and delivery.customer.receiver_name == "Bola"


def test_open_enums_accept_unknown_strings(payloads):
    delivery = Delivery.model_validate(
        payloads.delivery(
            status="returned_to_sender",
            service_kind="same_day_freight",
            request_source="partner_portal",
            package={"size": "pallet", "is_fragile": True},
            payment={"customer_collection_method": "bank_transfer"},
        )
    )
    assert delivery.status == "returned_to_sender"
    assert delivery.service_kind == "same_day_freight"
    assert delivery.request_source == "partner_portal"
    assert delivery.package is not None and delivery.package.size == "pallet"
    assert delivery.payment is not None
    assert delivery.payment.customer_collection_method == "bank_transfer"


def test_unknown_response_fields_are_ignored(payloads):
    delivery = Delivery.model_validate(payloads.delivery(brand_new_field={"x": 1}))
    assert not hasattr(delivery, "brand_new_field")


def test_missing_capability_values_mean_not_allowed():
    capabilities = Capabilities.model_validate(
        {"organization": {"id": "o", "name": "Org", "slug": "org"}, "plan": "basic"}
    )
    assert capabilities.enabledServiceKinds == []
    assert not capabilities.allows_kind("pickup_delivery")
    assert capabilities.errand_modes == []
    assert capabilities.collection_methods == []
    assert not capabilities.allowWarehouseDropoff
    assert not capabilities.pod.enabled
    assert not capabilities.features.serviceLocations
    assert not capabilities.publicRequest.autoDispatch
    assert capabilities.rateLimits.requestsPerMinute is None


def test_unknown_allow_list_entries_are_dropped(payloads):
    capabilities = Capabilities.model_validate(
        payloads.capabilities(
            enabledServiceKinds=["pickup_delivery", "freight", 7],
            defaultServiceKind="freight",
            errand={"enabledModes": ["voice_note", "link"], "defaultMode": "voice_note"},
        )
    )
    assert capabilities.enabledServiceKinds == ["pickup_delivery"]
    assert capabilities.defaultServiceKind is None
    assert capabilities.errand is not None
    assert capabilities.errand.enabledModes == ["link"]
    assert capabilities.errand.defaultMode is None


def test_known_defaults_are_kept(payloads):
    capabilities = Capabilities.model_validate(payloads.capabilities())
    assert capabilities.defaultServiceKind == "pickup_delivery"
    assert capabilities.errand is not None and capabilities.errand.defaultMode == "at_place"


@pytest.mark.parametrize(
    ("changes", "read", "value"),
    [
        ({"plan": "enterprise"}, lambda c: c.plan, "enterprise"),
        ({"paymentTiming": "on_invoice"}, lambda c: c.paymentTiming, "on_invoice"),
        ({"coverage": {"mode": "polygon"}}, lambda c: c.coverage.mode, "polygon"),
        (
            {"publicRequest": {"pricingMode": "per_item"}},
            lambda c: c.publicRequest.pricingMode,
            "per_item",
        ),
    ],
    ids=["plan", "paymentTiming", "coverage.mode", "pricingMode"],
)
def test_new_descriptive_capability_values_parse(payloads, changes, read, value):
    assert read(Capabilities.model_validate(payloads.capabilities(**changes))) == value


def test_a_new_rider_presence_parses(payloads):
    assert Rider.model_validate(payloads.rider(presence="offline")).presence == "offline"


def test_a_new_service_location_category_parses(payloads):
    location = ServiceLocation.model_validate(payloads.service_location(category="canteen"))
    assert location.category == "canteen"


def test_a_saved_place_the_bot_cannot_read_leaves_the_others_usable(payloads):
    readable = payloads.service_location()
    unreadable = payloads.service_location(id="sl_unreadable")
    unreadable["unit"] = {**unreadable.get("unit", {}), "mode": "voice_directions"}
    answer = ServiceLocationsResponse.model_validate(
        {"ok": True, "serviceLocations": [unreadable, readable]}
    )
    assert [location.id for location in answer.serviceLocations] == [readable["id"]]


def test_request_enums_stay_strict(payloads):
    with pytest.raises(pydantic.ValidationError, match="errandMode"):
        payloads.create_request(**{**ERRAND, "errandMode": "voice_note"})
    with pytest.raises(pydantic.ValidationError, match="packageSize"):
        payloads.create_request(packageSize="pallet")


def test_enabled_kinds_win_over_an_errand_object(payloads):
    capabilities = Capabilities.model_validate(
        payloads.capabilities(enabledServiceKinds=["pickup_delivery"])
    )
    assert capabilities.errand is not None
    assert capabilities.errand_modes == []
    assert capabilities.collection_methods == ["cash_on_delivery", "online_checkout"]


# --- CreateDeliveryRequest ----------------------------------------------------------------------


def test_a_complete_pickup_delivery_request_is_accepted(payloads):
    request = payloads.create_request()
    wire = request.to_wire()
    assert wire["pickupCoords"] == {"lng": 3.39, "lat": 6.45}
    assert "idempotencyKey" not in wire  # unset fields are left out


ERRAND = {
    "serviceKind": "errand",
    "errandMode": "at_place",
    "errandLinks": [],
    "errandBudgetNgn": "",
    "errandSubstituteOk": False,
    "shopPhone": "",
    "pickupLocationUnknown": False,
    "receiverName": None,
    "receiverPhone": None,
    "packageImages": [],
}

REFUSED = [
    ("zero pin", {"pickupCoords": {"lng": 0, "lat": 0}}, "zero pin"),
    ("latitude out of range", {"deliveryCoords": {"lng": 3.3, "lat": 91}}, "lat must be"),
    ("seven images", {"packageImages": [f"https://m.test/{i}.jpg" for i in range(7)]}, "at most 6"),
    ("http image", {"packageImages": ["http://m.test/1.jpg"]}, "https URL"),
    ("no image for pickup_delivery", {"packageImages": []}, "at least 1 image"),
    ("no receiver", {"receiverPhone": None}, "receiverPhone: is required"),
    ("POD on an errand", {**ERRAND, "isPODEnabled": True}, "only allowed on pickup_delivery"),
    ("errand without a mode", {**ERRAND, "errandMode": None}, "errandMode: is required"),
    ("photo errand without photos", {**ERRAND, "errandMode": "photo"}, "at least 1 image"),
    ("link errand without links", {**ERRAND, "errandMode": "link"}, "errandLinks"),
    ("warehouse without id", {"deliveryMode": "warehouse"}, "warehouseId: is required"),
    ("key of 7", {"idempotencyKey": "k" * 7}, "at least 8"),
    ("key of 121", {"idempotencyKey": "k" * 121}, "at most 120"),
    ("empty key", {"idempotencyKey": ""}, "at least 8"),
    ("bad email", {"senderEmail": "not-an-email"}, "email"),
    ("unknown field", {"tip": 500}, "Extra inputs"),
    ("unknown kind", {"serviceKind": "freight"}, "serviceKind"),
]


@pytest.mark.parametrize(
    ("changes", "reason"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_create_request_rules(payloads, changes, reason):
    with pytest.raises(pydantic.ValidationError, match=reason):
        payloads.create_request(**changes)


# The sandbox's documented choices, mirrored (docs/sandbox.md, "Create" 6-12).
SANDBOX_CHOICES = [
    ("POD without an amount", {"isPODEnabled": True}, "podAmount: is required and greater"),
    ("POD amount of zero", {"isPODEnabled": True, "podAmount": 0}, "podAmount: is required"),
    ("amount without POD", {"podAmount": 500}, "podAmount: is only allowed"),
    ("sender phone of 6 digits", {"senderPhone": "123456"}, "7 to 15 digits"),
    ("sender phone of 16 digits", {"senderPhone": "+1234567890123456"}, "7 to 15 digits"),
    ("receiver phone in words", {"receiverPhone": "call me"}, "must be a phone number"),
    ("pickup contact phone", {"pickupContactPhone": "+1 (555) 12"}, "7 to 15 digits"),
    ("warehouseId in pickup mode", {"warehouseId": "wh-1"}, "warehouseId: is only sent with"),
    ("errand field on a pickup_delivery", {"shopPhone": ""}, "shopPhone: is only sent for errands"),
    ("errand in warehouse mode", {**ERRAND, "deliveryMode": "warehouse", "warehouseId": "wh-1"},
     "deliveryMode: errands use deliveryMode pickup"),
    ("shop phone of 3 digits", {**ERRAND, "shopPhone": "123"}, "7 to 15 digits"),
    ("budget in words", {**ERRAND, "errandBudgetNgn": "a lot"}, "an amount such as"),
    ("eleven errand links",
     {**ERRAND, "errandLinks": [{"url": f"https://shop.test/{i}"} for i in range(11)]},
     "at most 10"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "reason"), [r[1:] for r in SANDBOX_CHOICES], ids=[r[0] for r in SANDBOX_CHOICES]
)
def test_create_request_mirrors_the_sandboxs_choices(payloads, changes, reason):
    with pytest.raises(pydantic.ValidationError, match=re.escape(reason)):
        payloads.create_request(**changes)


@pytest.mark.parametrize("missing", ERRAND_FIELDS)
def test_an_errand_needs_all_six_errand_fields(payloads, missing):
    with pytest.raises(pydantic.ValidationError, match=f"{missing}: is required for errands"):
        payloads.create_request(**{**ERRAND, missing: None})


def test_every_problem_across_fields_is_reported_at_once(payloads):
    with pytest.raises(pydantic.ValidationError) as caught:
        payloads.create_request(
            **{**ERRAND, "errandLinks": None, "shopPhone": None, "isPODEnabled": True}
        )
    message = caught.value.errors()[0]["msg"]
    for part in ("errandLinks: is required", "shopPhone: is required", "isPODEnabled: POD"):
        assert part in message


def test_the_idempotency_key_is_sent_exactly_as_given(payloads):
    for key in ("  order-17  ", " " * 8):
        assert payloads.create_request(idempotencyKey=key).to_wire()["idempotencyKey"] == key


@pytest.mark.parametrize(
    "changes",
    [
        {"idempotencyKey": "k" * 8},
        {"idempotencyKey": "k" * 120},
        {"packageImages": [f"https://m.test/{i}.jpg" for i in range(6)]},
        {"senderEmail": ""},
        ERRAND,
        {**ERRAND, "errandMode": "link", "errandLinks": [{"url": "https://shop.test/x"}]},
        {"isPODEnabled": True, "podAmount": 5000},
        {"isPODEnabled": False, "podAmount": 0},
        {"senderPhone": "0801 234 5678", "receiverPhone": "+1 (555) 123-4567"},
        {**ERRAND, "shopPhone": "+2348012345678", "errandBudgetNgn": "8,000.50"},
        {**ERRAND, "errandLinks": [{"url": f"https://shop.test/{i}"} for i in range(10)]},
        {"deliveryMode": "warehouse", "warehouseId": "wh-1"},
    ],
    ids=[
        "key of 8",
        "key of 120",
        "six images",
        "empty email",
        "errand with empty extras",
        "link",
        "pod",
        "zero amount without pod",
        "phones",
        "errand extras filled",
        "ten links",
        "warehouse",
    ],
)
def test_create_request_limits_accept_their_boundaries(payloads, changes):
    assert isinstance(payloads.create_request(**changes), CreateDeliveryRequest)


def test_coords_refuse_non_finite_numbers():
    with pytest.raises(pydantic.ValidationError, match="finite"):
        Coords(lng=float("nan"), lat=6.4)


# --- places and riders --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit_range", "expected"),
    [
        ({"prefix": "A", "start": 1, "end": 3, "pad": 3}, ["A001", "A002", "A003"]),
        (
            {"prefix": "Rm ", "suffix": "b", "start": 9, "end": 11, "pad": 2},
            ["Rm 09b", "Rm 10b", "Rm 11b"],
        ),
        ({"start": 3, "end": 1}, ["3", "2", "1"]),
        ({"start": 100, "end": 100, "pad": 2}, ["100"]),
    ],
)
def test_unit_range_expand_pads_numbers(unit_range, expected):
    assert UnitRange.model_validate(unit_range).expand() == expected


def test_unit_choices_list_values_then_ranges_without_repeats():
    unit = LocationUnit.model_validate(
        {
            "mode": "list",
            "values": ["B2", "Gate"],
            "ranges": [{"prefix": "B", "start": 1, "end": 3}],
        }
    )
    assert unit.choices() == ["B2", "Gate", "B1", "B3"]


def test_service_location_composes_its_address(payloads):
    location = ServiceLocation.model_validate(payloads.service_location())
    assert location.composed_address("A002") == "Moremi Hall — University of Lagos — A002"
    assert location.composed_address(None) == "Moremi Hall — University of Lagos"


def test_rider_location_and_distance_parse(payloads):
    rider = Rider.model_validate(payloads.rider(distance_km=None, location=None))
    assert rider.location is None and rider.distance_km is None


def test_webhook_event_carries_the_otp(payloads):
    event = WebhookEvent.model_validate(
        {
            "id": "evt_1",
            "type": "delivery.otp_issued",
            "created": 1_700_000_000,
            "data": {
                "object": payloads.delivery(),
                "previous_status": None,
                "otp": otp_json("4821", "+2348000000002"),
            },
            "summary": "OTP ready",
            "agent_notes": ["Send the code to the receiver only."],
        }
    )
    assert event.data.otp is not None and event.data.otp.code == "4821"
    assert event.delivery.id == "dlv_123"
