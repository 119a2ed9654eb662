"""A light fake Bot API that serves every bot token at once, for ``bench_many_businesses.py``.

A thousand businesses means a thousand bots; one ``tests.fakes.FakeTelegram`` per bot (a server
and a world each) would cost the fakes' process more than the host it measures. This one is a
bare ASGI app over one dictionary of bots, keyed by token, that speaks the wire format PTB
uses: ``POST /bot<token>/<method>`` with form or JSON parameters (non-string values as JSON
text), answered with ``{"ok": true, "result": ...}`` or Telegram's error envelope, and
``GET /file/bot<token>/<path>`` for a file's bytes.

It answers what a turn of the shipped flows calls (getMe, setWebhook, setMyCommands,
deleteMyCommands, setChatMenuButton, sendMessage, editMessageText, editMessageReplyMarkup,
answerCallbackQuery, sendChatAction, deleteMessage, getFile ...): a method returning a message
returns one as Telegram shapes it, any other known method ``true``; an unknown token is 401, an
unknown method 404. Telegram's sending guideline is kept as the bot's own limiter reads it
(30 messages a second per bot, bursts of 3 in 3 s per private chat, each window 10 % shorter
for the jitter between two processes); a send beyond it is answered 429 with ``retry_after``
and counted, so a 429 here is one the bot caused.

What the benchmark's driver reads: each chat's last keyboard (to tap a choice), and every
message reaching a chat, handed to ``listener`` as it arrives.
"""

from __future__ import annotations

import itertools
import json
import struct
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl

JSON = dict[str, Any]
Send = Callable[[JSON], Any]
Listener = Callable[[str, int, "Arrival"], None]
"""Told of every message a bot sends or edits: its token, the chat and the ``Arrival``."""

MESSAGE_METHODS: Final = frozenset(
    {"sendmessage", "editmessagetext", "editmessagereplymarkup", "sendphoto", "senddocument",
     "sendlocation", "sendcontact"}
)  # fmt: skip
SEND_METHODS: Final = frozenset(
    {"sendmessage", "sendphoto", "senddocument", "sendlocation", "sendcontact"}
)
TRUE_METHODS: Final = frozenset(
    {"setwebhook", "deletewebhook", "setmycommands", "deletemycommands", "setchatmenubutton",
     "answercallbackquery", "sendchataction", "deletemessage", "setmydescription",
     "setmyshortdescription", "setmyname", "pinchatmessage", "unpinchatmessage"}
)  # fmt: skip
# Sends per bot in any second, and per private chat (bursts of 3, one a second on average), as
# the bot's limiter keeps them, less 10 % of each window: a send the bot spaced exactly may
# reach this process a little sooner after the one before than it left the bot.
BOT_WINDOW: Final = (30, 0.9)
CHAT_WINDOW: Final = (3, 2.7)
JSON_FIELDS: Final = frozenset({"reply_markup", "commands", "scope", "entities", "menu_button"})


def _png() -> bytes:
    """A valid 1x1 PNG: what a customer's photo downloads as."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


PNG: Final = _png()


def bot_user(token: str) -> JSON:
    """The ``User`` getMe answers for ``token``'s bot."""
    bot_id = int(token.split(":", 1)[0])
    return {"id": bot_id, "is_bot": True, "first_name": "Shop", "username": f"shop{bot_id}_bot"}


@dataclass
class Arrival:
    """A message that reached a chat: when (``time.perf_counter``, one clock for every
    process on this machine) and by which method."""

    at: float
    method: str
    text: str


@dataclass
class Bot:
    """One token's state: what each chat last received, and the sends' windows."""

    token: str
    user: JSON
    webhook: JSON | None = None
    keyboards: dict[int, tuple[JSON, JSON]] = field(default_factory=dict)  # chat -> (msg, markup)
    sends: deque[float] = field(default_factory=deque)
    chat_sends: dict[int, deque[float]] = field(default_factory=dict)


