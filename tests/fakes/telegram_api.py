"""A fake Telegram Bot API server for end-to-end tests, served over loopback HTTP.

    async with FakeTelegram.running() as tg:
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.api_base_url).base_file_url(tg.file_base_url).build())
        ...
        tg.push_update(tg.updates.command(alice, "start"))
        reply = await tg.wait_for_message(alice.id)

It speaks the wire format (``/bot<token>/<method>``, ``/file/bot<token>/<path>``, the ok/error
envelopes with Telegram's status codes and descriptions), keeps the state a real chat would
have (message ids, edits, deletions, files, callback queries, live locations and their
moves), hands updates out by long polling or webhook pushes, records every call, and fails on
demand (429 with retry_after, 403 for a blocked chat, anything else via ``fail_next``). Time
(message dates, live periods) is the ``clock`` it is given.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.clocks import Clock
from tests.support.served import loopback_socket, serve_on, stop_serving

from .telegram_delivery import UpdateQueue, Webhook, WebhookPusher
from .telegram_failures import FailurePlan
from .telegram_holds import HoldPlan
from .telegram_log import CallLog
from .telegram_methods import BotApi
from .telegram_records import LiveLocation
from .telegram_updates import UpdateFactory
from .telegram_wire import BotApiError, JSONDict, ParsedRequest, ok_envelope, parse_request
from .telegram_world import StoredFile, TgChat, TgUser, World

FAKE_BOT_TOKEN = "7000000001:AAFakeTelegramTokenForTests_0123456"


class AsciiJSONResponse(JSONResponse):
    """JSON with non-ASCII characters escaped, which JSON allows and the Bot API may send.

    Starlette writes UTF-8, which cannot carry a lone surrogate (half an emoji cut by a client);
    as a ``\\ud83d`` escape it reaches the bot the way it would from Telegram.
    """

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")


class FakeTelegram(CallLog):
    """The fake Bot API: state, recording (see CallLog) and failure injection.

    Serve it with ``running()``; PTB then talks to ``api_base_url`` / ``file_base_url``.
    """

    def __init__(
        self,
        *,
        token: str = FAKE_BOT_TOKEN,
        bot_username: str = "fake_delivery_bot",
        bot_first_name: str = "Delivery Bot",
        clock: Clock | None = None,
        webhook_transport: httpx.AsyncBaseTransport | None = None,
        webhook_retry_delay: float = 0.2,
    ) -> None:
        super().__init__()
        self.token = token
        self.bot = TgUser(
            int(token.split(":", 1)[0]),
            bot_first_name,
            username=bot_username,
            language_code=None,
            is_bot=True,
        )
        self._world = World(self.bot, clock=clock or time.time)
        self._queue = UpdateQueue()
        self._api = BotApi(self._world, self._queue, any_webhook_host=webhook_transport is not None)
        self._pusher = WebhookPusher(
            self._queue,
            now=self._world.now,
            on_delivery=self._record_delivery,
            transport=webhook_transport,
            retry_delay=webhook_retry_delay,
        )
        self.updates = UpdateFactory(self._world)
        self._downloads: list[StoredFile] = []
        self._failures = FailurePlan()
        self._holds = HoldPlan()
        self._base: str | None = None
        self.app = Starlette(
            routes=[
                Route("/bot{token}/{method}", self._method_endpoint, methods=["GET", "POST"]),
                Route("/file/bot{token}/{file_path:path}", self._file_endpoint, methods=["GET"]),
                Route("/{path:path}", self._not_found, methods=["GET", "POST"]),
            ]
        )

    # --- serving ---

    @classmethod
    @asynccontextmanager
    async def running(cls, **options: Any) -> AsyncIterator[FakeTelegram]:
        """Build a fake (``options`` as for the constructor) and serve it on 127.0.0.1."""
        fake = cls(**options)
        async with fake.serving():
            yield fake

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """Serve on a free loopback port until the block ends; pushes webhooks meanwhile."""
        sock = loopback_socket()
        server = await serve_on(
            sock, self.app, ws="none", log_config=None, access_log=False,
            timeout_graceful_shutdown=1,
        )  # fmt: skip
        self._base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        pusher = asyncio.create_task(self._pusher.run(), name="fake-telegram-webhook-pusher")
        try:
            yield
        finally:
            self._queue.close()
            pusher.cancel()
            with suppress(asyncio.CancelledError):
                await pusher
            await stop_serving(server, sock)
            self._base = None

    @property
    def api_base_url(self) -> str:
        """``base_url`` for PTB / ``[telegram] api_base_url``: ``http://127.0.0.1:PORT/bot``."""
        return f"{self._served_at()}/bot"

    @property
    def file_base_url(self) -> str:
        """``base_file_url`` for PTB: ``http://127.0.0.1:PORT/file/bot``."""
        return f"{self._served_at()}/file/bot"

    def _served_at(self) -> str:
        if self._base is None:
            raise RuntimeError("the fake is not serving; use `async with FakeTelegram.running()`")
        return self._base

    # --- the world ---

    def add_chat(self, chat: TgChat | TgUser) -> None:
        """Make a chat known without an update (Telegram answers "chat not found" otherwise)."""
        self._world.add_chat(chat.private_chat if isinstance(chat, TgUser) else chat)

    def block_chat(self, chat_id: int) -> None:
        """The user blocks the bot: chat-bound calls answer 403 Forbidden from now on."""
        self._world.blocked_chats.add(chat_id)

    def unblock_chat(self, chat_id: int) -> None:
        """The user unblocks the bot."""
        self._world.blocked_chats.discard(chat_id)

    def register_file(
        self, data: bytes, *, folder: str = "documents", suffix: str = ""
    ) -> StoredFile:
        """Store bytes the bot can fetch with getFile and download."""
        return self._world.register_file(data, folder=folder, suffix=suffix)

    def message(self, chat_id: int, message_id: int) -> JSONDict | None:
        """A message as it stands now (after edits), or None once deleted."""
        return self._world.message(chat_id, message_id)

    def live_location(self, chat_id: int, message_id: int) -> LiveLocation | None:
        """The live location the bot sent as that message, as it stands now (its positions,
        whether it is stopped or still live); None when the message is no live location."""
        state = self._world.live_locations.get((chat_id, message_id))
        if state is None:
            return None
        return LiveLocation(
            chat_id,
            message_id,
            tuple(state.positions),
            state.live_period,
            state.stopped,
            state.live(self._world.now()),
        )

    def live_locations(self, chat_id: int) -> list[LiveLocation]:
        """Every live location the bot sent to ``chat_id`` (and did not delete), oldest first."""
        numbers = sorted(n for chat, n in self._world.live_locations if chat == chat_id)
        return [found for n in numbers if (found := self.live_location(chat_id, n)) is not None]

    def topic_closed(self, chat_id: int, thread_id: int) -> bool | None:
        """Whether the forum topic ``thread_id`` of the chat is closed (None: no such topic)."""
        return self._api.topics.closed(chat_id, thread_id)

    def callback_answer(self, callback_query_id: str) -> JSONDict | None:
        """The answerCallbackQuery parameters the bot gave a query, or None if unanswered."""
        return self._world.callback_answers.get(callback_query_id)

    def commands(self, scope: JSONDict | None = None, language_code: str = "") -> list[JSONDict]:
        """What setMyCommands stored for a scope (default scope if None) and language."""
        return self._api.commands(scope, language_code)

    @property
    def webhook(self) -> Webhook | None:
        """The webhook the bot set, or None in polling mode."""
        return self._queue.webhook

    @property
    def downloads(self) -> list[StoredFile]:
        """Files downloaded through the file route, in order."""
        return list(self._downloads)

    # --- updates ---

    def push_update(self, update: JSONDict) -> bool:
        """Queue an update for getUpdates, or for a push to the webhook if one is set.

        Chats and messages in it become known, as if the user really wrote. Returns False if
        the bot's allowed_updates filter drops it. ValueError for a non-increasing update_id.
        """
        message = update.get("message")
        tapped = (update.get("callback_query") or {}).get("message")
        for chat in (m["chat"] for m in (message, tapped) if m):
            if chat["id"] not in self._world.chats:
                self._world.add_chat(TgChat.from_json(chat))
        accepted = self._queue.push(update)
        if message:
            self._world.store_message(message)
        return accepted

    async def wait_for_long_poll(self, *, timeout: float = 5.0) -> None:
        """Return once a getUpdates call is in progress (the bot is polling now)."""
        async with asyncio.timeout(timeout):
            while True:
                changed = self._queue.changed
                if self._queue.polls_in_progress:
                    return
                await changed.wait()

    async def wait_for_updates_taken(self, *, timeout: float = 5.0) -> None:
        """Return once the bot has confirmed every update pushed so far (it has them all)."""
        async with asyncio.timeout(timeout):
            while True:
                changed = self._queue.changed
                if not self._queue.pending:
                    return
                await changed.wait()

    @property
    def pending_updates(self) -> list[JSONDict]:
        """Updates not yet confirmed by the bot."""
        return self._queue.pending

    # --- failure injection ---

    def fail_next(
        self,
        method: str,
        *,
        error_code: int = 429,
        retry_after: int | None = None,
        description: str | None = None,
        count: int = 1,
        chat_id: int | str | None = None,
    ) -> None:
        """Answer the next ``count`` calls of ``method`` (to ``chat_id`` if given) with an error.

        429 answers ``Too Many Requests: retry after N`` with ``parameters.retry_after`` (N
        defaults to 1), which PTB raises as RetryAfter; other codes answer ``description`` or
        Telegram's usual text for the code. ValueError for a method the fake does not serve.
        """
        canonical = self._api.canonical(method)
        if canonical is None:
            raise ValueError(f"the fake does not serve {method!r}")
        self._failures.add(
            canonical,
            error_code=error_code,
            retry_after=retry_after,
            description=description,
            count=count,
            chat_id=chat_id,
        )

    def hold_next(self, method: str, *, chat_id: int, containing: str) -> asyncio.Event:
        """Hold the next call of ``method`` to ``chat_id`` whose text contains ``containing``:
        never carried out, never answered, until its client goes away. The event is set once it
        arrived (``telegram_holds``). ValueError for a method the fake does not serve."""
        canonical = self._api.canonical(method)
        if canonical is None:
            raise ValueError(f"the fake does not serve {method!r}")
        return self._holds.add(canonical, chat_id, containing)

    # --- HTTP ---

    async def _method_endpoint(self, request: Request) -> Response:
        method = request.path_params["method"]
        parsed = ParsedRequest({}, {})
        try:
            if not secrets.compare_digest(request.path_params["token"], self.token):
                raise BotApiError(401, "Unauthorized")
            canonical = self._api.canonical(method)
            if canonical is None:
                raise BotApiError(404, "Not Found: method not found")
            method = canonical
            parsed = parse_request(
                list(request.query_params.multi_items()),
                request.headers.get("content-type", ""),
                await request.body(),
            )
            failure = self._failures.take(method, parsed.params)
            if failure is not None:
                raise failure

            async def disconnected() -> None:
                while (await request.receive())["type"] != "http.disconnect":
                    pass

            held = self._holds.take(method, parsed.params)
            if held is not None:
                held.set()
                await disconnected()  # its client is gone: nothing was done, nothing to answer
                return Response(status_code=499)

            result = await self._api.call(method, parsed.params, parsed.files, disconnected)
            status, body = 200, ok_envelope(result)
        except BotApiError as error:
            status, body = error.error_code, error.envelope()
        await self._record_call(method, parsed, status, body)
        return AsciiJSONResponse(body, status_code=status)

    async def _file_endpoint(self, request: Request) -> Response:
        if not secrets.compare_digest(request.path_params["token"], self.token):
            return JSONResponse(BotApiError(401, "Unauthorized").envelope(), status_code=401)
        stored = self._world.file_at(request.path_params["file_path"])
        if stored is None:
            return await self._not_found(request)
        self._downloads.append(stored)
        media_type = mimetypes.guess_type(stored.file_path)[0] or "application/octet-stream"
        return Response(stored.data, media_type=media_type)

    async def _not_found(self, request: Request) -> Response:
        return JSONResponse(BotApiError(404, "Not Found").envelope(), status_code=404)
