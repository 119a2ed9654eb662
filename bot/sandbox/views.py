"""Wire JSON for every resource, exactly in the shape the spec prints.

The only place that knows the response field names; handlers and webhook events both render
through here, so ``GET /deliveries/{id}`` and ``data.object`` can never differ.
"""

from __future__ import annotations

from typing import Any

from bot.sandbox.scenario import Scenario
from bot.sandbox.scenario_places import ServiceLocationSettings, WarehouseSettings
from bot.sandbox.state import DeliveryRecord, RiderRecord
from bot.sandbox.timestamps import iso


def tracking_path(record: DeliveryRecord) -> str:
    return f"/track/{record.id}/{record.access_code}"


def delivery_view(
    record: DeliveryRecord, scenario: Scenario, riders: dict[str, RiderRecord]
) -> dict[str, Any]:
    """The Delivery object as create, get, list, cancel, assign, unassign and webhooks show it."""
    order = record.order
    rider = riders.get(record.rider_id) if record.rider_id else None
    path = tracking_path(record)
    return {
        "id": record.id,
        "status": record.status,
        "access_code": record.access_code,
        "title": _title(record),
        "service_kind": order.service_kind,
        "request_source": "api",
        "package": {
            "description": order.package_description,
            "size": order.package_size,
            "is_fragile": order.is_fragile,
        },
        "payment": {
            "delivery_fee": record.fee,
            "delivery_payment_status": record.payment_status,
            "currency_code": record.currency,
            "customer_collection_method": order.collection_method,
            "is_pod_enabled": order.pod_enabled,
            "pod_amount": order.pod_amount,
        },
        "pickup": {
            "address": order.pickup_address,
            "latitude": order.pickup_lat,
            "longitude": order.pickup_lng,
            "warehouse_id": order.warehouse_id,
        },
        "dropoff": {
            "address": order.delivery_address,
            "latitude": order.delivery_lat,
            "longitude": order.delivery_lng,
        },
        "distance_km": order.distance_km,
        "estimated_duration_minutes": order.duration_minutes,
        "customer": {
            "sender_name": order.sender_name,
            "sender_phone": order.sender_phone,
            "sender_email": order.sender_email,
            "receiver_name": order.receiver_name,
            "receiver_phone": order.receiver_phone,
        },
        "tracking": {
            "url": scenario.sandbox.track_url.rstrip("/") + path,
            "path": path,
            "access_code": record.access_code,
        },
        "rider_assigned": rider is not None,
        "rider": (
            {"id": rider.id, "name": rider.name, "vehicle_type": rider.vehicle_type}
            if rider
            else None
        ),
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at) if record.updated_at is not None else None,
        "cancelled_at": iso(record.cancelled_at) if record.cancelled_at is not None else None,
        "cancellation_reason": record.cancellation_reason,
    }


def _title(record: DeliveryRecord) -> str:
    # Not shown what the service puts in ``title``; the sandbox uses the package description.
    description = " ".join(record.order.package_description.split())
    return description if len(description) <= 80 else description[:79] + "…"


def capabilities_view(scenario: Scenario) -> dict[str, Any]:
    """The Capabilities object: the scenario's settings plus what plan and coverage imply."""
    caps = scenario.capabilities.model_dump(mode="json")
    org = scenario.organization
    coverage = scenario.coverage
    caps.update(
        organization={"id": org.id, "name": org.name, "slug": org.slug},
        plan=org.plan,
        coverage={
            "mode": coverage.mode,
            "jobScopePolicy": coverage.job_scope_policy,
            "radiusKm": coverage.radius_km if coverage.mode == "radius_from_hub" else None,
            "regionCount": len(coverage.regions) if coverage.mode == "selected_regions" else 0,
        },
        rateLimits={"requestsPerMinute": org.requests_per_minute, "windowSeconds": 60},
    )
    caps["features"] = {
        "serviceLocations": scenario.capabilities.features.serviceLocations,
        "maxWarehouses": scenario.max_warehouses,
    }
    if caps.get("errand") is None:
        caps.pop("errand", None)
    return caps


def warehouse_view(warehouse: WarehouseSettings) -> dict[str, Any]:
    return {
        "id": warehouse.id,
        "name": warehouse.name,
        "address": warehouse.address,
        "latitude": warehouse.latitude,
        "longitude": warehouse.longitude,
    }


def service_location_view(location: ServiceLocationSettings) -> dict[str, Any]:
    return location.model_dump(mode="json")


def rider_view(rider: RiderRecord, now: float, distance: float | None) -> dict[str, Any]:
    location = None
    if rider.latitude is not None and rider.longitude is not None:
        location = {
            "latitude": rider.latitude,
            "longitude": rider.longitude,
            "updated_at": (
                iso(rider.location_updated_at) if rider.location_updated_at is not None else None
            ),
            "fresh": rider.location_fresh(now),
        }
    return {
        "id": rider.id,
        "name": rider.name,
        "vehicle_type": rider.vehicle_type,
        "fleet_link_status": rider.fleet_link_status,
        "presence": rider.presence,
        "presence_updated_at": iso(rider.presence_updated_at),
        "active_delivery_count": rider.active_delivery_count,
        "last_active_at": iso(rider.last_active_at) if rider.last_active_at is not None else None,
        "location": location,
        "distance_km": round(distance, 2) if distance is not None else None,
        "average_rating": rider.average_rating,
        "total_deliveries": rider.total_deliveries,
    }
