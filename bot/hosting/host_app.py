"""``HostApp``: the host's one web app, handing each request to the business it is for.

==========================  ================================================================
``/b/{name}/...``           business ``name``'s own web app, the prefix its ``root_path``:
                            its console, map page, photos, Partner
                            webhooks (``/b/{name}/hooks/partner``), ``/api``, ``/telegram``
                            and ``/whatsapp``, each checked by the business as on a host of one
``POST /telegram``          the business whose bot has the request's secret token
``GET|POST /whatsapp``      the business of the verify token (Meta's check) or of the push's
                            ``phone_number_id``
``/api/...``                the business of the agent key
``/health``                 the host's: 200 while it serves, 503 until its businesses are
                            read and while it drains
==========================  ================================================================

A request the host cannot place is answered as the business's door would answer a wrong
secret (403 at ``/telegram`` and ``/whatsapp``, 401 with the API's JSON error at ``/api``, 404
elsewhere), with nothing of any business in it. A business being removed or replaced answers
503 with ``Retry-After``, so Telegram and Meta send it again, to its successor.

A WhatsApp push at the root is routed by the first ``phone_number_id`` in its raw bytes: the
body is not parsed before its signature is checked, which the business then does with its own
app secret, so a push naming another business's number fails there.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Final

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.agents.api_errors import NO_KEY, UNKNOWN_KEY, send_json_error
from bot.agents.channel_keys import bearer_key
from bot.hosting.business_slot import BusinessSlot
from bot.hosting.host_routes import HostRoutes
from bot.hosting.hosting_errors import BuildFailed, SlotClosed
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH
from bot.web.body import BodyTooLarge, MalformedBody, read_limited
from bot.whatsapp.whatsapp_webhook import MAX_PUSH_BYTES

log = logging.getLogger(__name__)

PREFIX: Final = "/b/"
WHATSAPP: Final = "/whatsapp"
API: Final = "/api"
HEALTH: Final = "/health"
RETRY_AFTER_SECONDS: Final = 5
_PHONE_NUMBER_ID: Final = re.compile(rb'"phone_number_id"\s*:\s*"([0-9]{1,32})"')

Lookup = Callable[[], tuple[HostRoutes, dict[str, BusinessSlot]]]
"""The host's routes and slots as they are now (replaced whole on every change)."""


class HostApp:
    """The ASGI app of the module docstring. ``lookup`` gives the current routes and slots;
    ``draining`` tells ``/health`` to fail (the host is stopping); ``own`` are the host's own
    paths (its ``/metrics``), before any business's."""

    def __init__(self, lookup: Lookup, draining: Callable[[], bool]) -> None:
        self._lookup = lookup
        self._draining = draining
        self._own: dict[str, ASGIApp] = {}

    def serve_at(self, path: str, app: ASGIApp) -> None:
        """Answer ``path`` with the host's own ``app`` (its ``/metrics``), before any business."""
        self._own[path] = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":  # no door of the bot is a websocket
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            return
        path: str = scope["path"]
        routes, slots = self._lookup()
        own = self._own.get(path)
        if own is not None:
            await own(scope, receive, send)
        elif path.startswith(PREFIX):
            name = path[len(PREFIX) :].partition("/")[0]
            slot = slots.get(name)
            if slot is None:
                await _plain(send, 404, "Not Found")
                return
            # ASGI's convention (Starlette's, uvicorn's): ``path`` stays whole and
            # ``root_path`` says which part of it is the mount's; the business's routes match
            # what follows, and the URLs it makes start with the prefix.
            inner = {**scope, "root_path": scope.get("root_path", "") + PREFIX + name}
            await _hand_to(slot, inner, receive, send)
        elif path == TELEGRAM_PATH:
            secret = Request(scope).headers.get(SECRET_TOKEN_HEADER)
            await _hand_to_named(slots, routes.for_telegram(secret), scope, receive, send, 403)
        elif path == WHATSAPP:
            await self._whatsapp(routes, slots, scope, receive, send)
        elif path == API or path.startswith(API + "/"):
            presented = bearer_key(Request(scope).headers.get("authorization"))
            slot = slots.get(routes.for_agent_key(presented) or "")
            if slot is None:
                message = UNKNOWN_KEY if presented else NO_KEY
                await send_json_error(send, 401, message, [(b"www-authenticate", b"Bearer")])
                return
            await _hand_to(slot, scope, receive, send)
        elif path == HEALTH:
            if self._draining():
                await _plain(send, 503, "draining")
            else:
                await _plain(send, 200, "ok")
        else:
            await _plain(send, 404, "Not Found")

    async def _whatsapp(
        self,
        routes: HostRoutes,
        slots: dict[str, BusinessSlot],
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        request = Request(scope, receive)
        if scope["method"] == "GET":
            token = request.query_params.get("hub.verify_token")
            name = routes.for_whatsapp_verify(token)
            await _hand_to_named(slots, name, scope, receive, send, 403)
            return
        try:
            raw = await read_limited(request, MAX_PUSH_BYTES)
        except BodyTooLarge:
            await _plain(send, 413, "Payload Too Large")
            return
        except MalformedBody:
            await _plain(send, 400, "Bad Request")
            return
        found = _PHONE_NUMBER_ID.search(raw)
        number = None if found is None else found.group(1).decode()
        name = routes.for_whatsapp_number(number)
        await _hand_to_named(slots, name, scope, _replay(raw), send, 403)


async def _hand_to_named(
    slots: dict[str, BusinessSlot],
    name: str | None,
    scope: Scope,
    receive: Receive,
    send: Send,
    refused: int,
) -> None:
    slot = None if name is None else slots.get(name)
    if slot is None:
        await _plain(send, refused, "Forbidden" if refused == 403 else "Not Found")
        return
    await _hand_to(slot, scope, receive, send)


async def _hand_to(slot: BusinessSlot, scope: Scope, receive: Receive, send: Send) -> None:
    """``slot``'s business answers (built first if it is not)."""
    try:
        async with slot.serving() as app:
            await app(scope, receive, send)
    except SlotClosed:
        await _plain(send, 503, "Service Unavailable", retry_after=True)
    except BuildFailed as failed:
        log.error("%s", failed)
        await _plain(send, 503, "Service Unavailable", retry_after=True)


def _replay(body: bytes) -> Receive:
    """A ``receive`` that gives ``body`` once, as the request read already."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


async def _plain(send: Send, status: int, text: str, *, retry_after: bool = False) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
    ]
    if retry_after:
        headers.append((b"retry-after", str(RETRY_AFTER_SECONDS).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    """The host builds and stops its businesses itself: the server's lifespan is answered."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
