"""The Mini App's routes on the bot's web app (``create_web_app(extra_routes=...)``).

=================================  ============================================================
``GET /webapp/place?chat=<id>``    the page (``static/place.html``), with the strict headers of
                                   ``page_policy``
``GET /webapp/static/...``         its script, styles and the pinned Leaflet (``static/``)
``GET /webapp/api/question``       the chat's open place question (``place_question``)
``GET /webapp/api/search?q=...``   the bot's geocoder, within each user's ``SearchBudget``
=================================  ============================================================

Every API request carries Telegram's ``initData`` (``Authorization: tma <initData>``), verified
by ``init_data``; its user must be the chat's (``chat=<id>``: the bot's chats are private, so
the chat id is the user id). Anything else is 401 and nothing is read or spent. What the
routes say is picked from the business's texts in the language of the user's client
(``initData``'s ``language_code``; a refusal, unverified, uses the URL's ``lang`` hint).

All of them sit in one mount behind ``ProtectiveHeaders``: every answer under ``/webapp``, the
errors included, carries the headers of ``page_policy``.
"""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bot.clocks import Clock
from bot.config.webapp_section import WEBAPP_PATH, WebappConfig
from bot.webapp.init_data import InitDataRefused, WebAppUser, verify_init_data
from bot.webapp.page_policy import page_headers, static_headers
from bot.webapp.place_question import PlaceQuestions
from bot.webapp.protective_headers import ProtectiveHeaders
from bot.webapp.search_budget import SearchBudget
from bot.webapp.webapp_texts import EN
from conversations.services import Geocoder, ServiceUnavailable
from conversations.texts import dialogue
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue, placeholders

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
AUTH_SCHEME: Final = "tma "
QUERY_LENGTH: Final = (3, 200)  # as the chat's typed address (``place_steps.QUERY_LENGTH``)
PAGE_TEXTS: Final = tuple(key for key in EN if key.startswith("webapp."))


@dataclass(frozen=True)
class _Caller:
    user: WebAppUser
    chat_id: int


class WebappEndpoints:
    """The handlers; ``bot_token`` verifies ``initData``, ``clock`` (unix seconds) its age;
    ``texts`` are the business's (``BotCore.texts``), what the page and its answers say."""

    def __init__(
        self,
        config: WebappConfig,
        *,
        bot_token: str,
        questions: PlaceQuestions,
        geocoder: Geocoder | None,
        clock: Clock,
        texts: BusinessTexts,
    ) -> None:
        self._config = config
        self._texts = texts
        self._token = bot_token
        self._questions = questions
        self._geocoder = geocoder
        self._clock = clock
        self._budget = SearchBudget(config.searches_per_minute, clock=clock)
        self._page = _page_html(config)

    def routes(self) -> list[BaseRoute]:
        """One mount, ``/webapp``, whose every answer carries the page's headers."""
        tiles = self._config.tiles.url_template
        guard = Middleware(
            ProtectiveHeaders,
            headers=page_headers(tiles),
            static=static_headers(tiles),
            static_prefix=f"{WEBAPP_PATH}/static/",
        )
        inside = [
            Route("/place", self.page, methods=["GET"]),
            Route("/api/question", self.question, methods=["GET"]),
            Route("/api/search", self.search, methods=["GET"]),
            Mount("/static", StaticFiles(directory=STATIC), name="webapp-static"),
        ]
        return [Mount(WEBAPP_PATH, routes=inside, middleware=[guard])]

    async def page(self, request: Request) -> Response:
        return HTMLResponse(self._page)

    async def question(self, request: Request) -> Response:
        caller = self._caller(request)
        if caller is None:
            return self._refused(request)
        catalogue = self._texts.catalogue_for(caller.user.language_code)
        found = await self._questions.question(catalogue, caller.chat_id)
        texts = _page_texts(catalogue, found.coverage.radius_km if found else None)
        if found is None:
            return JSONResponse({"error": catalogue.say("webapp.closed"), "texts": texts}, 409)
        return JSONResponse({"question": found.model_dump(mode="json"), "texts": texts})

    async def search(self, request: Request) -> Response:
        caller = self._caller(request)
        if caller is None:
            return self._refused(request)
        catalogue = self._texts.catalogue_for(caller.user.language_code)
        if self._geocoder is None:
            return JSONResponse({"error": catalogue.say("steps.no_address_search")}, 404)
        query = " ".join(request.query_params.get("q", "").split())
        if not QUERY_LENGTH[0] <= len(query) <= QUERY_LENGTH[1]:
            return JSONResponse({"error": catalogue.say("webapp.no_results")}, 400)
        if not self._budget.take(caller.user.id):
            return JSONResponse({"error": catalogue.say("webapp.search_limited")}, 429)
        try:
            found = await self._geocoder.geocode(query)
        except ServiceUnavailable:
            return JSONResponse({"error": catalogue.say("steps.address_search_down")}, 503)
        places = [place.model_dump(mode="json") for place in found[:5]]
        return JSONResponse({"places": places})

    def _caller(self, request: Request) -> _Caller | None:
        """The verified user, when they are the chat's; None (logged) for anything else."""
        header = request.headers.get("authorization", "")
        raw = header[len(AUTH_SCHEME) :] if header.startswith(AUTH_SCHEME) else ""
        try:
            user = verify_init_data(
                raw,
                bot_token=self._token,
                now=self._clock(),
                max_age=self._config.init_data_max_age,
            )
        except InitDataRefused as exc:
            log.info("Mini App request refused: %s", exc)
            return None
        chat = request.query_params.get("chat", "")
        if not chat.lstrip("-").isdigit() or int(chat) != user.id:
            log.info("Mini App request refused: initData of another user than the chat's")
            return None
        return _Caller(user, int(chat))

    def _refused(self, request: Request) -> Response:
        # Unverified, so only the URL's language hint is used to say it.
        catalogue = self._texts.catalogue_for(request.query_params.get("lang"))
        return JSONResponse({"error": catalogue.say("webapp.refused")}, 401)


def _page_texts(catalogue: Catalogue, radius_km: float | None) -> dict[str, str]:
    """The page's own words, said from ``catalogue``."""
    # Placeholders stay as they are ("{label}"): the page fills them in.
    texts = {
        key.removeprefix("webapp."): catalogue.say(
            key, **{name: f"{{{name}}}" for name in _names(key)}
        )
        for key in PAGE_TEXTS
    }
    texts["outside"] = dialogue.outside_area(catalogue, radius_km or 0)
    return texts


def _names(key: str) -> frozenset[str]:
    return placeholders(EN[key])


def _page_html(config: WebappConfig) -> str:
    """``place.html`` with the tile settings in its ``data-`` attributes (no inline script)."""
    template = (STATIC / "place.html").read_text(encoding="utf-8")
    return template.replace("{tiles}", html.escape(config.tiles.url_template, quote=True)).replace(
        "{attribution}", html.escape(config.tiles.attribution, quote=True)
    )
