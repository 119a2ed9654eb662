"""The running bot: every part built from one ``Config``, started and stopped together.

::

    runtime = await Runtime.build(config)     # store, Partner client, engine, PTB, relay, web app
    await runtime.start()                     # Telegram (polling or webhook) and the workers
    ...
    await runtime.stop()

``serve(config)`` is ``deliverybot run``: it also serves the web app with uvicorn and stops on
SIGINT or SIGTERM.

=======================  =====================================================================
Telegram ``polling``     PTB long polling; the web app is served only when the bot has a
                         public host (package photos at ``/media``, partner webhooks)
Telegram ``webhook``     ``setWebhook({public_base_url}/telegram, secret_token)``; the web
                         app's ``/telegram`` route feeds the Application
``[webhooks]`` enabled   the service posts events to ``/hooks/partner`` (verified, inboxed)
``[webhooks]`` disabled  ``StatusPoller`` reads open deliveries into the same inbox instead
=======================  =====================================================================

``Seams`` replaces what tests and benchmarks must not reach for real: the Partner API's
transport, PTB's HTTP layer, the send limiter's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import httpx
import uvicorn
from starlette.applications import Starlette
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.request import BaseRequest

from bot.config import Config
from bot.geo.nominatim import NominatimGeocoder
from bot.ordering import ChatService, build_engine, geocoder_from_config
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.relay import ChatUnreachable, Relay, StatusPoller
from bot.store import Store
from bot.store.database import Synchronous
from bot.telegram.application import (
    ALLOWED_UPDATES,
    BotApplication,
    ChatOrderedProcessor,
    build_application,
    install_handlers,
)
from bot.telegram.commands import register_commands
from bot.telegram.context import BotContext
from bot.telegram.conversation import Conversation
from bot.telegram.deliveries import delivery_handlers
from bot.telegram.limits import RateLimiter
from bot.telegram.operators import operator_handlers
from bot.telegram.photos import PhotoReceiver
from bot.telegram.sender import SendFailed, TelegramSender
from bot.telegram.webhook_route import TELEGRAM_PATH, telegram_route
from bot.web import create_web_app
from conversations import Geocoder, Turn

log = logging.getLogger(__name__)

HOUSEKEEPING_SECONDS: Final = 3600.0
DRAIN_SECONDS: Final = 10.0  # at shutdown, for the updates already received
UPDATE_IDS_KEPT_SECONDS: Final = 8 * 86_400  # Telegram may reuse ids after a week of silence
RELAYED_KEPT_SECONDS: Final = 30 * 86_400  # far beyond the service's webhook retries


class StartupError(Exception):
    """The bot could not start; the message is safe to print (no secrets)."""


@dataclass(frozen=True)
class Seams:
    """What a test or a benchmark replaces; production uses the defaults."""

    partner_transport: httpx.AsyncBaseTransport | None = None
    geocoder_transport: httpx.AsyncBaseTransport | None = None
    telegram_request: BaseRequest | None = None
    telegram_updates_request: BaseRequest | None = None
    processor: ChatOrderedProcessor | None = None
    limiter: RateLimiter | None = None
    clock: Callable[[], float] = time.time
    synchronous: Synchronous = "FULL"
    new_idempotency_key: Callable[[], str] | None = None


@dataclass
class Runtime:
    """The bot's parts; build with ``Runtime.build``. See the module docstring."""

    config: Config
    store: Store
    client: PartnerClient
    ctx: BotContext
    application: BotApplication
    conversation: Conversation
    relay: Relay
    poller: StatusPoller | None
    web_app: Starlette
    geocoder: Geocoder | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def build(cls, config: Config, seams: Seams | None = None) -> Runtime:
        """Open the store and wire every part (nothing talks to Telegram yet)."""
        seams = seams or Seams()
        config.storage.path.parent.mkdir(parents=True, exist_ok=True)
        store = await Store.connect(
            config.storage.path,
            media_dir=config.storage.media_dir,
            clock=seams.clock,
            synchronous=seams.synchronous,
        )
        try:
            return _wire(config, seams, store)
        except BaseException:
            await store.close()
            raise

    @property
    def serves_web(self) -> bool:
        """Whether the web app must listen: only a public host can be reached by anyone."""
        return self.config.telegram.public_base_url is not None

    async def start(self, *, workers: bool = True) -> None:
        """Connect to Telegram, register the commands, and start receiving updates.

        ``workers`` starts the relay, the status poller and housekeeping as tasks (tests that
        drive the relay by hand pass False). Raises ``StartupError`` when Telegram refuses.
        """
        telegram, bot = self.config.telegram, self.application.bot
        try:
            await self.application.initialize()  # getMe: checks the token, learns the username
            await register_commands(bot, self.ctx.operators)
            await self.application.start()
            if telegram.mode == "webhook":
                assert telegram.public_base_url and telegram.secret_token  # config ensures it
                await bot.set_webhook(
                    url=telegram.public_base_url + TELEGRAM_PATH,
                    secret_token=telegram.secret_token.get_secret_value(),
                    allowed_updates=list(ALLOWED_UPDATES),
                )
            else:
                assert self.application.updater is not None
                await self.application.updater.start_polling(
                    allowed_updates=list(ALLOWED_UPDATES), error_callback=_polling_failed
                )
        except TelegramError as error:
            problem: str | None = _startup_problem(error)
        else:
            problem = None
        if problem is not None:  # raised here, not in the except: the error (which may quote
            raise StartupError(problem)  # the token) must not travel along as its context
        log.info("bot @%s running (%s mode)", bot.username, telegram.mode)
        if workers:
            self._spawn("relay", self.relay.run())
            if self.poller is not None:
                self._spawn("status-poller", self.poller.run())
            self._spawn("housekeeping", self._housekeeping())

    async def stop(self) -> None:
        """Stop receiving, finish what runs, close everything. Safe after a failed start."""
        application = self.application
        if application.updater is not None and application.updater.running:
            await application.updater.stop()
        if application.running:
            # Updates already taken (acknowledged to Telegram, which will not send them again)
            # are answered before the Application stops, within a bound.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(DRAIN_SECONDS):
                    await application.update_queue.join()
            await application.stop()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()
        await self.ctx.chats.aclose()
        with contextlib.suppress(TelegramError):
            await application.shutdown()
            # After a failed start the Application was never initialized and its shutdown
            # does nothing, but the Bot's HTTP clients are open: close them (no-op otherwise).
            await application.bot.shutdown()
        await self.client.aclose()
        if isinstance(self.geocoder, NominatimGeocoder):
            await self.geocoder.aclose()
        await self.store.close()

    def _spawn(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        self.tasks.append(asyncio.create_task(work, name=name))

    async def _housekeeping(self) -> None:
        store = self.store
        while True:
            now = store.clock()
            try:
                await store.media.purge_expired(now)
                await store.updates.prune(now - UPDATE_IDS_KEPT_SECONDS)
                await store.inbox.purge_processed(now - RELAYED_KEPT_SECONDS)
                await store.sent.prune(now - RELAYED_KEPT_SECONDS)
            except Exception:
                log.exception("housekeeping failed; tried again in an hour")
            await asyncio.sleep(HOUSEKEEPING_SECONDS)


def _wire(config: Config, seams: Seams, store: Store) -> Runtime:
    telegram, operators = config.telegram, frozenset(config.operators.chat_ids)
    client = PartnerClient(
        config.partner.base_url,
        config.partner.api_key.get_secret_value(),
        options=config.partner.client_options(),
        transport=seams.partner_transport,
    )
    cache = CapabilityCache.for_client(client)
    geocoder = geocoder_from_config(config.geocoding, transport=seams.geocoder_transport)
    engine = build_engine(
        client,
        cache,
        geocoder=geocoder,
        phone_region=telegram.default_phone_region,
        new_idempotency_key=seams.new_idempotency_key,
    )
    processor = seams.processor or ChatOrderedProcessor()
    application = build_application(
        telegram,
        request=seams.telegram_request,
        get_updates_request=seams.telegram_updates_request,
        processor=processor,
    )
    sender = TelegramSender(application.bot, store, limiter=seams.limiter)
    conversation: Conversation | None = None

    async def tell_operators(text: str) -> None:
        await send_to_operators(sender, operators, text)

    async def deliver_later(chat_id: int, turn: Turn) -> None:
        assert conversation is not None
        await conversation.deliver_later(chat_id, turn)

    chats = ChatService(
        engine,
        store,
        alert_operators=tell_operators if operators else None,
        clock=seams.clock,
        deliver_later=deliver_later,
    )
    photos = PhotoReceiver(
        application.bot,
        store,
        public_base_url=telegram.public_base_url,
        ttl_seconds=config.storage.media_ttl_hours * 3600,
    )
    ctx = BotContext(
        store=store,
        chats=chats,
        client=client,
        cache=cache,
        sender=sender,
        photos=photos,
        operators=operators,
        phone_region=telegram.default_phone_region,
    )
    conversation = Conversation(ctx, chat_turn=processor.hold)
    # One group: the first handler that matches answers. Feature commands and their buttons
    # come before the conversation, whose message handler takes everything else.
    handlers = [*delivery_handlers(ctx), *operator_handlers(ctx), *conversation.handlers()]
    install_handlers(application, ctx, handlers)
    relay = Relay(
        store,
        sender,
        operators=sorted(operators),
        settings=config.relay,
        clock=seams.clock,
        phone_region=telegram.default_phone_region,
    )
    webhooks = config.webhooks
    poller = None
    if not webhooks.enabled:
        interval = config.relay.polling_interval_seconds
        poller = StatusPoller(store, client, interval_seconds=interval, on_event=relay.wake)
    routes = []
    if telegram.mode == "webhook" and telegram.secret_token is not None:
        routes.append(telegram_route(application, telegram.secret_token.get_secret_value()))
    web_app = create_web_app(
        store=store,
        signing_secrets=[s.get_secret_value() for s in webhooks.signing_secrets()]
        if webhooks.enabled
        else [],
        webhook_path=webhooks.path,
        max_body_bytes=webhooks.max_body_bytes,
        on_event=relay.wake,
        extra_routes=routes,
        clock=seams.clock,
    )
    return Runtime(
        config, store, client, ctx, application, conversation, relay, poller, web_app, geocoder
    )


async def send_to_operators(sender: TelegramSender, operators: Iterable[int], text: str) -> None:
    """``text`` to every operator chat; one that cannot be reached does not stop the others."""
    for chat_id in sorted(operators):
        try:
            await sender.send(chat_id, text)
        except (ChatUnreachable, SendFailed) as error:
            log.warning("operator chat %s not told (%s)", chat_id, type(error).__name__)


def _startup_problem(error: TelegramError) -> str:
    if isinstance(error, InvalidToken):
        return "Telegram refused the bot token ([telegram] token)"
    if isinstance(error, NetworkError):
        return f"could not reach the Bot API at [telegram] api_base_url ({type(error).__name__})"
    return f"Telegram refused to start the bot: {error.message}"


def _polling_failed(error: TelegramError) -> None:
    # The type only: a network error's text may quote the request URL, token included.
    log.warning("getUpdates failed (%s); PTB tries again", type(error).__name__)


# --- deliverybot run ---------------------------------------------------------------------------


async def serve(config: Config) -> None:
    """Run the bot until SIGINT or SIGTERM (``deliverybot run``)."""
    runtime = await Runtime.build(config)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    server: uvicorn.Server | None = None
    sockets: list[socket.socket] = []
    try:
        if runtime.serves_web:  # first: the /telegram route must answer once setWebhook is set
            sockets = [listening_socket(config.telegram.listen_host, config.telegram.listen_port)]
            server = await start_web_server(runtime.web_app, sockets)
        await runtime.start()
        await stopping.wait()
        log.info("stopping")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        if server is not None:
            await server.shutdown(sockets=sockets)
        await runtime.stop()


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound TCP socket for uvicorn.

    Made with ``IPPROTO_TCP`` on purpose: asyncio sets TCP_NODELAY only on sockets that say
    they are TCP, and without it small answers wait ~40 ms for a delayed ACK.
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


async def start_web_server(app: Starlette, sockets: list[socket.socket]) -> uvicorn.Server:
    """uvicorn serving ``app`` on ``sockets``, without taking over the process's signals.

    No access log: ``/media/<token>`` paths are capabilities, and what reaches the bot is
    logged by the routes themselves.
    """
    config = uvicorn.Config(
        app, lifespan="off", ws="none", log_config=None, access_log=False, server_header=False
    )
    server = uvicorn.Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)
    await server.startup(sockets=sockets)
    if server.should_exit:  # uvicorn reports a failed start this way, not by raising
        raise StartupError("the web app could not start listening")
    return server


