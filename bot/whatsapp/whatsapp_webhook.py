"""``GET`` and ``POST /whatsapp``: Meta's webhook for the business's number.

``GET /whatsapp`` is Meta's check of the URL, once, when the operator saves it in the Meta
app: ``hub.mode=subscribe`` and ``hub.verify_token`` equal (in constant time) to ``[whatsapp]
verify_token`` are answered 200 with ``hub.challenge`` as plain text; anything else 403.

``POST /whatsapp`` carries customers' messages and the statuses of the bot's messages. In
order, before anything is believed:

* no ``X-Hub-Signature-256`` header, or one that is not ``sha256=`` and 64 hex digits: 401
  (no credentials at all), before the body is read;
* a declared media type other than JSON: 415; a body over ``max_body_bytes``: 413 (both as
  ``bot.web.body`` reads a body at every JSON door);
* a signature that is not the HMAC-SHA256 of the raw body with the app secret
  (``bot.whatsapp.signature``, constant time): 403 (credentials, but wrong), before parsing;
* a body that is not a JSON object as ``bot.web.body.parse_json_object`` reads it (not UTF-8,
  not JSON, nested over 64 levels, ``NaN``, a repeated key): 400, its reason logged without
  quoting it.

Meta treats anything but 200 as a failure and pushes again, for days; a signed push is Meta's,
so from here on the answer is 200 unless the bot itself failed. A signed body that is not a
WhatsApp push at all, a change for another number or another field, and a message or status
that breaks its shape (``bot.whatsapp.payload``) are acknowledged and dropped with one log
line each, naming where and which rule, never a customer's words: answering otherwise would
only make Meta repeat them for ever. Each message and status kept is stored durably
(``store.whatsapp_inbox``, repeats dropped by id) before the 200; one that cannot be stored
makes the answer 500, and Meta pushes it again. After the 200 this process handles the
chats the push touched (``bot.whatsapp.inbox_handling``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
from collections.abc import Sequence
from typing import Final

from starlette.background import BackgroundTask
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.config.whatsapp_section import WHATSAPP_PATH
from bot.store import WhatsAppInbox
from bot.web.body import (
    BodyTooLarge,
    MalformedBody,
    NotJson,
    is_json_media_type,
    parse_json_object,
    read_limited,
)
from bot.whatsapp.inbox_handling import InboxHandling
from bot.whatsapp.payload import NotAPush, Push, read_push
from bot.whatsapp.signature import SIGNATURE_HEADER, BadSignature, verify, well_formed

log = logging.getLogger(__name__)

#: Meta's pushes are a few KB (a message, a few statuses); this leaves room for batches.
MAX_PUSH_BYTES: Final = 1_048_576
#: What Meta sends as ``hub.challenge`` (a number); anything else is not echoed back.
_CHALLENGE = re.compile(r"[\x21-\x7e]{1,256}")


def whatsapp_routes(
    *,
    phone_number_id: str,
    app_secret: str,
    verify_token: str,
    inbox: WhatsAppInbox,
    handling: InboxHandling,
    max_body_bytes: int = MAX_PUSH_BYTES,
) -> list[Route]:
    """``GET`` and ``POST /whatsapp`` (see the module docstring), for
    ``create_web_app(extra_routes=[...])``."""
    if not app_secret or not verify_token:
        raise ValueError("the WhatsApp webhook needs the app secret and the verify token")
    expected_token = verify_token.encode()

    async def check(request: Request) -> Response:
        params = request.query_params
        given = params.get("hub.verify_token", "").encode()
        challenge = params.get("hub.challenge", "")
        if (
            hmac.compare_digest(given, expected_token)
            and params.get("hub.mode") == "subscribe"
            and _CHALLENGE.fullmatch(challenge)
        ):
            log.info("whatsapp webhook URL checked by Meta")
            return PlainTextResponse(challenge)
        log.warning("whatsapp webhook check refused: wrong mode, token or challenge")
        return PlainTextResponse("Forbidden", 403)

    async def receive(request: Request) -> Response:
        header = request.headers.get(SIGNATURE_HEADER)
        if header is None or not well_formed(header):
            log.warning("whatsapp push refused: no signature")
            return PlainTextResponse("Unauthorized", 401)
        if not is_json_media_type(request.headers.get("content-type")):
            log.warning("whatsapp push refused: a body that is not JSON by its media type")
            return PlainTextResponse("Unsupported Media Type", 415)
        try:
            raw = await read_limited(request, max_body_bytes)
        except BodyTooLarge:
            log.warning("whatsapp push refused: body over %d bytes", max_body_bytes)
            return PlainTextResponse("Payload Too Large", 413)
        except (MalformedBody, ClientDisconnect) as error:
            log.warning("whatsapp push refused: %s", type(error).__name__)
            return PlainTextResponse("Bad Request", 400)
        try:
            verify(raw, header, app_secret)
        except BadSignature as error:
            log.warning("whatsapp push refused: %s", error)
            return PlainTextResponse("Forbidden", 403)
        try:
            data = parse_json_object(raw)
        except NotJson as error:
            log.warning("whatsapp push refused: %s", error)
            return PlainTextResponse("Bad Request", 400)
        try:
            push = read_push(data, phone_number_id)
        except NotAPush as error:
            log.warning("whatsapp push dropped: %s", error)  # signed: Meta's, so acknowledged
            return PlainTextResponse("OK")
        _note(push)
        try:
            chats = await _store(inbox, push)
        except Exception as error:  # the database: Meta pushes it again
            log.error("whatsapp push not stored (%s); answered 500", type(error).__name__)
            return PlainTextResponse("Internal Server Error", 500)
        if not chats:
            return PlainTextResponse("OK")
        return PlainTextResponse("OK", background=BackgroundTask(_hand_on, handling, chats))

    return [
        Route(WHATSAPP_PATH, check, methods=["GET"]),
        Route(WHATSAPP_PATH, receive, methods=["POST"]),
    ]


def _note(push: Push) -> None:
    for reason in push.dropped:
        log.warning("whatsapp push: dropped %s", reason)
    for reason in push.ignored:
        log.info("whatsapp push: ignored %s", reason)
    if push.meta_errors:
        log.warning("whatsapp push: Meta reports errors %s", push.meta_errors)


async def _store(inbox: WhatsAppInbox, push: Push) -> list[int]:
    """Store every item of ``push`` (committed together when they arrive together); the chats
    with a new item, in order of their first."""
    adds = [
        inbox.add(item.message.message_id, "message", int(item.message.wa_id), _json(item.stored))
        for item in push.messages
    ]
    chats = [int(item.message.wa_id) for item in push.messages]
    for status in push.statuses:
        update = status.update
        key = f"{update.status}:{update.message_id}"
        adds.append(inbox.add(key, "status", int(update.recipient), _json(status.stored)))
        chats.append(int(update.recipient))
    new = await asyncio.gather(*adds)
    return list(dict.fromkeys(chat for chat, fresh in zip(chats, new, strict=True) if fresh))


def _json(stored: object) -> str:
    # ASCII: a lone surrogate in a customer's text stays an escape the database takes.
    return json.dumps(stored, separators=(",", ":"))


async def _hand_on(handling: InboxHandling, chats: Sequence[int]) -> None:
    """After the 200: this process handles the chats the push brought something new to."""
    for chat_id in chats:
        handling.soon(chat_id)
