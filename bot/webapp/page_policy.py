"""The page's response headers: a strict Content-Security-Policy and its neighbours.

Scripts, styles and the map library come from the bot's own host only (no inline script, no
``eval``); the page talks to its own API only; images are the bot's own (Leaflet's markers) and
the map tiles, from the configured tile host. ``frame-ancestors`` lets Telegram's web clients
frame the page (the phone and desktop apps open it in a web view of their own, not a frame).
The page's URL carries the chat's id, not a secret, and ``Referrer-Policy`` keeps even that
off the tile server's logs.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

TELEGRAM_WEB_CLIENTS: Final = (
    "https://web.telegram.org",
    "https://webk.telegram.org",
    "https://webz.telegram.org",
)


def tile_source(url_template: str) -> str:
    """The CSP source of the tile host: ``https://{s}.tile.example/...`` allows every
    subdomain (``https://*.tile.example``)."""
    parts = urlsplit(url_template)
    host = (parts.hostname or "").replace("{s}", "*")
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}"


def content_security_policy(url_template: str) -> str:
    """The page's CSP for tiles from ``url_template``."""
    directives = {
        "default-src": "'none'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": f"'self' data: {tile_source(url_template)}",
        "connect-src": "'self'",
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": " ".join(TELEGRAM_WEB_CLIENTS),
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def page_headers(url_template: str) -> dict[str, str]:
    """Every header the page and its API's answers (and refusals) are served with: nothing is
    kept, as the answers carry the customer's saved places and the answer already given."""
    return {
        "Content-Security-Policy": content_security_policy(url_template),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }


def static_headers(url_template: str) -> dict[str, str]:
    """The page's headers for its static files, but cached as ``no-cache``: kept, and asked
    again each time with their ETag, so an unchanged file (Leaflet alone is ~150 KB) costs a
    304 on mobile data, while the files' names carry no version, so a new release's script is
    never mixed with an old one's page."""
    return page_headers(url_template) | {"Cache-Control": "no-cache"}
