"""``ConsoleKit``: what every console page and action shares, so each section of the console is
a small module of its own (``ConsoleSection``) over one kit.

A section asks the kit who is asking and whether their role may (``viewer``, ``posted``),
which words to speak (``catalogue``), draws its page (``page``, ``refusal_page``) and writes
what staff did to the audit trail (``audit``), the actor being ``staff:<member id>``. It reaches
the rest of the bot through the kit's services: the store, the Partner API client, the
hand-off desk, the business's metrics.

Every path the console's code names (``DELIVERIES``, ``delivery_path``...) is the app's own,
from ``/console``; the web app may be served under a prefix (a host of many businesses serves
business ``acme`` under ``/b/acme``, as a reverse proxy mounting it would), which the request
carries as its ASGI ``root_path``. ``app_root`` reads it, and every page (``root`` in its
templates), redirect (``see``) and cookie puts it in front, so a browser never leaves it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute

from bot.clocks import Clock
from bot.config import CONSOLE_PATH, TilesConfig
from bot.handoff.desk import HandoffDesk
from bot.metrics.business_metrics import Metrics
from bot.ordering import ChatService
from bot.partner.client import PartnerClient
from bot.staff.staff_door import StaffDoor
from bot.staff_console.console_guard import (
    CSRF_FIELD,
    ConsoleGuard,
    Refusal,
    RoleRefused,
    SignedOut,
)
from bot.staff_console.console_headers import CONSOLE_HEADERS
from bot.staff_console.console_languages import console_languages
from bot.staff_console.console_pages import ConsolePages
from bot.staff_roles import StaffRole
from bot.store import StaffSession, Store
from bot.web.body import BodyTooLarge, MalformedBody, read_limited
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

FORM_LIMIT: Final = 16 * 1024
"""The largest form body read: the console's forms carry a token and a few short fields."""
SIGNED_OUT: Final = f"{CONSOLE_PATH}/signed-out"
ZONE_NAME: Final = "UTC"
"""The zone every time on the console's pages is in (the config names none yet)."""

Form = dict[str, list[str]]


@dataclass(frozen=True)
class NavEntry:
    """A link in every page's navigation: the page's path and the text key of its name."""

    path: str
    text_key: str


class ConsoleSection(Protocol):
    """One part of the console (its deliveries, hand-offs, customers...): its routes, relative
    to ``/console``, and its link in the navigation (None: reached from other pages only)."""

    @property
    def nav(self) -> NavEntry | None: ...

    def routes(self) -> list[BaseRoute]: ...


@dataclass(frozen=True)
class Posted:
    """A form post that may go on: its request, its session and its fields (CSRF token
    checked)."""

    request: Request
    session: StaffSession
    form: Form

    def field(self, name: str) -> str:
        """The last value of ``name``, stripped; "" when the form has none."""
        values = [value.strip() for value in self.form.get(name, ())]
        return values[-1] if values else ""


@dataclass(frozen=True)
class ConsoleServices:
    """The bot's parts the console reaches beyond its store (all of one business)."""

    client: PartnerClient
    chats: ChatService
    """The chat service: its guards (``chats.blocking``) are the ones every turn obeys."""
    handoffs: HandoffDesk
    metrics: Metrics
    channel_names: Callable[[], Collection[str]]
    """The channels the bot runs (asked per request: channels register after the core)."""
    phone_region: str
    public_base_url: str
    map_tiles: TilesConfig | None = None
    """The tiles the pages' maps are drawn on (the Mini App's); None: no map is drawn."""


