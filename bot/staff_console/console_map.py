"""The console's maps: the Mini App's pinned Leaflet served to the console's pages, and what a
page hands ``static/console-map.js`` to draw (``templates/console_map.html``).

=====================================  =========================================================
``GET /console/leaflet/...``           ``bot/webapp/static/leaflet`` as it is vendored (pinned,
                                       with its licence and checksum): one copy for both
=====================================  =========================================================

A map is drawn on the Mini App's tiles (``[webapp.tiles]``, while ``[webapp] enabled``);
without them, or without a place that has both coordinates, a page has no map (``map_of`` is
None) and shows the coordinates in words only. The console's CSP lets in images from the tile
host and no other (``console_headers``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from bot.config import CONSOLE_PATH, TilesConfig
from bot.webapp.routes import STATIC as WEBAPP_STATIC

LEAFLET: Final = WEBAPP_STATIC / "leaflet"
LEAFLET_PATH: Final = f"{CONSOLE_PATH}/leaflet"


@dataclass(frozen=True)
class MapPin:
    """A place on a map: where, its label (its marker's title and alt text), and its kind
    (``""``: a plain marker; ``"dropoff"``: a faded one, a destination beside the riders)."""

    latitude: float
    longitude: float
    label: str
    kind: str = ""


@dataclass(frozen=True)
class ConsoleMap:
    """What ``console-map.js`` reads from a ``div.console-map``'s data attributes."""

    tiles: str  # the tile URL template
    attribution: str
    places: str  # JSON: [{lat, lng, label, kind?}, ...]


def map_of(tiles: TilesConfig | None, pins: Sequence[MapPin]) -> ConsoleMap | None:
    """The map of ``pins`` on ``tiles``; None without tiles or without a pin."""
    if tiles is None or not pins:
        return None
    return ConsoleMap(tiles.url_template, tiles.attribution, json.dumps(_places(pins)))


def _places(pins: Sequence[MapPin]) -> list[dict[str, object]]:
    return [
        {
            "lat": pin.latitude,
            "lng": pin.longitude,
            "label": pin.label,
            **({"kind": pin.kind} if pin.kind else {}),
        }
        for pin in pins
    ]


def pick_map(tiles: TilesConfig | None, around: Sequence[MapPin]) -> ConsoleMap | None:
    """A map to pick a place on (``data-pick-lat``/``-lng``), showing the places ``around``
    (the business's saved places and service area) so it opens where the business works;
    None without tiles."""
    if tiles is None:
        return None
    return ConsoleMap(tiles.url_template, tiles.attribution, json.dumps(_places(around)))


def leaflet_routes() -> list[BaseRoute]:
    """``/leaflet/...`` (under ``/console``): the vendored Leaflet's script, stylesheet and
    marker images."""
    return [Mount("/leaflet", StaticFiles(directory=LEAFLET), name="console-leaflet")]
