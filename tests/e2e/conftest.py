"""The whole bot, end to end: ``make_stack`` / ``stack`` start every part for real.

::

    PTB Application (bot.runtime) ──HTTP──> FakeTelegram on 127.0.0.1 (records every call)
        │ PartnerClient over ASGITransport
        v
    Sandbox (in process) ── webhooks, photo downloads ──> AppSwitch ──> the bot's web app
                                                                   (/hooks/partner, /media,
                                                                    /telegram in webhook mode)
    SQLite store in tmp_path (the same file across restarts)

The runtime is the production one (``Runtime.build`` + ``start``), built from a real ``Config``;
only the seams differ: the Partner API is the sandbox, PTB's HTTP clients skip loading the CA
bundle, and the send limiter keeps Telegram's limits in instant fake time. Nothing sleeps:
helpers await what they wait for.

Helpers on ``BotStack`` (for every e2e test module):

* ``await stack.send(update)``: push an update (``stack.tg.updates...``) and wait until the bot
  has processed it; returns the messages the bot sent to that chat meanwhile.
  ``text(user, "...")``, ``command(user, "status", "id")``, ``tap(message, "label")``,
  ``contact(user, phone)``, ``location(user, lat, lng)``, ``photo(user, data)`` wrap it.
* ``await stack.order(user)``: a whole pickup & delivery order (photo included) through the
  chat, from ``/new`` to the created delivery; returns its id. ``receiver_phone=`` chooses the
  receiver (the OTP goes to whoever proves this phone). ``fill_order`` stops at the summary.
* ``await stack.deliver_events()``: the sandbox sends every due webhook into the web app, then
  one relay pass runs; returns how many events were relayed.
* ``await stack.restart()``: the bot process stops and a new one starts over the same SQLite
  file; the sandbox and the fake Telegram keep running.
* ``stack.prompt(chat_id)``: the last message with buttons sent to the chat.
* ``stack.partner.creates``: the JSON bodies of the creates the running bot sent.

The users: ``ADA`` orders, ``BOLA`` is her receiver (``RECEIVER_PHONE``), ``CHIDI`` is another
customer, ``OLU`` is an operator writing in ``OPERATORS`` (the operator group chat in config).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import ssl
import struct
import tempfile
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest
from telegram.request import HTTPXRequest

from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import UserRef
from bot.clocks import Clock, system_clock
from bot.config import Config
from bot.config.texts_section import CHANNEL_TEXTS
from bot.demo.transports import AppSwitch, loopback_resolver
from bot.runtime import Runtime, Seams
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.telegram.limits import RateLimiter
from tests.e2e.preloaded_runs import SOCKET_VARIABLE, preloader
from tests.fakes import FakeTelegram, SentMessage, TgChat, TgUser
from tests.fakes.telegram_keyboards import buttons
from tests.support.clock import FakeClock
from tests.support.tracking_processor import TrackingProcessor

ADA = TgUser(1001, "Ada", last_name="Obi", username="ada")
BOLA = TgUser(1002, "Bola", last_name="Ahmed")
CHIDI = TgUser(1003, "Chidi")
OLU = TgUser(1900, "Olu")
OPERATORS = TgChat.group(-100500, "Dispatch")
FORUM = TgChat.group(-100501, "Dispatch topics", forum=True)  # operators' chat with topics
PUBLIC_BASE_URL = "https://localhost"  # on the default scenario's image allowlist
SECRET_TOKEN = "e2e-telegram-secret-token_0123456789"
ADA_PHONE = "+2348031234567"
RECEIVER_PHONE = "+2348022223333"

Mode = Literal["polling", "webhook"]
ScenarioEdit = Callable[[dict[str, Any]], None]

# PTB builds two httpx clients per Bot and each would load the CA bundle although the fake is
# plain http on loopback; one shared context keeps the suite fast.
_TLS = ssl.create_default_context()


def tiny_png(red: int = 200) -> bytes:
    """A valid 1x1 PNG (the bot checks pictures by their bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, red, 0, 0]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def instant_time() -> FakeClock:
    """The send limiter's monotonic clock and sleep: a sleep moves time on and returns.

    Telegram's limits are still booked slot by slot, so a 429's ``retry_after`` is honoured,
    but nobody waits for real.
    """
    return FakeClock(0.0)


