"""The Mini App's page in a real browser: the bot's webapp routes served by uvicorn over a
stand-in question and geocoder, a local tile server, and headless Chromium (the system's
package) driven by Playwright with a stand-in ``window.Telegram.WebApp`` that records what the
page sends back.

    async with page_world() as world:
        world.questions.open = place_question(...)
        page = await world.open_page()
        ...
        assert await world.sent(page) == [...]
"""

from __future__ import annotations

import json
import shutil
import struct
import time
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser, Page, async_playwright
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp

from bot.config.webapp_section import TilesConfig, WebappConfig
from bot.runtime.serving import listening_socket, start_web_server
from bot.webapp.init_data import sign_init_data, user_fields
from bot.webapp.place_question import (
    Circle,
    Coverage,
    CurrentAnswer,
    PlaceQuestion,
    SavedPlace,
    UnitRules,
)
from bot.webapp.routes import WebappEndpoints
from conversations.services import GeocodedPlace
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue
from tests.staff_console.prefixed import PrefixedApps
from tests.support.words import SHIPPED_TEXTS, say

TOKEN = "123456:AAE-the-bot-token-of-these-tests-0123456"
USER_ID = 4242
YABA = (6.5090, 3.3792)  # the warehouse the coverage circle is drawn around
RADIUS_KM = 10.0


def business_texts() -> BusinessTexts:
    """The default business's texts, with every shipped channel's words (the page's too)."""
    return BusinessTexts(SHIPPED_TEXTS)


def chromium_path() -> str:
    """The system's Chromium (``make browser`` installs it); a missing one fails the tests."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found is not None:
            return found
    raise RuntimeError("no chromium on PATH: run `make browser` (the Mini App's tests need it)")


def _png(rgb: tuple[int, int, int]) -> bytes:
    """A 256x256 tile: one colour with a darker grid line, so the map looks like a map."""
    line = bytes(c * 3 // 4 for c in rgb)
    rows = []
    for y in range(256):
        if y % 64 == 0:
            rows.append(b"\x00" + line * 256)
        else:
            rows.append(b"\x00" + (line + bytes(rgb) * 63) * 4)
    raw = b"".join(rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


TILE = _png((233, 229, 220))


@dataclass
class TileServer:
    """Serves the same tile for every ``/{z}/{x}/{y}.png``; ``failing`` answers 503 instead."""

    failing: bool = False
    served: int = 0

    async def tile(self, request: Request) -> Response:
        if self.failing:
            return Response(b"down", status_code=503)
        self.served += 1
        return Response(TILE, media_type="image/png")


@dataclass
class StubQuestions:
    """The open question the page gets (None: no place question is open)."""

    open: PlaceQuestion | None = None
    asked: list[int] = field(default_factory=list)

    async def question(self, catalogue: Catalogue, chat_id: int) -> PlaceQuestion | None:
        self.asked.append(chat_id)
        if self.open is None:
            return None
        # Titled in the language of the request, as ``ChatPlaceQuestions`` titles it.
        title = catalogue.say(f"flows.title.{self.open.step}")
        return self.open.model_copy(update={"title": title})


@dataclass
class StubGeocoder:
    places: dict[str, list[GeocodedPlace]] = field(default_factory=dict)

    async def geocode(self, query: str) -> list[GeocodedPlace]:
        return self.places.get(query.casefold(), [])

    async def reverse(self, lat: float, lng: float) -> GeocodedPlace | None:
        return None  # pins are named by the customer in these tests


def saved_place(
    place_id: str, name: str, at: tuple[float, float], unit: UnitRules | None = None
) -> SavedPlace:
    return SavedPlace(
        id=place_id,
        name=name,
        address=f"{name} Road, Lagos",
        lat=at[0],
        lng=at[1],
        unit=unit
        or UnitRules(mode="none", label="Unit", choices=[], allow_custom=False, required=False),
    )


HOSTEL_ROOMS = UnitRules(
    mode="list", label="Room", choices=["A01", "A02", "B01"], allow_custom=False, required=True
)


def place_question(
    *, current: CurrentAnswer | None = None, version: int = 7, step: str = "dropoff_place"
) -> PlaceQuestion:
    """A drop-off question (or ``step``'s) with two saved places around Yaba inside a 10 km
    radius, titled as the flows title their place questions."""
    return PlaceQuestion(
        step=step,
        version=version,
        role=step.removesuffix("_place"),
        title=say(f"flows.title.{step}"),
        saved=[
            saved_place("hostel-1", "Unilag Hostel", (6.5158, 3.3898), HOSTEL_ROOMS),
            saved_place("gate-2", "Yaba Market Gate", (6.5120, 3.3780)),
        ],
        coverage=Coverage(
            mode="radius_from_hub",
            circles=[Circle(lat=YABA[0], lng=YABA[1], radius_m=(2 * RADIUS_KM + 0.5) * 1000)],
            radius_km=RADIUS_KM,
        ),
        current=current,
        search=True,
    )


def _stub_telegram(init_data: str, language: str) -> str:
    """The init script standing in for Telegram's client: records sendData and the main
    button; ``Telegram.WebApp.MainButton.press()`` is the customer tapping it."""
    user = {"id": USER_ID, "language_code": language}
    return f"""
    window.__sent = [];
    (function () {{
      var handlers = [];
      var main = {{
        text: "", isVisible: false, isActive: true,
        setText: function (t) {{ main.text = t; return main; }},
        show: function () {{ main.isVisible = true; return main; }},
        hide: function () {{ main.isVisible = false; return main; }},
        enable: function () {{ main.isActive = true; return main; }},
        disable: function () {{ main.isActive = false; return main; }},
        onClick: function (f) {{ handlers.push(f); return main; }},
        press: function () {{
          if (main.isActive) {{ handlers.forEach(function (f) {{ f(); }}); }}
        }},
      }};
      window.Telegram = {{ WebApp: {{
        initData: {json.dumps(init_data)},
        initDataUnsafe: {{ user: {json.dumps(user)} }},
        themeParams: {{ bg_color: "#1c1c1d", text_color: "#ffffff", button_color: "#e67e22",
                        button_text_color: "#ffffff", secondary_bg_color: "#2c2c2e",
                        hint_color: "#aaaaaa", link_color: "#f39c12" }},
        colorScheme: "dark",
        MainButton: main,
        ready: function () {{}}, expand: function () {{}},
        onEvent: function () {{}},
        sendData: function (data) {{ window.__sent.push(JSON.parse(data)); }},
      }} }};
    }})();
    """


@dataclass
class PageWorld:
    browser: Browser
    base_url: str
    questions: StubQuestions
    geocoder: StubGeocoder
    tiles: TileServer
    # Script errors and Content-Security-Policy violations the pages reported: none expected.
    problems: list[str] = field(default_factory=list)

    def init_data(self, *, user_id: int = USER_ID, language: str = "en") -> str:
        fields = user_fields(user_id, auth_date=int(time.time()), language_code=language)
        return sign_init_data(fields, bot_token=TOKEN)

    async def open_page(
        self,
        *,
        language: str = "en",
        init_data: str | None = None,
        ready: bool = True,
        located_at: tuple[float, float] | None = None,
        height: int = 860,
    ) -> Page:
        """The page as Telegram opens it for ``USER_ID``; ``ready`` waits until its question
        is drawn; ``located_at`` is where the device says it is (permission granted);
        ``height`` is the Mini App's (a phone's screen less Telegram's own header)."""
        page = await self.browser.new_page(
            viewport={"width": 420, "height": height},
            geolocation=None
            if located_at is None
            else {"latitude": located_at[0], "longitude": located_at[1]},
            permissions=None if located_at is None else ["geolocation"],
        )
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                self.problems.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )
        raw = init_data if init_data is not None else self.init_data(language=language)
        await page.add_init_script(_stub_telegram(raw, language))
        await page.goto(f"{self.base_url}/webapp/place?chat={USER_ID}")
        if ready:
            # A selector, not a script: the page's CSP forbids evaluating strings.
            await page.wait_for_selector("#title:not(:empty)")
        return page

    async def sent(self, page: Page) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await page.evaluate("window.__sent")
        return result

    async def press_main_button(self, page: Page) -> None:
        await page.evaluate("window.Telegram.WebApp.MainButton.press()")


