"""A create request that passed every rule: typed, normalised, ready to become a delivery."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrandLinkOrder:
    url: str
    note: str
    curated_id: str | None


@dataclass(frozen=True)
class ErrandOrder:
    mode: str
    links: tuple[ErrandLinkOrder, ...]
    budget: str | None
    substitute_ok: bool | None
    shop_phone: str | None
    location_unknown: bool


@dataclass(frozen=True)
class CreateOrder:
    """``POST /deliveries`` after validation; field names are the snake_case of the wire's."""

    service_kind: str
    delivery_mode: str
    warehouse_id: str | None
    sender_name: str
    sender_phone: str
    sender_email: str | None
    pickup_contact_same_as_sender: bool | None
    pickup_contact_name: str | None
    pickup_contact_phone: str | None
    receiver_name: str | None
    receiver_phone: str | None
    pickup_address: str
    pickup_lat: float
    pickup_lng: float
    delivery_address: str
    delivery_lat: float
    delivery_lng: float
    package_description: str
    package_size: str
    is_fragile: bool
    pod_enabled: bool
    pod_amount: float | None
    package_images: tuple[str, ...]
    collection_method: str
    idempotency_key: str | None
    errand: ErrandOrder | None
    distance_km: float | None
    duration_minutes: float | None
