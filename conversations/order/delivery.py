"""A delivery as the flows and texts show it (and as the service returns it)."""

from __future__ import annotations

from datetime import datetime

from conversations.order.base import ResponseModel
from conversations.order.kinds import (
    OpenCollectionMethod,
    OpenPackageSize,
    OpenRequestSource,
    OpenServiceKind,
)


class DeliveryPackage(ResponseModel):
    description: str | None = None
    size: OpenPackageSize | None = None
    is_fragile: bool = False


class DeliveryPayment(ResponseModel):
    delivery_fee: float | None = None
    delivery_payment_status: str | None = None
    currency_code: str | None = None
    customer_collection_method: OpenCollectionMethod | None = None
    is_pod_enabled: bool = False
    pod_amount: float | None = None


class DeliveryPickup(ResponseModel):
    address: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    warehouse_id: str | None = None


class DeliveryDropoff(ResponseModel):
    address: str | None = None
    latitude: float | None = None
    longitude: float | None = None


class DeliveryCustomer(ResponseModel):
    sender_name: str | None = None
    sender_phone: str | None = None
    sender_email: str | None = None
    receiver_name: str | None = None
    receiver_phone: str | None = None


class DeliveryTracking(ResponseModel):
    url: str | None = None
    path: str | None = None
    access_code: str | None = None


class DeliveryRider(ResponseModel):
    id: str
    name: str | None = None
    vehicle_type: str | None = None


class Delivery(ResponseModel):
    """A delivery as create, get, list, cancel, assign and unassign return it.

    Every field but ``id`` and ``status`` is optional because a cancel whose reload failed
    answers with ``{ id, status }`` only (see ``is_partial``).
    """

    id: str
    status: str
    access_code: str | None = None
    title: str | None = None
    service_kind: OpenServiceKind | None = None
    request_source: OpenRequestSource | None = None
    package: DeliveryPackage | None = None
    payment: DeliveryPayment | None = None
    pickup: DeliveryPickup | None = None
    dropoff: DeliveryDropoff | None = None
    distance_km: float | None = None
    estimated_duration_minutes: float | None = None
    customer: DeliveryCustomer | None = None
    tracking: DeliveryTracking | None = None
    rider_assigned: bool = False
    rider: DeliveryRider | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    cancelled_at: datetime | None = None
    cancellation_reason: str | None = None

    @property
    def is_partial(self) -> bool:
        """True for the reduced ``{ id, status }`` body a cancel may return."""
        return self.created_at is None and self.package is None and self.tracking is None

    @property
    def tracking_url(self) -> str | None:
        return self.tracking.url if self.tracking else None
