"""Every answer under ``/webapp`` carries the page's protective headers (``page_policy``).

One ASGI middleware around the Mini App's whole mount, so nothing it answers can leave them
out: the page, its static files, the API's JSON answers and refusals, and the errors Starlette
makes itself. Those last ones (404 for an unknown path, 405 for a wrong method) are raised as
``HTTPException`` and would otherwise be drawn by the app's exception middleware, outside this
mount, without the headers: they are answered here instead. An unexpected error gets a bare 500
with the headers before it is raised again, for the server's log.

Static files are named in ``STATIC_PREFIX`` to get their own caching (``static_headers``).
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class ProtectiveHeaders:
    """Adds ``headers`` to every HTTP answer of ``app`` (``static`` under ``static_prefix``),
    replacing any the answer set itself under the same names."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        headers: Mapping[str, str],
        static: Mapping[str, str],
        static_prefix: str,
    ) -> None:
        self._app = app
        self._headers = _encoded(headers)
        self._static = _encoded(static)
        self._static_prefix = static_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        static = scope["path"].startswith(self._static_prefix)  # the full path, mount and all
        added = self._static if static else self._headers
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name for name, _ in added}
                kept = [(n, v) for n, v in message.get("headers", []) if n.lower() not in names]
                message = {**message, "headers": kept + added}
            await send(message)

        try:
            await self._app(scope, receive, send_guarded)
        except HTTPException as exc:
            if started:
                raise
            answer = PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)
            await answer(scope, receive, send_guarded)
        except Exception:
            if not started:
                await PlainTextResponse("Internal Server Error", 500)(scope, receive, send_guarded)
            raise


def _encoded(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()
    ]
