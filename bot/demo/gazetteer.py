"""An offline address search for the demo: a few Lagos places answered the way Nominatim
answers, so typed addresses work with no network through the bot's real ``NominatimGeocoder``
(geopy over httpx), only with this transport under it instead of the internet.

A query matches a place when every word of the query is in the place's name or address, so
"15 Allen Avenue" finds two places (the customer picks one), "ozone" finds one, and anything
else finds nothing (the customer is asked to add the area, or share a pin).
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from bot.geo.nominatim import NominatimGeocoder

USER_AGENT = "deliverybot-demo/1.0 (offline gazetteer)"


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


def _answer(request: httpx.Request) -> httpx.Response:
    if request.url.path.rstrip("/") != "/search":
        return httpx.Response(404, json={"error": "not found"})
    found = search(request.url.params.get("q", ""))
    body = [
        {"lat": str(place.lat), "lon": str(place.lng), "display_name": place.name}
        for place in found
    ]
    return httpx.Response(200, json=body)


def offline_transport() -> httpx.MockTransport:
    """An httpx transport that answers Nominatim searches from ``PLACES``."""
    return httpx.MockTransport(_answer)


def offline_geocoder() -> NominatimGeocoder:
    """The bot's Nominatim geocoder over the offline table (no delay: nothing to be polite to)."""
    return NominatimGeocoder(
        USER_AGENT,
        domain="nominatim.demo.invalid",
        min_delay_seconds=0,
        transport=offline_transport(),
    )