class ManyBots:
    """The ASGI app of the module docstring; ``add`` a token before its bot calls."""

    def __init__(self, listener: Listener | None = None) -> None:
        self.listener = listener
        self.bots: dict[str, Bot] = {}
        self.calls: Counter[str] = Counter()
        self.too_many = 0  # 429s answered
        self.unknown: Counter[str] = Counter()
        self._ids = itertools.count(1_000)

    def add(self, token: str) -> None:
        """Serve ``token``'s bot from now on."""
        self.bots.setdefault(token, Bot(token, bot_user(token)))

    def button(self, token: str, chat_id: int, label: str | None) -> tuple[JSON, JSON] | None:
        """The chat's last keyboard message and its button labelled ``label`` (the first one
        when ``label`` is None), or None."""
        bot = self.bots[token]
        if chat_id not in bot.keyboards:
            return None
        message, markup = bot.keyboards[chat_id]
        for row in markup.get("inline_keyboard") or markup.get("keyboard") or []:
            for button in row:
                if label is None or button.get("text") == label:
                    return message, button
        return None

    async def __call__(self, scope: JSON, receive: Callable[[], Any], send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await _lifespan(receive, send)
            return
        path: str = scope["path"]
        if path.startswith("/file/bot"):
            token = path[len("/file/bot") :].partition("/")[0]
            if token in self.bots:
                await _respond(send, 200, PNG, b"image/png")
            else:
                await _envelope(send, 401, _error(401, "Unauthorized"))
            return
        if not path.startswith("/bot"):
            await _envelope(send, 404, _error(404, "Not Found"))
            return
        token, _, method = path[len("/bot") :].partition("/")
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = dict(scope["headers"])
        params = _params(scope.get("query_string", b""), headers.get(b"content-type", b""), body)
        status, answer = self.call(token, method.lower(), params)
        await _envelope(send, status, answer)

    def call(self, token: str, method: str, params: JSON) -> tuple[int, JSON]:
        """One Bot API call: its HTTP status and envelope."""
        bot = self.bots.get(token)
        if bot is None:
            return 401, _error(401, "Unauthorized")
        self.calls[method] += 1
        if method == "getme":
            return 200, {"ok": True, "result": bot.user}
        if method == "setwebhook":
            bot.webhook = params
        if method == "getfile":
            file_id = params.get("file_id", "")
            result = {"file_id": file_id, "file_unique_id": "u", "file_path": "photos/p.png"}
            return 200, {"ok": True, "result": {**result, "file_size": len(PNG)}}
        if method in TRUE_METHODS:
            return 200, {"ok": True, "result": True}
        if method not in MESSAGE_METHODS:
            self.unknown[method] += 1
            return 404, _error(404, "Not Found: method not found")
        chat_id = int(params["chat_id"])
        if method in SEND_METHODS:
            wait = self._refused(bot, chat_id)
            if wait:
                self.too_many += 1
                return 429, _error(429, f"Too Many Requests: retry after {wait}", retry_after=wait)
        return 200, {"ok": True, "result": self._message(bot, method, chat_id, params)}

    def _message(self, bot: Bot, method: str, chat_id: int, params: JSON) -> JSON:
        message_id = int(params.get("message_id") or next(self._ids))
        message = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private", "first_name": "Ada"},
            "from": bot.user,
            "text": params.get("text", ""),
        }
        markup = params.get("reply_markup")
        if isinstance(markup, dict) and ("inline_keyboard" in markup or "keyboard" in markup):
            bot.keyboards[chat_id] = (message, markup)
        if self.listener is not None:
            self.listener(bot.token, chat_id, Arrival(time.perf_counter(), method, message["text"]))
        return message

    def _refused(self, bot: Bot, chat_id: int) -> int:
        """Seconds to retry after when this send breaks a window (0: it is taken)."""
        now = time.monotonic()
        chat = bot.chat_sends.setdefault(chat_id, deque())
        for sends, (count, seconds) in ((bot.sends, BOT_WINDOW), (chat, CHAT_WINDOW)):
            while sends and sends[0] <= now - seconds:
                sends.popleft()
            if len(sends) >= count:
                return max(1, round(sends[0] + seconds - now))
        bot.sends.append(now)
        chat.append(now)
        return 0


def _error(code: int, description: str, **parameters: Any) -> JSON:
    """Telegram's error envelope."""
    envelope: JSON = {"ok": False, "error_code": code, "description": description}
    if parameters:
        envelope["parameters"] = parameters
    return envelope


def _params(query: bytes, content_type: bytes, body: bytes) -> JSON:
    """The call's parameters, typed as far as the fake reads them."""
    pairs: list[tuple[str, Any]] = parse_qsl(query.decode())
    if content_type.startswith(b"application/json") and body:
        pairs.extend(json.loads(body).items())
    elif content_type.startswith(b"application/x-www-form-urlencoded"):
        pairs.extend(parse_qsl(body.decode()))
    elif content_type.startswith(b"multipart/form-data"):
        pairs.extend(_multipart_fields(content_type, body))
    params: JSON = {}
    for name, value in pairs:
        if name in JSON_FIELDS and isinstance(value, str):
            value = json.loads(value)
        params[name] = value
    return params


def _multipart_fields(content_type: bytes, body: bytes) -> list[tuple[str, str]]:
    """The plain fields of a multipart body (a file's bytes are not kept)."""
    boundary = content_type.partition(b"boundary=")[2].strip(b'"')
    fields = []
    for part in body.split(b"--" + boundary):
        head, _, value = part.partition(b"\r\n\r\n")
        name = head.partition(b'name="')[2].partition(b'"')[0]
        if name and b"filename=" not in head:
            fields.append((name.decode(), value.rstrip(b"\r\n").decode()))
    return fields


async def _envelope(send: Send, status: int, answer: JSON) -> None:
    await _respond(send, status, json.dumps(answer).encode(), b"application/json")


async def _respond(send: Send, status: int, body: bytes, kind: bytes) -> None:
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Callable[[], Any], send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
