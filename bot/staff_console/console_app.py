"""The console's routes on the core's web app (``create_web_app``'s routes), under ``/console``.

=====================================  ==========================================================
``GET /console``                       to the deliveries list
``GET /console/signin/{token}``        a page with one "Sign in" button: a GET uses nothing up
                                       (chat apps and mail clients fetch links for previews)
``POST /console/signin/{token}``       the link redeemed (``StaffDoor.sign_in``): the session
                                       cookie set, then the list; a used, expired or unknown
                                       link gets a plain page saying what to do
``GET /console/signed-out``            where a request without a live session is sent
``POST /console/signout``              this session ended (CSRF token needed)
``POST /console/signout-everywhere``   every session of the member ended (CSRF token needed)
``GET /console/static/...``            the stylesheet, the icon
each section's routes                  ``deliveries_section`` (the list, a delivery's page),
                                       ``handoffs_section`` (the hand-off desk and its acts), ...
                                       ``live_section`` (the list's changes, live),
                                       ``riders_section`` (riders on one map), ...
=====================================  ==========================================================

Every answer carries ``console_headers``' headers. Forms are read only up to ``FORM_LIMIT``
bytes (413 past it, before any parsing); sign-in attempts are limited per client address
(``SignInFlood``, 429 with ``Retry-After``). Tokens appear in no log line, no redirect and no
page: the sign-in token only in its own URL, the CSRF token only in the forms of its session.
The words are in the language the member chose (``ConsoleKit.catalogue``), in the business's
default before anyone is signed in.
"""

from __future__ import annotations

from typing import Final, TypeVar
from urllib.parse import urlsplit

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bot.clocks import Clock
from bot.config import CONSOLE_PATH
from bot.staff.staff_door import SignedIn
from bot.staff_console.audit_section import AuditSection
from bot.staff_console.console_guard import SESSION_COOKIE
from bot.staff_console.console_headers import ConsoleHeaders
from bot.staff_console.console_kit import SIGNED_OUT, ConsoleKit, ConsoleSection, app_root, see
from bot.staff_console.console_pages import STATIC
from bot.staff_console.customer_data_section import CustomerDataSection
from bot.staff_console.customers_section import CustomersSection
from bot.staff_console.deliveries_section import DELIVERIES, DeliveriesSection
from bot.staff_console.delivery_actions import DeliveryActions
from bot.staff_console.funnel_section import FunnelSection
from bot.staff_console.handoffs_section import HandoffsSection
from bot.staff_console.health_section import HealthSection
from bot.staff_console.language_section import LanguageSection
from bot.staff_console.live_section import LiveSection
from bot.staff_console.riders_section import RidersSection
from bot.staff_console.sign_in_flood import SignInFlood
from bot.store import LinkRefusal
from conversations.texts.catalogue import Catalogue

SIGN_INS_PER_MINUTE: Final = 10
_Section = TypeVar("_Section")
_LINK_WORDS: Final = {
    LinkRefusal.USED: ("console_web.link_used", 410),
    LinkRefusal.EXPIRED: ("console_web.link_expired", 410),
    LinkRefusal.UNKNOWN: ("console_web.link_unknown", 404),
}


def console_sections(kit: ConsoleKit) -> list[ConsoleSection]:
    """Every section of the console, in the navigation's order."""
    return [
        LiveSection(kit),  # first: its path would read as a delivery's reference otherwise
        DeliveriesSection(kit),
        RidersSection(kit),
        DeliveryActions(kit),
        HandoffsSection(kit),
        CustomersSection(kit),
        CustomerDataSection(kit),
        FunnelSection(kit),
        AuditSection(kit),
        HealthSection(kit),
        LanguageSection(kit),
    ]


