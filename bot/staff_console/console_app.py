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
``GET /console/deliveries``            the list (``deliveries_page``), filtered by a GET form
``GET /console/static/console.css``    the one stylesheet
=====================================  ==========================================================

Every answer carries ``console_headers``' headers. Forms are read only up to ``FORM_LIMIT``
bytes (413 past it, before any parsing); sign-in attempts are limited per client address
(``SignInFlood``, 429 with ``Retry-After``). Tokens appear in no log line, no redirect and no
page: the sign-in token only in its own URL, the CSRF token only in the forms of its session.
The words are the business's catalogue's; times are in UTC, as the config names no zone yet.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import UTC
from typing import Any, Final
from urllib.parse import parse_qs, urlencode, urlsplit

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bot.clocks import Clock
from bot.config import CONSOLE_PATH
from bot.partner.vocabulary import DELIVERY_STATUSES
from bot.staff.staff_door import SignedIn, StaffDoor
from bot.staff_console.console_guard import (
    CSRF_FIELD,
    SESSION_COOKIE,
    ConsoleGuard,
    Refusal,
    RoleRefused,
    SignedOut,
)
from bot.staff_console.console_headers import CONSOLE_HEADERS, ConsoleHeaders
from bot.staff_console.console_pages import STATIC, ConsolePages
from bot.staff_console.deliveries_page import channel_label, deliveries_page
from bot.staff_console.delivery_filters import FiltersRefused, parse_cursor, parse_filters
from bot.staff_console.delivery_timeline import TimelineRefused, delivery_timeline
from bot.staff_console.sign_in_flood import SignInFlood
from bot.store import LinkRefusal, StaffSession, Store
from bot.store.delivery_list import Attention
from bot.web.body import BodyTooLarge, MalformedBody, read_limited
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import status_label

FORM_LIMIT: Final = 16 * 1024
"""The largest form body read: the console's forms carry a token and a few short fields."""
SIGN_INS_PER_MINUTE: Final = 10
DELIVERIES: Final = f"{CONSOLE_PATH}/deliveries"
SIGNED_OUT: Final = f"{CONSOLE_PATH}/signed-out"
ZONE_NAME: Final = "UTC"
_LINK_WORDS: Final = {
    LinkRefusal.USED: ("console_web.link_used", 410),
    LinkRefusal.EXPIRED: ("console_web.link_expired", 410),
    LinkRefusal.UNKNOWN: ("console_web.link_unknown", 404),
}


