"""``POST /telegram``: Telegram's webhook pushes, handed to the PTB Application.

Telegram sends the ``secret_token`` given to ``setWebhook`` in the
``X-Telegram-Bot-Api-Secret-Token`` header of every push. Anything without the right one is
refused with a bare 403, compared in constant time, before the body is read. Accepted updates
go to ``application.update_queue`` and the answer is 200 at once: processing happens in the
Application (in order per chat), and a slow answer would make Telegram send the update again.
Repeats are dropped there by ``update_id``.
"""

from __future__ import annotations

import hmac
import json
import logging
from typing import Any, Final

from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import Application

from bot.web.body import BodyTooLarge, MalformedBody, read_limited

log = logging.getLogger(__name__)

TELEGRAM_PATH: Final = "/telegram"
SECRET_TOKEN_HEADER: Final = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 - a header name
# An update is a few KB; Telegram's largest (long texts with entities) stay far below this.
MAX_UPDATE_BYTES: Final = 1_048_576


def telegram_route(
    application: Application[Any, Any, Any, Any, Any, Any],
    secret_token: str,
    *,
    path: str = TELEGRAM_PATH,
    max_body_bytes: int = MAX_UPDATE_BYTES,
) -> Route:
    """The route for ``create_web_app(extra_routes=[...])``."""
    if not secret_token:
        raise ValueError("webhook mode needs a secret token")
    expected = secret_token.encode()

    async def receive(request: Request) -> Response:
        given = request.headers.get(SECRET_TOKEN_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            log.warning("telegram webhook refused: wrong or missing secret token")
            return PlainTextResponse("Forbidden", 403)
        try:
            raw = await read_limited(request, max_body_bytes)
        except BodyTooLarge:
            log.warning("telegram webhook refused: body over %d bytes", max_body_bytes)
            return PlainTextResponse("Payload Too Large", 413)
        except (MalformedBody, ClientDisconnect) as error:
            log.warning("telegram webhook refused: %s", type(error).__name__)
            return PlainTextResponse("Bad Request", 400)
        try:
            data = json.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("an update is a JSON object")
            update = Update.de_json(data, application.bot)
        except Exception as error:  # PTB's parsing fails in many ways on a malformed body
            # Never the body: it is a customer's message.
            log.warning("telegram webhook refused: not an update (%s)", type(error).__name__)
            return PlainTextResponse("Bad Request", 400)
        await application.update_queue.put(update)
        return PlainTextResponse("OK")

    return Route(path, receive, methods=["POST"])
