"""The geocoder the operator configured, as the flows' ``Geocoder`` protocol (or none)."""

from __future__ import annotations

import httpx

from bot.config import GeocodingConfig
from bot.geo.nominatim import NominatimGeocoder
from conversations.services import Geocoder


def geocoder_from_config(
    cfg: GeocodingConfig, *, transport: httpx.AsyncBaseTransport | None = None
) -> Geocoder | None:
    """``[geocoding]`` as a geocoder; None for ``provider = "none"`` (typed addresses are then
    not offered: customers share a location pin or pick a saved place).

    ``transport`` replaces the network (tests pass ``httpx.MockTransport``).
    """
    if cfg.provider == "none":
        return None
    nominatim = cfg.nominatim
    if nominatim is None:  # the config model refuses this; kept for type narrowing
        raise ValueError('[geocoding] provider = "nominatim" needs [geocoding.nominatim]')
    return NominatimGeocoder(
        nominatim.user_agent,
        domain=nominatim.domain,
        scheme=nominatim.scheme,
        country_codes=nominatim.country_codes,
        timeout=nominatim.timeout,
        min_delay_seconds=nominatim.min_delay_seconds,
        transport=transport,
    )