class PartnerRecorder(httpx.AsyncBaseTransport):
    """The bot's way to the sandbox, keeping the JSON body of every create it sends;
    ``before_create``, when set, runs as each create leaves the bot (a test's race)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._inner = httpx.ASGITransport(app=sandbox.app)
        self.creates: list[dict[str, Any]] = []
        self.before_create: Callable[[], Awaitable[None]] | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/deliveries"):
            self.creates.append(json.loads(await request.aread()))
            if self.before_create is not None:
                await self.before_create()
        return await self._inner.handle_async_request(request)


def stack_config(
    tmp_path: Path,
    tg: FakeTelegram,
    sandbox: Sandbox,
    *,
    mode: Mode,
    operators: list[int],
    public_base_url: str = PUBLIC_BASE_URL,
    partner: dict[str, Any] | None = None,
    metrics: dict[str, Any] | None = None,
    texts: dict[str, Any] | None = None,
) -> Config:
    """The config an operator would write for this stack (secrets inline, no env vars), its
    files under ``tmp_path``; ``partner`` adds ``[partner]`` settings (the client's retries),
    ``metrics`` a ``[metrics]`` section, ``texts`` a ``[texts]`` one."""
    telegram: dict[str, Any] = {
        "token": tg.token,
        "mode": mode,
        "public_base_url": public_base_url,
        "api_base_url": tg.api_base_url,
        "file_base_url": tg.file_base_url,
    }
    if mode == "webhook":
        telegram["secret_token"] = SECRET_TOKEN
    data = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key, **(partner or {})},
        "telegram": telegram,
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "operators": {"chat_ids": operators},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "geocoding": {"provider": "none"},
        "relay": {},
    }
    if metrics is not None:
        data["metrics"] = metrics
    if texts is not None:
        data["texts"] = texts
    return Config.model_validate(data, context=config_context(tmp_path))


def config_context(base_dir: Path) -> dict[str, Any]:
    """What ``deliverybot run`` gives a config's validation: no environment variables, the
    file's folder, and every shipped channel's words (for ``[texts]`` overrides)."""
    return {"environ": {}, "base_dir": base_dir, CHANNEL_TEXTS: shipped_channel_texts}


@dataclass
class BotStack:
    """FakeTelegram, the sandbox and the bot; see the module docstring for the helpers."""

    tg: FakeTelegram
    sandbox: Sandbox
    switch: AppSwitch
    config: Config
    workers: bool = True
    time: FakeClock = field(default_factory=instant_time)
    clock: Clock = system_clock  # the store's (wall) clock
    runtime: Runtime | None = None
    processor: TrackingProcessor | None = None
    partner: PartnerRecorder | None = None

    # --- the bot process -------------------------------------------------------------------

    async def start(self, *, workers: bool | None = None) -> Runtime:
        """Start a bot process (``workers=False``: the relay only runs when a test asks)."""
        if workers is not None:
            self.workers = workers
        self.processor = TrackingProcessor()
        self.partner = PartnerRecorder(self.sandbox)
        seams = Seams(
            partner_transport=self.partner,
            telegram_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
            telegram_updates_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
            processor=self.processor,
            limiter=RateLimiter(clock=self.time.clock, sleep=self.time.sleep),
            synchronous="NORMAL",
            clock=self.clock,
        )
        runtime = await Runtime.build(self.config, seams)
        self.switch.app = runtime.web_app
        self.runtime = runtime
        await runtime.start(workers=self.workers)
        return runtime

    async def stop(self) -> None:
        """Stop the bot process (its web app answers 503 until the next start)."""
        runtime, self.runtime = self.runtime, None
        self.switch.app = None
        if runtime is not None:
            await runtime.stop()

    async def restart(self, *, workers: bool | None = None) -> Runtime:
        """A redeploy: the bot stops and starts again over the same SQLite file."""
        await self.stop()
        return await self.start(workers=workers)

    @property
    def bot(self) -> Runtime:
        if self.runtime is None:
            raise RuntimeError("the bot is not running")
        return self.runtime

    # --- users acting in Telegram -----------------------------------------------------------

    async def send(self, update: dict[str, Any], *, timeout: float = 5.0) -> list[SentMessage]:
        """Push ``update`` and wait until it is processed and the answered prompt is tidied
        (that edit runs after the turn); the bot's messages to its chat."""
        chat_id = _chat_of(update)
        before = len(self.tg.sent_messages(chat_id))
        self.tg.push_update(update)
        assert self.processor is not None, "the bot is not running"
        await self.processor.processed(update["update_id"], timeout=timeout)
        await self.bot.conversation.settle()
        return self.tg.sent_messages(chat_id)[before:]

    async def text(
        self, user: TgUser, text: str, *, chat: TgChat | None = None
    ) -> list[SentMessage]:
        return await self.send(self.tg.updates.text(user, text, chat=chat))

    async def command(
        self, user: TgUser, name: str, payload: str | None = None, *, chat: TgChat | None = None
    ) -> list[SentMessage]:
        in_group = chat is not None and chat.type != "private"
        update = self.tg.updates.command(user, name, payload, chat=chat, mention_bot=in_group)
        return await self.send(update)

    async def tap(
        self, message: SentMessage, label: str, *, user: TgUser | None = None
    ) -> list[SentMessage]:
        """Tap the button ``label`` on ``message`` as it stands now (after the bot's edits)."""
        return await self.send(self.tg.updates.tap(message, label, user=user))

    async def contact(self, user: TgUser, phone: str, **options: Any) -> list[SentMessage]:
        return await self.send(self.tg.updates.contact(user, phone, **options))

    async def location(self, user: TgUser, lat: float, lng: float) -> list[SentMessage]:
        return await self.send(self.tg.updates.location(user, lat, lng))

    async def photo(self, user: TgUser, data: bytes | None = None) -> list[SentMessage]:
        return await self.send(self.tg.updates.photo(user, data or tiny_png()))

    def prompt(self, chat_id: int) -> SentMessage:
        """The last message sent to ``chat_id`` with buttons to tap: an inline keyboard, or a
        reply keyboard with a plain button (a prompt drawn on a reply keyboard)."""
        for message in reversed(self.tg.sent_messages(chat_id)):
            markup = message.reply_markup or {}
            if "inline_keyboard" in markup or any(
                not any(key.startswith("request_") for key in button) for button in buttons(markup)
            ):
                return message
        raise LookupError(f"no message with buttons was sent to chat {chat_id}")

    # --- the service side --------------------------------------------------------------------

    async def deliver_events(self) -> int:
        """Every due sandbox webhook into the web app, then one relay pass."""
        await self.sandbox.drain_webhooks()
        return await self.bot.relay.process_pending()

    async def order(
        self,
        user: TgUser,
        *,
        receiver_phone: str = RECEIVER_PHONE,
        photos: Sequence[bytes] = (tiny_png(),),
        begin: str | None = "new",
    ) -> str:
        """A pickup & delivery ordered through the chat; the created delivery's id.

        ``begin`` is the command that opens the order (None: the first question is showing).
        """
        await self.fill_order(user, receiver_phone=receiver_phone, photos=photos, begin=begin)
        await self.tap(self.prompt(user.id), "Confirm and send")
        links = await self.bot.store.deliveries.for_user(UserRef("telegram", user.id), 1)
        assert links, "the order was not created"
        return links[0].delivery_id

    async def fill_order(
        self,
        user: TgUser,
        *,
        receiver_phone: str = RECEIVER_PHONE,
        photos: Sequence[bytes] = (tiny_png(),),
        begin: str | None = "new",
    ) -> SentMessage:
        """Answer every question of a pickup & delivery; the summary (not confirmed yet)."""
        chat = user.id
        if begin is not None:
            await self.command(user, begin)
        await self.tap(self.prompt(chat), "✓ Pickup & delivery")
        # A rider picking up, "Me" handing over, not fragile, no cash, no email and cash as the
        # payment method are pre-set: the summary shows them.
        await self.location(user, 6.5095, 3.3711)
        await self.text(user, "12 Herbert Macaulay Way, Yaba")
        await self.tap(self.prompt(chat), "UNILAG Main Gate")
        await self.contact(user, ADA_PHONE if user == ADA else "+2348035550000")
        await self.text(user, "Bola Ahmed")
        await self.text(user, receiver_phone)
        await self.text(user, "A pair of shoes in a box")
        await self.tap(self.prompt(chat), "Small")
        for picture in photos:  # as an album: the first answers, the rest are added
            await self.photo(user, picture)
        return self.prompt(chat)


def _chat_of(update: dict[str, Any]) -> int:
    message = update.get("message") or (update.get("callback_query") or {}).get("message")
    if not message:
        raise ValueError("the helpers push messages and taps only")
    return int(message["chat"]["id"])


MakeStack = Callable[..., Awaitable[BotStack]]


async def sandbox_and_telegram(
    exits: contextlib.AsyncExitStack, edit: ScenarioEdit | None = None
) -> tuple[AppSwitch, Sandbox, FakeTelegram]:
    """The sandbox (its scenario changed by ``edit``) and FakeTelegram, both reaching the bot's
    web app through the returned switch (set it once the bot runs), closed by ``exits``."""
    data = default_scenario_data()
    if edit is not None:
        edit(data)
    switch = AppSwitch()
    sandbox = Sandbox(
        parse_scenario(data),
        webhook_transport=httpx.ASGITransport(app=switch),
        image_transport=httpx.ASGITransport(app=switch),
        resolver=loopback_resolver,
    )
    exits.push_async_callback(sandbox.aclose)
    tg = await exits.enter_async_context(
        FakeTelegram.running(webhook_transport=httpx.ASGITransport(app=switch))
    )
    return switch, sandbox, tg


@pytest.fixture(autouse=True, scope="session")
def _preloaded_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One preloader for the session's real ``deliverybot run`` processes
    (``tests/e2e/preloaded_runs.py``), found by ``start_instance`` through the environment."""
    base = Path(tempfile.mkdtemp(prefix="e2e-runs-", dir="/tmp"))  # a short socket path
    try:
        with preloader(base) as socket_path, pytest.MonkeyPatch.context() as patch:
            patch.setenv(SOCKET_VARIABLE, socket_path)
            yield
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
async def make_stack(tmp_path: Path) -> AsyncIterator[MakeStack]:
    """``await make_stack(mode="polling", edit=None, operators=[OPERATORS.id], workers=True,
    public_base_url=PUBLIC_BASE_URL, partner=None, clock=system_clock, metrics=None,
    texts=None, home=None)``.

    ``edit(data)`` changes the default scenario's TOML data before the sandbox is built;
    ``partner`` adds ``[partner]`` settings to the config, ``metrics`` its ``[metrics]``,
    ``texts`` its ``[texts]``; ``home`` is the folder of its store and media (``tmp_path``:
    give each of several stacks in one test its own). Everything started is stopped when the
    test ends.
    """
    async with contextlib.AsyncExitStack() as exits:

        async def make(
            *,
            mode: Mode = "polling",
            edit: ScenarioEdit | None = None,
            operators: list[int] | None = None,
            workers: bool = True,
            public_base_url: str = PUBLIC_BASE_URL,
            partner: dict[str, Any] | None = None,
            clock: Clock = system_clock,
            metrics: dict[str, Any] | None = None,
            texts: dict[str, Any] | None = None,
            home: Path | None = None,
        ) -> BotStack:
            switch, sandbox, tg = await sandbox_and_telegram(exits, edit)
            for user in (ADA, BOLA, CHIDI, OLU):
                tg.add_chat(user)
            tg.add_chat(OPERATORS)
            tg.add_chat(FORUM)
            config = stack_config(
                home or tmp_path,
                tg,
                sandbox,
                mode=mode,
                operators=[OPERATORS.id] if operators is None else operators,
                public_base_url=public_base_url,
                partner=partner,
                metrics=metrics,
                texts=texts,
            )
            stack = BotStack(tg, sandbox, switch, config, workers=workers, clock=clock)
            exits.push_async_callback(stack.stop)
            await stack.start()
            return stack

        yield make


@pytest.fixture
async def stack(make_stack: MakeStack) -> BotStack:
    """The usual stack: polling mode, default scenario, one operator group, workers running."""
    return await make_stack()
