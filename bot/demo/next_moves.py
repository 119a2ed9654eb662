"""What the demo's typist can do next with a delivery, so the demo has no dead ends.

A delivery that waits for something (a fee, a rider) names the command that gives it, and a
delivery waiting for a rider lists the nearest riders to pick from, as an operator's
``GET /riders`` sorts them (closest to the pickup first).
"""

from __future__ import annotations

from bot.partner.client import PartnerClient
from bot.partner.models import Delivery, Rider
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

NEAREST_SHOWN = 3


async def next_moves(catalogue: Catalogue, client: PartnerClient, delivery: Delivery) -> str:
    """One line: what moves ``delivery`` on from its status, with the demo command to type;
    statuses are named from ``catalogue`` (the demo's own, ``DemoBot.catalogue``)."""
    ref = short_ref(delivery.id)
    status = delivery.status
    if status == "awaiting_price":
        return f"{ref} waits for its fee: set it with :fee <amount>, e.g. :fee 2500"
    if status == "pending":
        riders = await nearest_riders(client, delivery)
        if not riders:
            return f"{ref} waits for a rider, and the fleet has none to assign"
        free = [rider for rider in riders if rider.presence == "available"]
        first = (free or riders)[0].id
        listed = "; ".join(_rider(catalogue, rider) for rider in riders)
        return (
            f"{ref} waits for a rider: dispatch one with :assign <rider>, e.g. :assign {first}. "
            f"Nearest to the pickup: {listed}"
        )
    if status in ("matched", "picked_up", "in_transit"):
        unpaid = delivery.payment is not None and delivery.payment.delivery_payment_status != "paid"
        paid = " · :paid marks the fee paid" if unpaid else ""
        return f"{ref}: {status_label(catalogue, status)}; :advance moves it on{paid}"
    return f"{ref}: {status_label(catalogue, status)}; it moves no further: `new` orders another"


async def nearest_riders(client: PartnerClient, delivery: Delivery) -> list[Rider]:
    """The fleet's riders nearest to the pickup first, at most ``NEAREST_SHOWN``."""
    pickup = delivery.pickup
    lat = pickup.latitude if pickup is not None else None
    lng = pickup.longitude if pickup is not None else None
    if lat is None or lng is None:
        lat = lng = None  # the pickup pin goes with both coordinates or not at all
    riders = await client.list_riders(pickup_lat=lat, pickup_lng=lng)
    return riders[:NEAREST_SHOWN]


def _rider(catalogue: Catalogue, rider: Rider) -> str:
    distance = f", {rider.distance_km:.1f} km" if rider.distance_km is not None else ""
    name = rider.name or "unnamed"
    return f"{rider.id} ({name}, {status_label(catalogue, rider.presence)}{distance})"
