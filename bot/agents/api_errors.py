"""Every error of the agent doors as one JSON envelope with a stable code.

``{"error": <code>, "message": <what to do, in plain words>}``: a program branches on ``error``
(one of ``CODES``), a person reads ``message``. It is the answer to every refused ``/api``
request, whatever refused it: a route (``error_response``), the router (an unknown path,
``404 not_found``; a method the route does not take, ``405 method_not_allowed`` with
``Allow``), or a fault no route expected (``500 internal_error``, logged with its traceback,
never shown). The MCP server's HTTP transport answers a missing or wrong key the same way.
That fault's log line names the request by its path with the channel's customer reference
left out (``path_for_log``): a reference may be a phone number or an e-mail address.

A turn the flow refused is not an error of this kind: it is the conversation's own answer
(``ConversationView`` with ``refused``), since the agent needs the open question with it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}
"""The code each status carries unless a route names a narrower one (``photo_refused``)."""

MESSAGES: dict[int, str] = {
    404: "there is nothing at this path; docs/agents-openapi.json lists the routes",
    405: "this path does not take that method; the Allow header lists the ones it takes",
    500: "the bot failed to answer; the request may be repeated",
}
_CUSTOMER_SEGMENT = re.compile(r"(/customers/)[^/]*")

NO_KEY = "send the channel's key as Authorization: Bearer <key>"
UNKNOWN_KEY = "that key is not the key of a channel of this bot"


def error_body(status: int, message: str, code: str | None = None) -> dict[str, str]:
    """The envelope for ``status`` (with ``code`` instead of the status's own, when given)."""
    return {"error": code or CODES.get(status, "error"), "message": message}


def error_response(
    status: int,
    message: str,
    *,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """The envelope as a response."""
    return JSONResponse(error_body(status, message, code), status_code=status, headers=headers)


async def http_exception(request: Request, exc: Exception) -> Response:
    """Starlette's ``HTTPException`` (the router's 404 and 405) in the envelope."""
    assert isinstance(exc, HTTPException)
    message = MESSAGES.get(exc.status_code) or str(exc.detail)
    return error_response(exc.status_code, message, headers=exc.headers)


class FaultsAsJson:
    """ASGI middleware: an exception nothing else caught becomes ``500 internal_error`` (when
    no answer has started yet) instead of the server's plain-text page."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self._app(scope, receive, tracked)
        except Exception:
            raw = scope.get("raw_path")  # still encoded: a reference's own "/" is one segment
            path = path_for_log(raw.decode("latin-1") if raw else scope["path"])
            log.exception("an /api request failed: %s %s", scope["method"], path)
            if started:
                raise
            await send_json_error(send, 500, MESSAGES[500])


def path_for_log(path: str) -> str:
    """``path`` as a log line may hold it: the customer's reference in a ``/customers/...``
    path is ``{customer}`` (the route's own name for it)."""
    return _CUSTOMER_SEGMENT.sub(r"\1{customer}", path)


async def send_json_error(
    send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """The envelope sent straight over ASGI (for middleware that answers before any app)."""
    body = json.dumps(error_body(status, message)).encode()
    extra: list[tuple[bytes, bytes]] = headers or []
    start: dict[str, Any] = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *extra,
        ],
    }
    await send(start)
    await send({"type": "http.response.body", "body": body})