class ConsoleApp:
    """The console of one business: its door, its store, its words and its own flood limit.

    ``channel_names`` says which channels the bot runs (asked per request: channels register
    after the core is built); ``phone_region`` reads searched phone numbers.
    """

    def __init__(
        self,
        door: StaffDoor,
        store: Store,
        texts: BusinessTexts,
        *,
        public_base_url: str,
        channel_names: Callable[[], Collection[str]],
        phone_region: str,
        clock: Clock,
        sign_ins_per_minute: int = SIGN_INS_PER_MINUTE,
    ) -> None:
        self._door = door
        self._store = store
        self._texts = texts
        self._origin = _origin(public_base_url)
        self._channel_names = channel_names
        self._phone_region = phone_region
        self._guard = ConsoleGuard(door, store)
        self._pages = ConsolePages()
        self._flood = SignInFlood(sign_ins_per_minute, clock=clock)

    @property
    def guard(self) -> ConsoleGuard:
        """Who may do what: the same guard every console page and action goes through."""
        return self._guard

    def routes(self) -> list[BaseRoute]:
        """``/console`` (a redirect) and the mount of every page, behind ``ConsoleHeaders``."""
        inside = [
            Route("/", self.home, methods=["GET"]),
            Route("/signin/{token}", self.sign_in_page, methods=["GET"]),
            Route("/signin/{token}", self.sign_in, methods=["POST"]),
            Route("/signed-out", self.signed_out, methods=["GET"]),
            Route("/signout", self.sign_out, methods=["POST"]),
            Route("/signout-everywhere", self.sign_out_everywhere, methods=["POST"]),
            Route("/deliveries", self.deliveries, methods=["GET"]),
            Route("/deliveries/{ref}", self.delivery, methods=["GET"]),
            Mount("/static", StaticFiles(directory=STATIC), name="console-static"),
        ]
        guard = Middleware(ConsoleHeaders, error_page=self.error_page)
        return [
            Route(CONSOLE_PATH, self.home, methods=["GET"]),
            Mount(CONSOLE_PATH, routes=inside, middleware=[guard]),
        ]

    # --- signing in and out -------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        return _see(DELIVERIES)

    async def sign_in_page(self, request: Request) -> Response:
        catalogue = self._catalogue()
        action = request.url.path  # the same URL: the token is already in it, nowhere else
        return self._pages.page("signin.html", catalogue, action=action)

    async def sign_in(self, request: Request) -> Response:
        catalogue = self._catalogue()
        address = request.client.host if request.client else "unknown"
        wait = self._flood.wait_seconds(address)
        if wait:
            response = self._plain(catalogue, "console_web.refused_flood", 429)
            response.headers["Retry-After"] = str(wait)
            return response
        if not self._same_origin(request):
            return self._plain(catalogue, "console_web.refused_csrf", 403)
        form = await self._form(request, catalogue)
        if isinstance(form, Response):
            return form
        signed = await self._door.sign_in(request.path_params["token"])
        if not isinstance(signed, SignedIn):
            key, status = _LINK_WORDS[signed]
            return self._plain(catalogue, key, status)
        response = _see(DELIVERIES)
        response.set_cookie(
            SESSION_COOKIE,
            signed.session.token,
            path=CONSOLE_PATH,
            secure=True,
            httponly=True,
            samesite="strict",
        )
        return response

    async def signed_out(self, request: Request) -> Response:
        response = self._plain(self._catalogue(), "console_web.signed_out", 200)
        response.delete_cookie(SESSION_COOKIE, path=CONSOLE_PATH, secure=True, httponly=True)
        return response

    async def sign_out(self, request: Request) -> Response:
        found = await self._posted(request)
        if not isinstance(found, StaffSession):
            return found
        await self._door.sign_out(request.cookies.get(SESSION_COOKIE, ""))
        return _see(SIGNED_OUT)

    async def sign_out_everywhere(self, request: Request) -> Response:
        found = await self._posted(request)
        if not isinstance(found, StaffSession):
            return found
        await self._door.sign_out_everywhere(found.member, by=f"staff:{found.member.id}")
        return _see(SIGNED_OUT)

    # --- the deliveries list ------------------------------------------------------------------

    async def deliveries(self, request: Request) -> Response:
        found = await self._guard.allowed(request, "viewer")
        if not isinstance(found, StaffSession):
            return self.refused(found)
        catalogue = self._catalogue()
        fields = parse_qs(request.url.query, keep_blank_values=True)
        channels = sorted(self._channel_names())
        filters = parse_filters(
            catalogue, fields, channels=channels, zone=UTC, phone_region=self._phone_region
        )
        after_text = _last(fields, "after")
        after = parse_cursor(catalogue, after_text) if after_text else None
        refusal = next((f for f in (filters, after) if isinstance(f, FiltersRefused)), None)
        context: dict[str, Any] = {
            "rows": (),
            "next_link": None,
            "refusal": None,
            "paged": bool(after_text),
            "asked": {name: _last(fields, name) for name in ("status", "day", "channel", "q")},
            "asked_attention": set(_all(fields, "attention")),
            "statuses": [(s, status_label(catalogue, s)) for s in DELIVERY_STATUSES],
            "channels": [(c, channel_label(catalogue, c)) for c in channels],
            "attention_kinds": [
                (kind.value, catalogue.say(f"console_web.attention.{kind.value}"))
                for kind in Attention
            ],
            "zone": ZONE_NAME,
        }
        if refusal is not None:
            context["refusal"] = refusal.reason
            return self._page("deliveries.html", catalogue, found, status=400, **context)
        assert not isinstance(filters, FiltersRefused)
        assert not isinstance(after, FiltersRefused)
        page = await deliveries_page(self._store, catalogue, filters, after)
        context["rows"] = page.rows
        if page.next_after is not None:
            kept = [(k, v) for k, vs in fields.items() if k != "after" for v in vs if v]
            context["next_link"] = f"{DELIVERIES}?{urlencode([*kept, ('after', page.next_after)])}"
        return self._page("deliveries.html", catalogue, found, **context)

    async def delivery(self, request: Request) -> Response:
        """One delivery's page: its header and its history (``delivery_timeline``), read by
        any staff member; the drop-off code is never part of it."""
        found = await self._guard.allowed(request, "viewer")
        if not isinstance(found, StaffSession):
            return self.refused(found)
        catalogue = self._catalogue()
        typed = request.path_params["ref"][:64]
        timeline = await delivery_timeline(self._store, catalogue, UTC, typed)
        if timeline is None or isinstance(timeline, TimelineRefused):
            text = (
                catalogue.say("console_web.delivery.not_found", ref=typed.upper())
                if timeline is None
                else timeline.reason
            )
            return self._page(
                "plain.html", catalogue, found, status=404 if timeline is None else 400,
                title_key="console_web.page.refused", text=text,
            )  # fmt: skip
        ref = timeline.header.row.reference
        return self._page(
            "delivery.html", catalogue, found, timeline=timeline, ref=ref, zone=ZONE_NAME
        )

    # --- refusals -----------------------------------------------------------------------------

    def refused(self, refusal: Refusal) -> Response:
        """The answer to ``refusal``: the signed-out page for no session, a plain 403 page
        otherwise (already audited by the guard)."""
        if isinstance(refusal, SignedOut):
            return _see(SIGNED_OUT)
        catalogue = self._catalogue()
        if isinstance(refusal, RoleRefused):
            role = catalogue.say(f"console_web.role.{refusal.session.member.role}")
            needed = catalogue.say(f"console_web.role.{refusal.needed}")
            text = catalogue.say("console_web.refused_role", role=role, needed=needed)
            return self._pages.page(
                "plain.html",
                catalogue,
                status=403,
                title_key="console_web.page.refused",
                text=text,
            )
        return self._plain(catalogue, "console_web.refused_csrf", 403)

    async def error_page(self, request: Request, status: int) -> Response:
        """A plain page for what Starlette raises inside the console (404, 405)."""
        return self._plain(self._catalogue(), "console_web.not_found", status)

    # --- helpers ------------------------------------------------------------------------------

    async def _posted(self, request: Request) -> StaffSession | Response:
        """The session of a form post that may go on (a viewer's role suffices), or the
        refusal to answer with."""
        catalogue = self._catalogue()
        form = await self._form(request, catalogue)
        if isinstance(form, Response):
            return form
        found = await self._guard.form_allowed(request, form, "viewer")
        return found if isinstance(found, StaffSession) else self.refused(found)

    async def _form(
        self, request: Request, catalogue: Catalogue
    ) -> dict[str, list[str]] | Response:
        """The posted form's fields; a body over ``FORM_LIMIT`` is refused before parsing."""
        try:
            raw = await read_limited(request, FORM_LIMIT)
        except BodyTooLarge:
            return self._plain(catalogue, "console_web.refused_too_large", 413)
        except MalformedBody:
            return self._plain(catalogue, "console_web.refused_csrf", 400)
        return parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True)

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

    def _catalogue(self) -> Catalogue:
        return self._texts.business_catalogue()

    def _page(
        self,
        name: str,
        catalogue: Catalogue,
        session: StaffSession,
        *,
        status: int = 200,
        **context: Any,
    ) -> Response:
        member = session.member
        signed_in_as = catalogue.say(
            "console_web.signed_in_as",
            name=member.name,
            role=catalogue.say(f"console_web.role.{member.role}"),
        )
        return self._pages.page(
            name,
            catalogue,
            status=status,
            signed_in_as=signed_in_as,
            csrf_field=CSRF_FIELD,
            csrf=session.csrf_token,
            **context,
        )

    def _plain(self, catalogue: Catalogue, key: str, status: int) -> Response:
        title = "console_web.page.signed_out" if status < 400 else "console_web.page.refused"
        return self._pages.page(
            "plain.html", catalogue, status=status, title_key=title, text=catalogue.say(key)
        )


def _see(path: str) -> Response:
    """A 303 to ``path``, with the console's headers (``/console`` itself is outside the
    mount that adds them)."""
    return RedirectResponse(path, status_code=303, headers=CONSOLE_HEADERS)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _all(fields: dict[str, list[str]], name: str) -> list[str]:
    return [part.strip() for value in fields.get(name, ()) for part in value.split(",") if part]


def _last(fields: dict[str, list[str]], name: str) -> str:
    values = [value.strip() for value in fields.get(name, ()) if value.strip()]
    return values[-1] if values else ""
