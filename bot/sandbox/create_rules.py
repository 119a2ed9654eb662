"""Every rule of ``POST /deliveries`` that the body alone and the org's allow-list decide.

``read_create`` either returns a ``CreateOrder`` or raises: 403 ``service_disabled`` first (the
``enabledServiceKinds`` array wins over anything else in the body), then one 400
``validation_error`` whose ``fieldErrors`` names every bad field by its request name. Coverage,
images and idempotency are checked afterwards by their own modules.
"""

from __future__ import annotations

from typing import Any, TypeVar

from bot.partner.models import ERRAND_FIELDS, IDEMPOTENCY_KEY_LENGTH, MAX_PACKAGE_IMAGES
from bot.sandbox.errand_rules import read_errand, refuse_errand_fields
from bot.sandbox.error_envelope import ApiError
from bot.sandbox.geo import distance_km
from bot.sandbox.scenario import Scenario
from bot.sandbox.validated_order import CreateOrder
from bot.sandbox.validation import FieldReader, is_uuid

CREATE_FIELDS = (
    "serviceKind", "deliveryMode", "warehouseId", "senderName", "senderPhone", "senderEmail",
    "pickupContactSameAsSender", "pickupContactName", "pickupContactPhone", "receiverName",
    "receiverPhone", "pickupAddress", "pickupCoords", "deliveryAddress", "deliveryCoords",
    "packageDescription", "packageSize", "isFragile", "isPODEnabled", "podAmount",
    "packageImages", "customerCollectionMethod", "idempotencyKey", "distanceKm",
    "estimatedDurationMinutes", *ERRAND_FIELDS,
)  # fmt: skip
T = TypeVar("T")
# Not shown how the service estimates duration when the caller sends none: city speed + handling.
AVERAGE_SPEED_KMH = 20.0
HANDLING_MINUTES = 10.0


def read_create(body: dict[str, Any], scenario: Scenario) -> CreateOrder:
    """Validate a create body against the spec and the org's allow-list."""
    caps = scenario.capabilities
    reader = FieldReader(body)
    kind = reader.choice("serviceKind", ("pickup_delivery", "errand"), required=True)
    if kind is not None and kind not in caps.enabledServiceKinds:
        raise ApiError(
            403,
            "service_disabled",
            f"The {kind} service is not enabled for this business. Re-fetch capabilities.",
        )
    reader.reject_unknown(CREATE_FIELDS)
    mode = reader.choice("deliveryMode", ("pickup", "warehouse"), required=True)
    pickup = reader.coords("pickupCoords")
    dropoff = reader.coords("deliveryCoords")
    pickup_address = reader.string("pickupAddress", required=True, max_len=500)
    warehouse_id = _warehouse(reader, scenario, kind, mode, pickup, pickup_address)
    pod_enabled, pod_amount = _pod(reader, scenario, kind)
    images = _images(reader, kind, body.get("errandMode"))
    errand = None
    if kind == "errand":
        errand = read_errand(reader, scenario)
    else:
        refuse_errand_fields(reader)
    receiver_required = kind == "pickup_delivery"
    sender_name = reader.string("senderName", required=True, max_len=200)
    sender_phone = reader.phone("senderPhone", required=True)
    sender_email = reader.email("senderEmail")
    same_as_sender = reader.boolean("pickupContactSameAsSender")
    contact_name = reader.string("pickupContactName", max_len=200)
    contact_phone = reader.phone("pickupContactPhone")
    receiver_name = reader.string("receiverName", required=receiver_required, max_len=200)
    receiver_phone = reader.phone("receiverPhone", required=receiver_required)
    delivery_address = reader.string("deliveryAddress", required=True, max_len=500)
    description = reader.string("packageDescription", required=True, max_len=1000)
    size = reader.choice("packageSize", ("small", "medium", "large"), required=True)
    fragile = reader.boolean("isFragile")
    method = _collection_method(reader, scenario)
    idempotency_key = _idempotency_key(reader)
    given_distance = reader.number("distanceKm", maximum=20000)
    given_duration = reader.number("estimatedDurationMinutes", maximum=100000)
    reader.raise_if_errors()
    pickup_lat, pickup_lng = _known(pickup)
    dropoff_lat, dropoff_lng = _known(dropoff)
    straight = distance_km(pickup_lat, pickup_lng, dropoff_lat, dropoff_lng)
    distance = given_distance if given_distance is not None else round(straight, 2)
    duration = (
        given_duration
        if given_duration is not None
        else round(distance / AVERAGE_SPEED_KMH * 60 + HANDLING_MINUTES)
    )
    return CreateOrder(
        service_kind=_known(kind),
        delivery_mode=_known(mode),
        warehouse_id=warehouse_id,
        sender_name=_known(sender_name),
        sender_phone=_known(sender_phone),
        sender_email=sender_email,
        pickup_contact_same_as_sender=same_as_sender,
        pickup_contact_name=contact_name or None,
        pickup_contact_phone=contact_phone,
        receiver_name=receiver_name or None,
        receiver_phone=receiver_phone,
        pickup_address=_known(pickup_address),
        pickup_lat=pickup_lat,
        pickup_lng=pickup_lng,
        delivery_address=_known(delivery_address),
        delivery_lat=dropoff_lat,
        delivery_lng=dropoff_lng,
        package_description=_known(description),
        package_size=_known(size),
        is_fragile=bool(fragile),
        pod_enabled=pod_enabled,
        pod_amount=pod_amount,
        package_images=images,
        collection_method=_known(method),
        idempotency_key=idempotency_key,
        errand=errand,
        distance_km=distance,
        duration_minutes=duration,
    )