@asynccontextmanager
async def page_world(business: str | None = None) -> AsyncIterator[PageWorld]:
    """The world above; ``business``: the page's app served under ``/b/{business}``, as a
    host of many businesses serves each one's (``base_url`` then ends with it)."""
    tiles = TileServer()
    tile_app = Starlette(routes=[Route("/tiles/{z}/{x}/{y}.png", tiles.tile)])
    tile_socket = listening_socket("127.0.0.1", 0)
    tile_port = tile_socket.getsockname()[1]
    questions, geocoder = StubQuestions(), StubGeocoder()
    config = WebappConfig(
        enabled=True,
        tiles=TilesConfig(
            url_template=f"http://127.0.0.1:{tile_port}/tiles/{{z}}/{{x}}/{{y}}.png",
            attribution="© test tiles",
        ),
    )
    endpoints = WebappEndpoints(
        config,
        bot_token=TOKEN,
        questions=questions,
        geocoder=geocoder,
        clock=time.time,
        texts=business_texts(),
    )
    app_socket = listening_socket("127.0.0.1", 0)
    app_port = app_socket.getsockname()[1]
    tile_server = await start_web_server(tile_app, [tile_socket])
    app: ASGIApp = Starlette(routes=endpoints.routes())
    base_url = f"http://127.0.0.1:{app_port}"
    if business is not None:
        app, base_url = PrefixedApps({business: app}), f"{base_url}/b/{business}"
    app_server = await start_web_server(app, [app_socket])
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium_path())
            try:
                yield PageWorld(browser, base_url, questions, geocoder, tiles)
            finally:
                await browser.close()
    finally:
        await app_server.shutdown(sockets=[app_socket])
        await tile_server.shutdown(sockets=[tile_socket])