class RedactSecrets(logging.Filter):
    """Replaces any configured secret in a log record (message and traceback) by a mark.

    The code logs no secrets; this is the net under libraries that might (PTB puts the bot
    token into ``InvalidToken``'s message, and every Bot API URL carries it).
    """

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(secret in message for secret in self._secrets):
            record.msg, record.args = self._redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = self._redact(record.exc_text)
        return True

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "[redacted]")
        return text


def configure_logging(config: Config, level: int = logging.INFO) -> None:
    """Log lines to stderr, secrets redacted, chatty libraries kept quiet.

    httpx and httpcore stay at WARNING (their INFO lines are request URLs, which carry the bot
    token); aiosqlite at INFO or above (its DEBUG lines hold SQL parameters: personal data);
    PTB at INFO or above (its DEBUG lines print whole updates).
    """
    secrets = [config.telegram.token, config.partner.api_key, config.telegram.secret_token]
    secrets += config.webhooks.signing_secrets()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets([s.get_secret_value() for s in secrets if s is not None]))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name, floor in (
        ("httpx", logging.WARNING),
        ("httpcore", logging.WARNING),
        ("aiosqlite", logging.INFO),
        ("telegram", logging.INFO),
        ("uvicorn", logging.INFO),
    ):
        logging.getLogger(name).setLevel(max(level, floor))
