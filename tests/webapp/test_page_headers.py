"""Every answer of the map page carries its protective headers: the page, its static files,
the API's JSON answers and refusals, and the errors the router makes itself (404, 405).

The table names a request for every route the Mini App has; a route added without a row here
fails ``test_the_table_requests_every_route``."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route

from bot.config.webapp_section import WEBAPP_PATH, WebappConfig
from bot.webapp.init_data import sign_init_data, user_fields
from bot.webapp.page_policy import page_headers
from bot.webapp.routes import WebappEndpoints
from conversations.services import GeocodedPlace, ServiceUnavailable
from tests.webapp.page_world import (
    TOKEN,
    USER_ID,
    StubQuestions,
    business_texts,
    place_question,
)

NOW = 1_800_000_000.0
TILES = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
EXPECTED = page_headers(TILES)


def _auth(user_id: int = USER_ID) -> dict[str, str]:
    fields = user_fields(user_id, auth_date=int(NOW))
    return {"Authorization": "tma " + sign_init_data(fields, bot_token=TOKEN)}


@dataclass
class _Geocoder:
    """Knows "Yaba"; "down" is the service being unavailable."""

    asked: list[str] = field(default_factory=list)

    async def geocode(self, query: str) -> list[GeocodedPlace]:
        if query == "down":
            raise ServiceUnavailable("geocoder down")
        return [GeocodedPlace(address="Yaba, Lagos", lat=6.5, lng=3.37)]

    async def reverse(self, lat: float, lng: float) -> GeocodedPlace | None:
        return None


def _endpoints(*, open_question: bool = True, geocoder: bool = True) -> WebappEndpoints:
    return WebappEndpoints(
        WebappConfig.model_validate({"enabled": True, "searches_per_minute": 2}),
        bot_token=TOKEN,
        questions=StubQuestions(place_question() if open_question else None),
        geocoder=_Geocoder() if geocoder else None,
        clock=lambda: NOW,
        texts=business_texts(),
    )


@dataclass(frozen=True)
class Ask:
    """One request of the table: ``route`` is the route's own path (for the coverage check)."""

    route: str
    method: str
    url: str
    status: int
    auth: bool = False
    open_question: bool = True
    geocoder: bool = True
    static: bool = False


Q = f"chat={USER_ID}"
ASKS = {
    "the page": Ask("/place", "GET", f"/webapp/place?{Q}", 200),
    "the page, posted": Ask("/place", "POST", f"/webapp/place?{Q}", 405),
    "its script": Ask("/static", "GET", "/webapp/static/place.js", 200, static=True),
    "the pinned library": Ask(
        "/static", "GET", "/webapp/static/leaflet/leaflet.css", 200, static=True
    ),
    "a missing file": Ask("/static", "GET", "/webapp/static/nothing.js", 404, static=True),
    "the question": Ask("/api/question", "GET", f"/webapp/api/question?{Q}", 200, auth=True),
    "no question open": Ask(
        "/api/question", "GET", f"/webapp/api/question?{Q}", 409, auth=True, open_question=False
    ),
    "the question, refused": Ask("/api/question", "GET", f"/webapp/api/question?{Q}", 401),
    "the question, posted": Ask("/api/question", "POST", f"/webapp/api/question?{Q}", 405),
    "a search": Ask("/api/search", "GET", f"/webapp/api/search?{Q}&q=Yaba", 200, auth=True),
    "a search, refused": Ask("/api/search", "GET", f"/webapp/api/search?{Q}&q=Yaba", 401),
    "a search too short": Ask("/api/search", "GET", f"/webapp/api/search?{Q}&q=Y", 400, auth=True),
    "the geocoder down": Ask(
        "/api/search", "GET", f"/webapp/api/search?{Q}&q=down", 503, auth=True
    ),
    "no geocoder": Ask(
        "/api/search", "GET", f"/webapp/api/search?{Q}&q=Yaba", 404, auth=True, geocoder=False
    ),
    "an unknown path": Ask("", "GET", "/webapp/elsewhere", 404),
}


@pytest.mark.parametrize("ask", ASKS.values(), ids=ASKS.keys())
async def test_every_answer_carries_the_pages_headers(ask: Ask) -> None:
    endpoints = _endpoints(open_question=ask.open_question, geocoder=ask.geocoder)
    app = Starlette(routes=endpoints.routes())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bot.test") as web:
        reply = await web.request(ask.method, ask.url, headers=_auth() if ask.auth else {})
    assert reply.status_code == ask.status
    for name, value in EXPECTED.items():
        wanted = "no-cache" if ask.static and name == "Cache-Control" else value
        assert reply.headers.get_list(name) == [wanted], name


async def test_searches_over_the_budget_carry_them_too() -> None:
    app = Starlette(routes=_endpoints().routes())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bot.test") as web:
        replies = [
            await web.get(f"/webapp/api/search?{Q}&q=Yaba", headers=_auth()) for _ in range(3)
        ]
    assert [reply.status_code for reply in replies] == [200, 200, 429]
    assert replies[-1].headers["x-content-type-options"] == "nosniff"
    assert replies[-1].headers["cache-control"] == "no-store"


async def test_a_static_file_unchanged_is_a_304_with_the_headers() -> None:
    app = Starlette(routes=_endpoints().routes())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bot.test") as web:
        first = await web.get("/webapp/static/leaflet/leaflet.js")
        again = await web.get(
            "/webapp/static/leaflet/leaflet.js", headers={"If-None-Match": first.headers["etag"]}
        )
    assert (first.status_code, again.status_code) == (200, 304)
    assert again.headers["cache-control"] == "no-cache"
    assert again.headers["x-content-type-options"] == "nosniff"


def _paths(routes: list[BaseRoute], prefix: str = "") -> set[str]:
    """The Mini App's routes, as paths under its mount (a static mount is one path)."""
    found: set[str] = set()
    for route in routes:
        if isinstance(route, Mount) and route.path == WEBAPP_PATH:
            found |= _paths(list(route.routes), "")
        elif isinstance(route, Mount | Route):
            found.add(prefix + route.path)
        else:
            raise AssertionError(f"a route of an unknown kind: {route!r}")
    return found


def test_the_table_requests_every_route() -> None:
    routes = _endpoints().routes()
    assert [type(route) for route in routes] == [Mount]  # one mount, behind the headers
    assert _paths(routes) == {ask.route for ask in ASKS.values() if ask.route}