def _known(value: T | None) -> T:
    """A field that ``raise_if_errors`` has proven present."""
    if value is None:
        raise RuntimeError("a validated field is missing")  # unreachable after validation
    return value


def _warehouse(
    reader: FieldReader,
    scenario: Scenario,
    kind: str | None,
    mode: str | None,
    pickup: tuple[float, float] | None,
    pickup_address: str | None,
) -> str | None:
    warehouse_id = reader.body.get("warehouseId")
    if mode != "warehouse":
        if warehouse_id is not None:
            reader.fail("warehouseId", "is only sent with deliveryMode warehouse")
        return None
    if kind == "errand":
        reader.fail("deliveryMode", "errands use deliveryMode pickup (the rider goes to the shop)")
        return None
    if not scenario.capabilities.allowWarehouseDropoff:
        reader.fail("deliveryMode", "warehouse mode is not enabled for this business")
        return None
    if not isinstance(warehouse_id, str) or not is_uuid(warehouse_id):
        reader.fail("warehouseId", "is required in warehouse mode and must be a warehouse id")
        return None
    usable = scenario.active_warehouses()[: scenario.max_warehouses]
    warehouse = next((w for w in usable if w.id == warehouse_id), None)
    if warehouse is None:
        listed = any(w.id == warehouse_id for w in scenario.active_warehouses())
        reader.fail(
            "warehouseId",
            "only the first warehouse is usable on this plan"
            if listed
            else "is not an active warehouse of this business",
        )
        return None
    if warehouse.latitude is None or warehouse.longitude is None:
        reader.fail("warehouseId", "this warehouse has no map pin and cannot be used")
        return None
    if pickup and (
        abs(pickup[0] - warehouse.latitude) > 1e-6 or abs(pickup[1] - warehouse.longitude) > 1e-6
    ):
        reader.fail("pickupCoords", "must be the warehouse's coordinates from GET /warehouses")
    if pickup_address is not None and pickup_address != warehouse.address.strip():
        reader.fail("pickupAddress", "must be the warehouse's address from GET /warehouses")
    return warehouse.id


def _pod(reader: FieldReader, scenario: Scenario, kind: str | None) -> tuple[bool, float | None]:
    enabled = reader.boolean("isPODEnabled")
    amount = reader.number("podAmount")
    if enabled:
        if not scenario.capabilities.pod.enabled:
            reader.fail("isPODEnabled", "cash collection (POD) is not enabled for this business")
        elif kind == "errand":
            reader.fail("isPODEnabled", "POD is only allowed on pickup_delivery")
        if (amount is None or amount <= 0) and not reader.failed("podAmount"):
            reader.fail("podAmount", "is required and greater than 0 when isPODEnabled is true")
        return True, amount
    if amount:
        reader.fail("podAmount", "is only allowed when isPODEnabled is true")
    return False, None


def _idempotency_key(reader: FieldReader) -> str | None:
    """The key exactly as sent: never trimmed, so ``""`` or a too-short key is refused, not
    silently treated as "no key" (which would make a retried create a second delivery)."""
    value = reader.body.get("idempotencyKey")
    if value is None:
        return None
    low, high = IDEMPOTENCY_KEY_LENGTH
    if not isinstance(value, str):
        reader.fail("idempotencyKey", "must be a string")
        return None
    if not low <= len(value) <= high:
        reader.fail("idempotencyKey", f"must be {low} to {high} characters")
        return None
    return value


def _collection_method(reader: FieldReader, scenario: Scenario) -> str | None:
    flags = scenario.capabilities.paymentCollection
    method = reader.choice(
        "customerCollectionMethod", ("cash_on_delivery", "online_checkout"), required=True
    )
    allowed = {"cash_on_delivery": flags.cashOnDelivery, "online_checkout": flags.onlineCheckout}
    if method is not None and not allowed[method]:
        reader.fail("customerCollectionMethod", f"{method} is not allowed for this business")
    return method


def _images(reader: FieldReader, kind: str | None, errand_mode: Any) -> tuple[str, ...]:
    urls = reader.array("packageImages", required=True)
    if urls is None:
        return ()
    if len(urls) > MAX_PACKAGE_IMAGES:
        reader.fail("packageImages", f"must hold at most {MAX_PACKAGE_IMAGES} images")
    if any(not isinstance(u, str) or not u.strip() or len(u) > 2000 for u in urls):
        reader.fail("packageImages", "each image must be a URL string")
        return ()
    needs_one = kind == "pickup_delivery" or (kind == "errand" and errand_mode == "photo")
    if needs_one and not urls:
        what = "pickup_delivery" if kind == "pickup_delivery" else "photo errands"
        reader.fail("packageImages", f"needs at least 1 image for {what}")
    return tuple(u.strip() for u in urls)