class ConsoleApp:
    """The console of one business: signing in and out, its sections over one ``kit``, and
    its own sign-in flood limit."""

    def __init__(
        self, kit: ConsoleKit, *, clock: Clock, sign_ins_per_minute: int = SIGN_INS_PER_MINUTE
    ) -> None:
        self._kit = kit
        self._origin = _origin(kit.services.public_base_url)
        self._flood = SignInFlood(sign_ins_per_minute, clock=clock)
        self._sections = console_sections(kit)
        kit.set_nav([section.nav for section in self._sections if section.nav is not None])

    @property
    def kit(self) -> ConsoleKit:
        """The parts every page and action goes through (its guard, its pages, its words)."""
        return self._kit

    def section(self, kind: type[_Section]) -> _Section:
        """The console's section of type ``kind`` (a benchmark or a test tunes it)."""
        return next(section for section in self._sections if isinstance(section, kind))

    def close_streams(self) -> None:
        """End the live list's open streams and refuse new ones: the server is stopping, and
        would otherwise wait for them (browsers reconnect, to another instance if there is)."""
        self.section(LiveSection).close()

    def routes(self) -> list[BaseRoute]:
        """``/console`` (a redirect) and the mount of every page, behind ``ConsoleHeaders``."""
        inside: list[BaseRoute] = [
            Route("/", self.home, methods=["GET"]),
            Route("/signin/{token}", self.sign_in_page, methods=["GET"]),
            Route("/signin/{token}", self.sign_in, methods=["POST"]),
            Route("/signed-out", self.signed_out, methods=["GET"]),
            Route("/signout", self.sign_out, methods=["POST"]),
            Route("/signout-everywhere", self.sign_out_everywhere, methods=["POST"]),
            *(route for section in self._sections for route in section.routes()),
            Mount("/static", StaticFiles(directory=STATIC), name="console-static"),
        ]
        tiles = self._kit.services.map_tiles
        guard = Middleware(
            ConsoleHeaders,
            error_page=self.error_page,
            tiles_url=tiles.url_template if tiles is not None else None,
        )
        return [
            Route(CONSOLE_PATH, self.home, methods=["GET"]),
            Mount(CONSOLE_PATH, routes=inside, middleware=[guard]),
        ]

    async def home(self, request: Request) -> Response:
        return see(request, DELIVERIES)

    async def sign_in_page(self, request: Request) -> Response:
        catalogue = await self._link_catalogue(request)
        action = request.url.path  # the same URL: the token is already in it, nowhere else
        return self._kit.pages.page("signin.html", catalogue, root=app_root(request), action=action)

    async def sign_in(self, request: Request) -> Response:
        catalogue = self._kit.catalogue()
        address = request.client.host if request.client else "unknown"
        wait = self._flood.wait_seconds(address)
        if wait:
            response = self._kit.plain(request, catalogue, "console_web.refused_flood", 429)
            response.headers["Retry-After"] = str(wait)
            return response
        if not self._same_origin(request):
            return self._kit.plain(request, catalogue, "console_web.refused_csrf", 403)
        form = await self._kit.form(request)
        if isinstance(form, Response):
            return form
        signed = await self._kit.door.sign_in(request.path_params["token"])
        if not isinstance(signed, SignedIn):
            key, status = _LINK_WORDS[signed]
            return self._kit.plain(request, await self._link_catalogue(request), key, status)
        response = see(request, DELIVERIES)
        response.set_cookie(
            SESSION_COOKIE,
            signed.session.token,
            path=app_root(request) + CONSOLE_PATH,  # two businesses on one host: two cookies
            secure=True,
            httponly=True,
            samesite="strict",
        )
        return response

    async def signed_out(self, request: Request) -> Response:
        response = self._kit.plain(request, self._kit.catalogue(), "console_web.signed_out", 200)
        path = app_root(request) + CONSOLE_PATH
        response.delete_cookie(SESSION_COOKIE, path=path, secure=True, httponly=True)
        return response

    async def sign_out(self, request: Request) -> Response:
        posted = await self._kit.posted(request)
        if isinstance(posted, Response):
            return posted
        await self._kit.door.sign_out(request.cookies.get(SESSION_COOKIE, ""))
        return see(request, SIGNED_OUT)

    async def sign_out_everywhere(self, request: Request) -> Response:
        posted = await self._kit.posted(request)
        if isinstance(posted, Response):
            return posted
        member = posted.session.member
        await self._kit.door.sign_out_everywhere(member, by=f"staff:{member.id}")
        return see(request, SIGNED_OUT)

    async def error_page(self, request: Request, status: int) -> Response:
        """A plain page for what Starlette raises inside the console (404, 405), in the
        language of the member asking, if one is signed in."""
        catalogue = self._kit.catalogue(await self._kit.guard.session(request))
        return self._kit.plain(request, catalogue, "console_web.not_found", status)

    async def _link_catalogue(self, request: Request) -> Catalogue:
        """The words of a sign-in link's pages: its member's language, before they sign in."""
        language = await self._kit.door.link_language(request.path_params["token"])
        return self._kit.texts.catalogue_for(language)

    def _same_origin(self, request: Request) -> bool:
        """Whether a sign-in was posted from the console's own page, as far as the browser
        says: another site's form must not sign a visitor in as someone else (login CSRF).
        A browser names where a request comes from in ``Sec-Fetch-Site``, and in ``Origin``
        (``null`` under the pages' ``no-referrer`` policy); a client that says neither, not a
        browser, is let through."""
        site = request.headers.get("sec-fetch-site")
        if site is not None and site != "same-origin":
            return False
        origin = request.headers.get("origin")
        return origin is None or origin in ("null", self._origin)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
