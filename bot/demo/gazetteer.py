"""An offline address search for the demo: a few Lagos places answered the way Nominatim
answers, so typed addresses work with no network through the bot's real ``NominatimGeocoder``
(geopy over httpx), only with this transport under it instead of the internet.

A query matches a place when every word of the query is in the place's name or address, so
"15 Allen Avenue" finds two places (the customer picks one), "ozone" finds one, and anything
else finds nothing (the customer is asked to add the area, or share a pin). A pin is named
(Nominatim's ``/reverse``) after the known place within ``NAMED_WITHIN_M`` of it, if any.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import httpx

from bot.geo.nominatim import NominatimGeocoder

USER_AGENT = "deliverybot-demo/1.0 (offline gazetteer)"
NAMED_WITHIN_M = 100.0  # a pin farther from every known place is named nothing


@dataclass(frozen=True)
class KnownPlace:
    name: str
    lat: float
    lng: float


PLACES: tuple[KnownPlace, ...] = (
    KnownPlace("15 Allen Avenue, Ikeja, Lagos", 6.6005, 3.3520),
    KnownPlace("15 Allen Avenue, Bodija, Ibadan, Oyo", 7.4352, 3.9133),
    KnownPlace("Ozone Cinema, Herbert Macaulay Way, Yaba, Lagos", 6.5095, 3.3760),
    KnownPlace("Computer Village, Otigba Street, Ikeja, Lagos", 6.5950, 3.3420),
    KnownPlace("Tafawa Balewa Square, Lagos Island, Lagos", 6.4470, 3.3960),
    KnownPlace("Lekki Toll Gate, Lekki-Epe Expressway, Lagos", 6.4390, 3.4630),
    KnownPlace("Balogun Market, Lagos Island, Lagos", 6.4560, 3.3890),
    KnownPlace("Wuse Market, Wuse, Abuja", 9.0650, 7.4700),
)


def _words(text: str) -> list[str]:
    return "".join(ch if ch.isalnum() else " " for ch in text.casefold()).split()


def search(query: str) -> list[KnownPlace]:
    """The known places matching every word of ``query``."""
    wanted = _words(query)
    if not wanted:
        return []
    return [place for place in PLACES if set(wanted) <= set(_words(place.name))]


def nearest(lat: float, lng: float) -> KnownPlace | None:
    """The known place closest to the pin, when it is within ``NAMED_WITHIN_M``."""
    metres = {place: _metres(lat, lng, place.lat, place.lng) for place in PLACES}
    place = min(PLACES, key=metres.__getitem__)
    return place if metres[place] <= NAMED_WITHIN_M else None


def _metres(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    # An equirectangular approximation: exact enough over a few hundred metres.
    x = math.radians(lng2 - lng1) * math.cos(math.radians((lat1 + lat2) / 2))
    return math.hypot(x, math.radians(lat2 - lat1)) * 6_371_000


def _body(place: KnownPlace) -> dict[str, str]:
    return {"lat": str(place.lat), "lon": str(place.lng), "display_name": place.name}


def _answer(request: httpx.Request) -> httpx.Response:
    path, params = request.url.path.rstrip("/"), request.url.params
    if path == "/search":
        return httpx.Response(200, json=[_body(place) for place in search(params.get("q", ""))])
    if path == "/reverse":
        try:
            named = nearest(float(params.get("lat", "")), float(params.get("lon", "")))
        except ValueError:
            return httpx.Response(400, json={"error": "lat and lon must be numbers"})
        return httpx.Response(200, json=_body(named) if named else {"error": "Unable to geocode"})
    return httpx.Response(404, json={"error": "not found"})


def offline_transport() -> httpx.MockTransport:
    """An httpx transport that answers Nominatim searches and reverse look-ups from
    ``PLACES``."""
    return httpx.MockTransport(_answer)


def offline_geocoder() -> NominatimGeocoder:
    """The bot's Nominatim geocoder over the offline table (no delay: nothing to be polite to)."""
    return NominatimGeocoder(
        USER_AGENT,
        domain="nominatim.demo.invalid",
        min_delay_seconds=0,
        transport=offline_transport(),
    )
