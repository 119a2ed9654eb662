"""``POST /telegram``: Telegram's webhook pushes, handed to the PTB Application.

Telegram sends the ``secret_token`` given to ``setWebhook`` in the
``X-Telegram-Bot-Api-Secret-Token`` header of every push. Anything without the right one is
refused with a bare 403, compared in constant time, before the body is read. An accepted
update's id and chat are read off its JSON (``received_update``: PTB parses it only when it is
handled); it is stored in ``inbox`` (``bot.store.update_inbox``: committed, grouped with the
updates arriving at the same time; or handled, when the turn commits within a moment:
``stored_updates.hand_in``), goes to ``application.update_queue`` and the answer is 200:
processing happens in the Application (in order per chat, ``bot.telegram.stored_updates``), and
a slow answer would make Telegram send the update again. Repeats are dropped there by
``update_id``. An update that cannot be stored is answered 500: Telegram sends it again.

A body declared as another media type than JSON is refused with 415, and one that is not a
JSON object as ``bot.web.body.parse_json`` reads it (not UTF-8, not JSON, nested over 64
levels, ``NaN`` or a number too large to be finite, a repeated key) with 400, its reason logged
without quoting it. An update the bot cannot read (a wrong
type, an id beyond 64 bits: ``update_check``) is dropped with one warning naming its id and
the broken rule, and answered 200 all the same: Telegram would otherwise repeat it forever.
One that only PTB's parse refuses (a part the bot never reads) is stored and dropped with the
same warning when it is handled.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any, Final

from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram.ext import Application

from bot.store import SeenUpdates, UpdateInbox
from bot.telegram.received_update import received_update
from bot.telegram.stored_updates import hand_in, stored_body
from bot.telegram.update_check import Flaw
from bot.web.body import (
    BodyTooLarge,
    MalformedBody,
    NotJson,
    is_json_media_type,
    parse_json_object,
    read_limited,
)

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
    inbox: UpdateInbox | None = None,
    seen: SeenUpdates | None = None,
) -> Route:
    """The route for ``create_web_app(extra_routes=[...])``; with ``inbox``, each update is
    stored there before the 200, or handled first when its turn commits within a moment
    (``seen``: the store's ``updates``, while the Application handles them;
    ``stored_updates.hand_in``)."""
    if not secret_token:
        raise ValueError("webhook mode needs a secret token")
    expected = secret_token.encode()

    async def receive(request: Request) -> Response:
        given = request.headers.get(SECRET_TOKEN_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            log.warning("telegram webhook refused: wrong or missing secret token")
            return PlainTextResponse("Forbidden", 403)
        if not is_json_media_type(request.headers.get("content-type")):
            log.warning("telegram webhook refused: a body that is not JSON by its media type")
            return PlainTextResponse("Unsupported Media Type", 415)
        try:
            raw = await read_limited(request, max_body_bytes)
        except BodyTooLarge:
            log.warning("telegram webhook refused: body over %d bytes", max_body_bytes)
            return PlainTextResponse("Payload Too Large", 413)
        except (MalformedBody, ClientDisconnect) as error:
            log.warning("telegram webhook refused: %s", type(error).__name__)
            return PlainTextResponse("Bad Request", 400)
        try:
            data = parse_json_object(raw)
        except NotJson as error:
            log.warning("telegram webhook refused: not an update (%s)", error)
            return PlainTextResponse("Bad Request", 400)
        update = received_update(data, application.bot)
        if isinstance(update, Flaw):
            # Acknowledged, or Telegram would send it again and again. Never the body: it is
            # a customer's message.
            log.warning("update dropped: %s", update)
            return PlainTextResponse("OK")
        # Not stored (the database is down): the error answers 500 and Telegram repeats it.
        # A repeat is queued like the first: the gatekeeper drops it once handled.
        body = stored_body(raw, data) if inbox is not None else ""
        await hand_in(application.update_queue, update, inbox, body, seen=seen)
        return PlainTextResponse("OK")

    return Route(path, receive, methods=["POST"])
