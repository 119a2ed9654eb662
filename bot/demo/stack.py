"""``DemoStack``: the whole bot in one process against the sandbox, for the terminal demo, the
transcript replays and the tests.

::

    sandbox (default scenario) <── PartnerClient over ASGITransport ── CapabilityCache
       │  webhooks, photo downloads                                       │
       └──> AppSwitch ──> the bot's web app (/hooks/partner, /media)     ChatService ── store
                               │ inbox                                    │   (SQLite, temp dir)
                               └──> Relay ──> ConsoleChannel ──> Screen <─┴── ConsoleChat

The ``ConsoleChat`` also asks a ``CustomerDesk`` over the same client and store (status, the
customer's deliveries, cancel, drop-off code links typed back in).
Nothing leaves the process: the Partner API is the sandbox, photos are served to it by the
bot's own web app at ``https://localhost/media/<token>``, typed addresses are looked up in an
offline gazetteer. ``restart()`` replaces the whole bot side (client, cache, store connection,
web app, relay, chat service) over the same SQLite file while the sandbox keeps running, which
is what a redeploy in the middle of a conversation looks like.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO
from urllib.parse import urlsplit

import httpx

from bot.bot_core import CoreSeams, CoreSettings, build_core
from bot.clocks import Clock, Sleep
from bot.console import CONSOLE_WORDS, ConsoleChannel, ConsoleChat, Screen, said
from bot.demo.demo_commands import run_command
from bot.demo.facts import read_fact
from bot.demo.gazetteer import offline_geocoder
from bot.demo.next_moves import next_moves
from bot.demo.transports import AppSwitch, StaleCapabilities, loopback_resolver
from bot.geo.nominatim import NominatimGeocoder
from bot.jobs import Scheduler
from bot.partner.errors import PartnerError
from bot.partner.options import ClientOptions
from bot.sandbox import Sandbox, Scenario
from bot.store import Store
from conversations import Turn
from conversations.flow import FlowRegistry
from conversations.texts.catalogue import DEFAULT_TEXTS, Texts
from conversations.texts.deliveries_texts import short_ref, status_label

CUSTOMER_CHAT = 1001  # the customer's chat and user id
OPERATOR_CHAT = 9001  # the business's operator chat
PUBLIC_BASE_URL = "https://localhost"  # where the bot's web app serves photos to the sandbox
DEFAULT_WEBHOOK_PATH = "/hooks/partner"
DEMO = "demo"
PLACES_HINT = ":places lists the ones the demo knows"  # its offline geocoder's few addresses


@dataclass(frozen=True)
class DemoOptions:
    """What a demo run is made of. ``live`` starts the background workers (the sandbox's
    webhook sender, the relay loop) for an interactive terminal; without it everything moves
    only when a line is typed, which makes replays deterministic."""

    scenario: Scenario
    data_dir: Path
    stale: Mapping[str, Any] = field(default_factory=dict)
    clock: Clock = time.time
    sleep: Sleep = asyncio.sleep
    client_options: ClientOptions = field(default_factory=ClientOptions)
    geocoder: bool = True
    phone_region: str = "NG"
    new_idempotency_key: Callable[[], str] | None = None
    registry: FlowRegistry | None = None
    first_flow: str | None = None
    photo_dir: Path | None = None
    echo: TextIO | None = None
    live: bool = False
    language: str | None = None  # the customer's language code, as Telegram's language_code
    texts: Texts = DEFAULT_TEXTS  # the business's locale and overrides, as [texts] gives them


class _Bot:
    """One run of the bot process: everything that a restart replaces."""

    def __init__(self, stack: DemoStack, store: Store) -> None:
        options, sandbox = stack.options, stack.sandbox
        self.store = store
        transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=sandbox.app)
        if stack.stale_left:
            transport = StaleCapabilities(transport, options.stale, times=stack.stale_left)
        self.stale = transport if isinstance(transport, StaleCapabilities) else None
        self.geocoder: NominatimGeocoder | None = offline_geocoder() if options.geocoder else None
        channel = ConsoleChannel(stack.screen, {CUSTOMER_CHAT: "bot", OPERATOR_CHAT: "ops"})
        self.channel = channel
        self.core = build_core(
            CoreSettings(
                partner_base_url=sandbox.base_url,
                partner_api_key=sandbox.api_key,
                client_options=options.client_options,
                phone_region=options.phone_region,
                operators=(OPERATOR_CHAT,),
                signing_secrets=tuple(hook.secret for hook in sandbox.scenario.webhooks),
                webhook_path=stack.webhook_path,
                texts=options.texts,
                public_base_url=PUBLIC_BASE_URL,
            ),
            store,
            channel,
            CONSOLE_WORDS,
            seams=CoreSeams(
                partner_transport=transport,
                geocoder=self.geocoder,
                clock=options.clock,
                sleep=options.sleep,
                registry=options.registry,
                new_idempotency_key=options.new_idempotency_key,
            ),
            deliver_later=stack.deliver_later,
        )
        self.client, self.relay, self.web_app = self.core.client, self.core.relay, self.core.web_app
        self.chats, self.desk = self.core.chats, self.core.desk
        self.console = ConsoleChat(
            self.chats,
            self.desk,
            stack.screen,
            chat_id=CUSTOMER_CHAT,
            user_id=CUSTOMER_CHAT,
            public_base_url=PUBLIC_BASE_URL,
            base_dir=options.photo_dir,
            first_flow=options.first_flow,
            typed_places=PLACES_HINT if self.geocoder is not None else None,
            language=options.language,
        )
        self.follow_up = self.core.follow_up
        self.jobs = Scheduler(sleep=options.sleep)  # started in a live demo only
        self.jobs.add(self.relay)
        self.jobs.add(self.follow_up)

    async def aclose(self) -> None:
        await self.jobs.stop()
        await self.core.aclose()
        if self.geocoder is not None:
            await self.geocoder.aclose()
        await self.store.close()


class DemoStack:
    """The sandbox and the bot, wired together; use ``async with DemoStack(options) as demo``.

    ``type_line`` is what the customer (or the demo commands, lines starting with ``:``)
    types; every line is answered on ``screen``. It is also a ``TranscriptDriver``.
    """

    def __init__(self, options: DemoOptions) -> None:
        self.options = options
        self.customer_chat = CUSTOMER_CHAT
        self.screen = Screen(options.echo)
        self.switch = AppSwitch()
        self.sandbox = Sandbox(
            options.scenario,
            clock=options.clock,
            sleep=options.sleep,
            webhook_transport=httpx.ASGITransport(app=self.switch),
            image_transport=httpx.ASGITransport(app=self.switch),
            resolver=loopback_resolver,
        )
        hooks = options.scenario.webhooks
        self.webhook_path = urlsplit(hooks[0].url).path if hooks else DEFAULT_WEBHOOK_PATH
        self.db_path = options.data_dir / "bot.sqlite3"
        self.stale_left = 1 if options.stale else 0
        self.quit = False
        self._bot: _Bot | None = None
        self._known_deliveries: set[str] = set()
        # The delivery created last in this run: orders placed in the same second (a fake
        # clock, a quick repeat) tie in the store's newest-first order.
        self._latest_delivery: str | None = None

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the sandbox and the bot, and open the customer's chat."""
        if self.options.live:
            await self.sandbox.start()
        await self._start_bot()

    async def restart(self) -> None:
        """Stop the bot side and start it again over the same SQLite file."""
        await self._stop_bot()
        self.screen.write(said("the bot restarted; the sandbox kept running", DEMO))
        await self._start_bot()

    async def aclose(self) -> None:
        await self._stop_bot()
        await self.sandbox.aclose()

    async def __aenter__(self) -> DemoStack:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _start_bot(self) -> None:
        store = await Store.connect(self.db_path, clock=self.options.clock, synchronous="NORMAL")
        bot = _Bot(self, store)
        self._bot = bot
        self.switch.app = bot.web_app
        if self.options.live:
            bot.jobs.start()
        await bot.console.open()
        await self._catch_up()

    async def _stop_bot(self) -> None:
        bot, self._bot = self._bot, None
        self.switch.app = None
        if bot is not None:
            if bot.stale is not None:
                self.stale_left = bot.stale.left
            await bot.aclose()

    @property
    def bot(self) -> _Bot:
        if self._bot is None:
            raise RuntimeError("the bot is not running")
        return self._bot

    # --- typing -------------------------------------------------------------------------------

    async def type_line(self, line: str) -> list[str]:
        """Type ``line`` (a customer answer, or a ``:command``); the screen lines it produced."""
        if line.strip().startswith(":"):
            await run_command(self, line.strip())
        else:
            await self.bot.console.send(line)
        await self._catch_up()
        return self.screen.take()

    async def deliver_later(self, chat_id: int, turn: Turn) -> None:
        await self.bot.console.deliver_later(chat_id, turn)

    async def _catch_up(self) -> None:
        """Let what the line set off finish: re-sent creates and the follow-ups of lost create
        answers that are due (when not live), the sandbox's webhooks, and the relay's messages
        about them."""
        if self._bot is None:
            return
        if not self.options.live:
            await self.bot.chats.settle()
            await self.bot.follow_up.process_due()
        await self.sandbox.drain_webhooks()
        await self.bot.relay.process_pending()
        await self._announce_new_deliveries()

    async def _announce_new_deliveries(self) -> None:
        links = await self.bot.store.deliveries.for_user(self.customer_chat, 5)
        for link in reversed(links):
            if link.delivery_id in self._known_deliveries:
                continue
            self._known_deliveries.add(link.delivery_id)
            self._latest_delivery = link.delivery_id
            self.screen.write(said(await self._moves(link.delivery_id, link.status), DEMO))

    async def _moves(self, delivery_id: str, status: str) -> str:
        """How to play the business around a new delivery (a rider to assign when none was)."""
        if status in ("pending", "awaiting_price"):
            with contextlib.suppress(PartnerError):  # a fault armed for the demo: say less
                delivery = await self.bot.client.get_delivery(delivery_id)
                return f"{await next_moves(self.bot.client, delivery)} (:help lists everything)"
        return (
            f"delivery {short_ref(delivery_id)} is {status_label(status)}. Play the business "
            "with :paid, :advance, :status (:help lists everything)."
        )

    async def delivery_id_for(self, typed: str) -> str:
        """The customer's delivery whose id starts with ``typed`` (a short reference), else
        ``typed`` as it is (an id of a delivery ordered elsewhere)."""
        wanted = typed.strip().casefold()
        links = await self.bot.store.deliveries.for_user(self.customer_chat, 100)
        found = [link.delivery_id for link in links if link.delivery_id.startswith(wanted)]
        return found[0] if len(found) == 1 else typed

    # --- what transcripts check ---------------------------------------------------------------

    async def last_delivery_id(self) -> str | None:
        if self._latest_delivery is not None:
            return self._latest_delivery
        links = await self.bot.store.deliveries.for_user(self.customer_chat, 1)
        return links[0].delivery_id if links else None

    def option_labels(self) -> list[str]:
        prompt = self.bot.console.prompt
        return [option.label for option in prompt.options] if prompt else []

    async def position(self) -> str | None:
        session = await self.bot.chats.session(self.customer_chat)
        if session is not None and session.step is not None:
            return session.step
        return self.bot.console.status

    async def fact(self, path: str) -> str:
        return await read_fact(self, path)
