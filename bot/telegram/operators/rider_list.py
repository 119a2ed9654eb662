"""``/riders <id> [idle] [radius <km>]``: the fleet around a delivery's pickup, closest first."""

from __future__ import annotations

from typing import Final

from telegram import Update
from telegram.ext import ContextTypes

from bot.partner import errors
from bot.partner.models import Delivery, Rider
from bot.telegram.operators.operator_chat import OperatorChat
from bot.telegram.operators.operator_refusals import explain
from bot.telegram.text import escape
from conversations.texts.deliveries_texts import short_ref, status_label

RIDERS_USAGE: Final = "Usage: /riders <delivery ref> [idle] [radius <km>]"
NO_PICKUP_COORDS: Final = "This delivery has no pickup coordinates, so there is no radius."


class RidersView(OperatorChat):
    """The rider list of one delivery, with presence, distance and location freshness."""

    async def riders(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/riders <id> [idle] [radius <km>]``."""
        message = await self.operator_message(update)
        if message is None:
            return
        args = context.args or []
        parsed = rider_filters(args[1:]) if args else None
        if parsed is None:
            return await self.say(message, RIDERS_USAGE)
        idle, radius = parsed
        delivery_id = await self.delivery_named(message, args[0])
        if delivery_id is None:
            return None
        try:
            delivery = await self.ctx.client.get_delivery(delivery_id)
            pickup = delivery.pickup
            lat, lng = (pickup.latitude, pickup.longitude) if pickup else (None, None)
            if radius is not None and (lat is None or lng is None):
                return await self.say(message, NO_PICKUP_COORDS)
            found = await self.ctx.client.list_riders(
                pickup_lat=lat, pickup_lng=lng, radius_km=radius, idle_only=idle
            )
        except errors.PartnerError as error:
            return await self.say(message, explain(error, delivery_id=delivery_id))
        await self.say_html(message, riders_text(delivery, found, idle=idle, radius=radius))


def riders_text(
    delivery: Delivery, riders: list[Rider], *, idle: bool, radius: float | None
) -> str:
    """The rider list as HTML, in the API's order (closest first, presence as tiebreak)."""
    filters = [part for part in ("idle only" if idle else "", _within(radius)) if part]
    pickup = delivery.pickup.address if delivery.pickup and delivery.pickup.address else None
    title = f"Riders for delivery {short_ref(delivery.id)}"
    title += f" (pickup: {pickup})" if pickup else ""
    title += f", {', '.join(filters)}" if filters else ""
    if not riders:
        return escape(f"{title}: none match.")
    lines = [escape(f"{title}:")]
    for number, rider in enumerate(riders, 1):
        vehicle = f" ({rider.vehicle_type})" if rider.vehicle_type else ""
        lines.append(
            f"{number}. {escape((rider.name or 'Unnamed rider') + vehicle)}"
            f" · <code>{escape(rider.id)}</code>"
        )
        lines.append(escape(f"    {_rider_facts(rider)}"))
    lines.append(escape(f"Assign with /assign {short_ref(delivery.id)} <rider id>"))
    return "\n".join(lines)


def rider_filters(words: list[str]) -> tuple[bool, float | None] | None:
    """``[idle] [radius <km>]`` in any order, or None when something else was typed."""
    idle, radius = False, None
    rest = [word.casefold() for word in words]
    while rest:
        word = rest.pop(0)
        if word in ("idle", "idle_only") and not idle:
            idle = True
        elif word == "radius" and radius is None and rest:
            try:
                radius = float(rest.pop(0).removesuffix("km"))
            except ValueError:
                return None
            if rest and rest[0] == "km":
                rest.pop(0)
        else:
            return None
    return idle, radius


def _rider_facts(rider: Rider) -> str:
    distance = f"{rider.distance_km:.1f} km away" if rider.distance_km is not None else None
    if rider.location is None:
        located = "no location"
    else:
        located = "fresh location" if rider.location.fresh else "stale location"
    count = rider.active_delivery_count
    active = f"{count} active deliver{'y' if count == 1 else 'ies'}"
    facts = [status_label(str(rider.presence)), distance or "distance unknown", located, active]
    return " · ".join(facts)


def _within(radius: float | None) -> str:
    return "" if radius is None else f"within {radius:g} km"
