"""Every answer under ``/console`` carries the console's protective headers.

A strict Content-Security-Policy (scripts, styles and images from the bot's own host only, no
inline script or style; the live list's events read from it only; forms posted to it only;
never framed), ``nosniff``, nothing kept by any cache (the pages show customers' names and
phones), and no ``Referer`` sent anywhere: a sign-in page's URL holds its one-time token, which
must not leave in a header. With a map configured (the Mini App's ``[webapp.tiles]``), images
may come from its tile host too, and from nowhere else, as the Mini App's own policy allows
them (``bot.webapp.page_policy``).

One ASGI middleware around the console's whole mount, so nothing it answers can leave them out:
its pages, its stylesheet, its refusals, and the errors Starlette raises itself (404 for an
unknown path, 405 for a wrong method), which are answered here as a plain page instead of by
the app's exception middleware outside the mount.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.webapp.page_policy import tile_source


def content_security_policy(tiles_url: str | None = None) -> str:
    """The console's CSP; ``tiles_url`` (a tile URL template) lets the maps' tiles in."""
    images = "'self'" if tiles_url is None else f"'self' {tile_source(tiles_url)}"
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src {images}",
            "connect-src 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        )
    )


CONTENT_SECURITY_POLICY: Final = content_security_policy()
"""The policy without a map."""


def console_headers(tiles_url: str | None = None) -> dict[str, str]:
    """Every header the console answers with, its CSP letting ``tiles_url``'s host in."""
    return {
        "Content-Security-Policy": content_security_policy(tiles_url),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
    }


CONSOLE_HEADERS: Final = console_headers()

ErrorPage = Callable[[Request, int], Awaitable[Response]]
"""Draws the plain page of an error Starlette raised (404, 405) for its status."""


class ConsoleHeaders:
    """Adds ``console_headers(tiles_url)`` to every HTTP answer of ``app``, replacing any the
    answer set itself under those names; ``error_page`` draws what Starlette raises."""

    def __init__(
        self, app: ASGIApp, *, error_page: ErrorPage, tiles_url: str | None = None
    ) -> None:
        self._app = app
        self._error_page = error_page
        self._headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in console_headers(tiles_url).items()
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        started = False
        names = {name for name, _ in self._headers}

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                kept = [(n, v) for n, v in message.get("headers", []) if n.lower() not in names]
                message = {**message, "headers": kept + self._headers}
            await send(message)

        try:
            await self._app(scope, receive, send_guarded)
        except HTTPException as exc:
            if started:
                raise
            answer = await self._error_page(Request(scope, receive), exc.status_code)
            await answer(scope, receive, send_guarded)
        except Exception:
            if not started:
                await PlainTextResponse("Internal Server Error", 500)(scope, receive, send_guarded)
            raise
