"""``[webapp]``: the "Pick on the map" Mini App at every place question (``bot.webapp``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field, field_validator

from bot.config.section import Section

WEBAPP_PATH = "/webapp"  # the documented place of the page and its API on the bot's host
OSM_TILES = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
OSM_ATTRIBUTION = "© OpenStreetMap contributors"


class TilesConfig(Section):
    """``[webapp.tiles]``: the map's background, the one thing the page loads from elsewhere.

    The default is OpenStreetMap's own tile server, whose usage policy
    (https://operations.osmfoundation.org/policies/tiles/) asks for the attribution shown and
    allows light use only: a busy bot should name a tile provider it has an agreement with.
    """

    url_template: str = OSM_TILES
    attribution: str = Field(OSM_ATTRIBUTION, min_length=1, max_length=300)

    @field_validator("url_template")
    @classmethod
    def _template(cls, value: str) -> str:
        parts = urlsplit(value.strip())
        plain_http_ok = parts.scheme == "http" and parts.hostname in {"127.0.0.1", "localhost"}
        if not (parts.scheme == "https" or plain_http_ok) or not parts.hostname:
            raise ValueError("must be an https URL (plain http only for 127.0.0.1 or localhost)")
        if not all(part in value for part in ("{z}", "{x}", "{y}")):
            raise ValueError("must contain {z}, {x} and {y}, e.g. " + OSM_TILES)
        return value.strip()


class WebappConfig(Section):
    """``[webapp]``: the Mini App is served under ``/webapp`` on ``[server] public_base_url``.

    ``init_data_max_age`` bounds how old the page's Telegram ``initData`` may be (seconds);
    ``searches_per_minute`` is each customer's budget of address searches on the page.
    """

    enabled: bool = False
    init_data_max_age: int = Field(3600, ge=60, le=86_400)
    searches_per_minute: int = Field(10, ge=1, le=120)
    tiles: TilesConfig
