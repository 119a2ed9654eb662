"""A rider of the fleet in words, as every door shows the rider list (Telegram's ``/riders``,
a delivery's page in the web console): who, and how far, how present, how busy."""

from __future__ import annotations

from bot.partner.models import Rider
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import status_label


def rider_title(words: Catalogue, rider: Rider) -> str:
    """The rider's name (or that they have none) and vehicle: ``Tunde Bakare (motorbike)``."""
    vehicle = f" ({rider.vehicle_type})" if rider.vehicle_type else ""
    return (rider.name or words.say("ops.unnamed_rider")) + vehicle


def rider_facts(words: Catalogue, rider: Rider) -> str:
    """Presence, distance from the pickup, how fresh the location is and how many deliveries
    the rider has on, one line: ``available · 0.9 km away · location fresh · no delivery``."""
    if rider.distance_km is not None:
        distance = words.say("ops.km_away", km=words.number(rider.distance_km, "0.0"))
    else:
        distance = words.say("ops.distance_unknown")
    if rider.location is None:
        located = words.say("ops.no_location")
    else:
        located = words.say("ops.fresh_location" if rider.location.fresh else "ops.stale_location")
    count = rider.active_delivery_count
    one = count == 1
    active = (
        words.say("ops.active_delivery") if one else words.say("ops.active_deliveries", count=count)
    )
    facts = [status_label(words, str(rider.presence)), distance, located, active]
    return " · ".join(facts)