class ConsoleKit:
    """The console's shared parts over one business: its door, store, words and services."""

    def __init__(
        self,
        door: StaffDoor,
        store: Store,
        texts: BusinessTexts,
        services: ConsoleServices,
        *,
        clock: Clock,
    ) -> None:
        self.door = door
        self.store = store
        self.texts = texts
        self.services = services
        self.clock = clock
        self.guard = ConsoleGuard(door, store)
        self.pages = ConsolePages()
        self._nav: tuple[NavEntry, ...] = ()

    def set_nav(self, entries: Sequence[NavEntry]) -> None:
        """The navigation every signed-in page shows (``ConsoleApp`` gathers it once, from
        its sections, before serving)."""
        self._nav = tuple(entries)

    # --- who is asking ------------------------------------------------------------------------

    def catalogue(self, session: StaffSession | None = None) -> Catalogue:
        """The words a page is drawn in: the language its member chose (or their Telegram
        client had when they first asked for a link); the business's default for a member
        who has none, for a language no longer shipped, and outside a session."""
        if session is None:
            return self.texts.business_catalogue()
        return self.texts.catalogue_for(session.member.language)

    async def viewer(
        self, request: Request, needed: StaffRole = "viewer"
    ) -> StaffSession | Response:
        """The session of a page read by ``needed`` or above, or the answer refusing it."""
        found = await self.guard.allowed(request, needed)
        return found if isinstance(found, StaffSession) else self.refused(request, found)

    async def posted(self, request: Request, needed: StaffRole = "viewer") -> Posted | Response:
        """A form post by ``needed`` or above carrying its session's CSRF token, read up to
        ``FORM_LIMIT``; or the answer refusing it (audited by the guard where it was an
        attempt)."""
        form = await self.form(request)
        if isinstance(form, Response):
            return form
        found = await self.guard.form_allowed(request, form, needed)
        if not isinstance(found, StaffSession):
            return self.refused(request, found)
        return Posted(request, found, form)

    async def form(self, request: Request) -> Form | Response:
        """The posted form's fields; a body over ``FORM_LIMIT`` is refused before parsing."""
        try:
            raw = await read_limited(request, FORM_LIMIT)
        except BodyTooLarge:
            return self.plain(request, self.catalogue(), "console_web.refused_too_large", 413)
        except MalformedBody:
            return self.plain(request, self.catalogue(), "console_web.refused_csrf", 400)
        return parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True)

    async def audit(
        self,
        session: StaffSession,
        action: str,
        subject: str,
        outcome: str,
        detail: str | None = None,
    ) -> None:
        """What a staff member did in the console, and how it ended, to the audit trail."""
        await self.store.audit.record(staff_actor(session), action, subject, outcome, detail)

    # --- answers ------------------------------------------------------------------------------

    def page(
        self,
        request: Request,
        name: str,
        session: StaffSession,
        *,
        status: int = 200,
        **context: Any,
    ) -> Response:
        """``templates/{name}`` for a signed-in member asking by ``request``: the navigation,
        who they are, and the CSRF token their forms carry."""
        catalogue = self.catalogue(session)
        member = session.member
        signed_in_as = catalogue.say(
            "console_web.signed_in_as",
            name=member.name,
            role=catalogue.say(f"console_web.role.{member.role}"),
        )
        return self.pages.page(
            name,
            catalogue,
            root=app_root(request),
            status=status,
            nav=self._nav,
            languages=console_languages(self.texts),
            signed_in_as=signed_in_as,
            csrf_field=CSRF_FIELD,
            csrf=session.csrf_token,
            **context,
        )

    def refusal_page(
        self, request: Request, session: StaffSession, text: str, status: int
    ) -> Response:
        """A plain page saying ``text`` (why nothing was done) to a signed-in member."""
        return self.page(
            request,
            "plain.html",
            session,
            status=status,
            title_key="console_web.page.refused",
            text=text,
        )

    def plain(self, request: Request, catalogue: Catalogue, key: str, status: int) -> Response:
        """A plain page outside a session (signing in or out, refusals before one)."""
        title = "console_web.page.signed_out" if status < 400 else "console_web.page.refused"
        return self.pages.page(
            "plain.html",
            catalogue,
            root=app_root(request),
            status=status,
            title_key=title,
            text=catalogue.say(key),
        )

    def refused(self, request: Request, refusal: Refusal) -> Response:
        """The answer to ``refusal``: the signed-out page for no session, a plain 403 page
        otherwise (already audited by the guard)."""
        if isinstance(refusal, SignedOut):
            return see(request, SIGNED_OUT)
        catalogue = self.catalogue(refusal.session)
        if isinstance(refusal, RoleRefused):
            role = catalogue.say(f"console_web.role.{refusal.session.member.role}")
            needed = catalogue.say(f"console_web.role.{refusal.needed}")
            text = catalogue.say("console_web.refused_role", role=role, needed=needed)
            return self.pages.page(
                "plain.html",
                catalogue,
                root=app_root(request),
                status=403,
                title_key="console_web.page.refused",
                text=text,
            )
        return self.plain(request, catalogue, "console_web.refused_csrf", 403)


def staff_actor(session: StaffSession) -> str:
    """Who acted, for the audit trail: ``staff:<member id>``."""
    return f"staff:{session.member.id}"


def app_root(request: Request) -> str:
    """The path the business's web app is served under, as ``request`` came: "" on a host of
    one business, ``/b/{name}`` on a host of many (the ASGI ``root_path`` the app was called
    with; inside a mount Starlette keeps it as ``app_root_path``)."""
    scope = request.scope
    root: str = scope.get("app_root_path", scope.get("root_path", ""))
    return root.rstrip("/")


def see(request: Request, path: str) -> Response:
    """A 303 to the app's ``path`` under ``request``'s root (after a form, or to the
    signed-out page), with the console's headers (``/console`` itself is outside the mount
    that adds them)."""
    return RedirectResponse(app_root(request) + path, status_code=303, headers=CONSOLE_HEADERS)
