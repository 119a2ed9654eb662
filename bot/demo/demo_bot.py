"""One run of the demo's bot process (``DemoBot``) and what a demo run is made of
(``DemoOptions``): the core over the sandbox, its customer at the console (the messenger), or
on WhatsApp (``channel="whatsapp"``: the bot's WhatsApp channel on the simulated Cloud API,
the messenger then, with the console printing the operators' chat).

``DemoStack`` makes a ``DemoBot`` at each start and restart; the demo's commands and facts
reach it through ``bot.demo.demo_world.DemoWorld``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

import httpx

from bot.bot_core import build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import CONSOLE, ChatRef
from bot.clocks import Clock, Sleep
from bot.config import RelayConfig, TrackingConfig
from bot.console.console_channel import ConsoleChannel
from bot.console.console_chat import CONSOLE_WORDS, ConsoleChat
from bot.console.console_handoff import ConsoleCustomers, ConsoleStaff
from bot.console.console_kind import CONSOLE_KIND
from bot.console.console_rider_map import ConsoleRiderMap
from bot.console.console_screen import Screen
from bot.console.console_texts import CONSOLE_TEXTS
from bot.demo.demo_customer import ConsoleCustomer, DemoCustomer
from bot.demo.demo_errors import DemoError
from bot.demo.gazetteer import offline_geocoder
from bot.demo.transports import StaleCapabilities
from bot.demo.waiting import ShownWait
from bot.geo.nominatim import NominatimGeocoder
from bot.jobs import Scheduler
from bot.partner.options import ClientOptions
from bot.sandbox import Sandbox, Scenario
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from conversations.flow import FlowRegistry
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue, Texts
from conversations.texts.said import said

if TYPE_CHECKING:
    from bot.demo.whatsapp_phone import WhatsAppPhone

CUSTOMER_CHAT = 1001  # the customer's chat and user id
OPERATOR_CHAT = 9001  # the business's operator chat
DemoChannel = Literal["console", "whatsapp"]  # where the demo's customer orders
PUBLIC_BASE_URL = "https://localhost"  # where the bot's web app serves photos to the sandbox
# Where the demo's offline geocoder's few addresses are listed, in the customer's language.
PLACES_HINT = said("console.places_hint")


@dataclass(frozen=True)
class DemoOptions:
    """What a demo run is made of. ``live`` starts the background work (the sandbox's
    webhook sender, the relay's and the follow-up's jobs) for an interactive terminal; without
    it everything moves only when a line is typed, which makes replays deterministic."""

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
    channel: DemoChannel = CONSOLE  # where the customer orders


class DemoBot:
    """One run of the bot process: everything that a restart replaces.

    ``stale_left`` capabilities answers are still to come out of date (``options.stale``);
    ``webhook_path`` is where the sandbox posts its events; ``phone`` is the simulated Cloud
    API and the customer's phone on it, for a WhatsApp demo.
    """

    def __init__(
        self,
        options: DemoOptions,
        sandbox: Sandbox,
        screen: Screen,
        store: Store,
        *,
        stale_left: int,
        webhook_path: str,
        phone: WhatsAppPhone | None = None,
    ) -> None:
        self.store = store
        transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=sandbox.app)
        if stale_left:
            transport = StaleCapabilities(transport, options.stale, times=stale_left)
        self.stale = transport if isinstance(transport, StaleCapabilities) else None
        self.geocoder: NominatimGeocoder | None = offline_geocoder() if options.geocoder else None
        self.channel = ConsoleChannel(screen, {CUSTOMER_CHAT: "bot", OPERATOR_CHAT: "ops"})
        # The bot's waits, said out loud while ``:wait`` waits on them.
        self.waits = ShownWait(options.sleep, screen)
        self.core = build_core(
            CoreSettings(
                partner_base_url=sandbox.base_url,
                partner_api_key=sandbox.api_key,
                client_options=options.client_options,
                phone_region=options.phone_region,
                operators=(ChatRef(CONSOLE, OPERATOR_CHAT),),
                signing_secrets=tuple(hook.secret for hook in sandbox.scenario.webhooks),
                webhook_path=webhook_path,
                texts=options.texts,
                public_base_url=PUBLIC_BASE_URL,
                # The demo's dashboard is the sandbox's scenario: the bot is set as it is, for
                # the summaries (codes_by_link) and the relay alike (``[relay]
                # otp_via_webhook``, which alerts operators when it disagrees with the service).
                relay=RelayConfig.model_validate(
                    {"otp_via_webhook": sandbox.scenario.organization.otp_via_webhook}
                ),
                # The rider on the map: the sandbox's riders move as ``:advance`` moves their
                # delivery, and the stack runs a pass after each line (``tracker``). They report
                # a fix only when they move, not every few seconds as a rider app does, so a
                # fix stands as long as the API calls it fresh (30 minutes).
                tracking=TrackingConfig(enabled=True, max_fix_age_seconds=1800),
            ),
            store,
            Seams(
                partner_transport=transport,
                geocoder=self.geocoder,
                clock=options.clock,
                sleep=self.waits.sleep,
                # WhatsApp's pacing on the demo's clock, which a replay's fake clock moves.
                monotonic=options.clock if phone is not None else time.monotonic,
                registry=options.registry,
                new_idempotency_key=options.new_idempotency_key,
            ),
        )
        self.client, self.relay, self.web_app = self.core.client, self.core.relay, self.core.web_app
        self.chats, self.desk = self.core.chats, self.core.desk(CONSOLE_WORDS)
        # Talking to a person: the demo's staff are the ``:staff`` commands (demo_commands).
        self.handoffs = self.core.handoffs
        self.handoffs.use_staff(ConsoleStaff(screen, ChatRef(CONSOLE, OPERATOR_CHAT)))
        self._console: ConsoleChat | None = None
        self.customer: DemoCustomer
        # The rider on the map, shown to the console's customer (a WhatsApp demo's customer is
        # shown it by the WhatsApp channel).
        rider_map: ConsoleRiderMap | None = None
        if phone is None:
            self._console = console = ConsoleChat(
                self.chats,
                self.desk,
                screen,
                texts=self.core.texts,
                chat_id=CUSTOMER_CHAT,
                user_id=CUSTOMER_CHAT,
                public_base_url=PUBLIC_BASE_URL,
                base_dir=options.photo_dir,
                first_flow=options.first_flow,
                typed_places=PLACES_HINT if self.geocoder is not None else None,
                language=options.language,
                handoffs=self.core.handoffs,
                quotes=self.core.quotes(CONSOLE_WORDS),
            )
            self.handoffs.serve(CONSOLE, ConsoleCustomers(screen, console.show))
            self.customer = ConsoleCustomer(console, self.channel)
            rider_map = ConsoleRiderMap(screen, {CUSTOMER_CHAT: "bot"}, console.catalogue)
        else:
            # Imported here: only a WhatsApp demo loads the WhatsApp channel (and pywa).
            from bot.demo.whatsapp_customer import WhatsAppCustomer

            # Registered first, WhatsApp is the messenger: its wa.me links claim the codes.
            self.customer = WhatsAppCustomer.register(
                self.core,
                phone,
                screen,
                phone_region=options.phone_region,
                base_dir=options.photo_dir,
                live=options.live,
            )
        # The console prints the operators' chat either way, and is the customer's in a
        # console demo.
        self.core.register(
            ChannelRegistration(
                CONSOLE_KIND,
                self.channel,
                messenger=phone is None,
                deliver_later=None if self._console is None else self._console.deliver_later,
                texts=(CONSOLE_TEXTS,),
                rider_map=rider_map,
            )
        )
        self.follow_up = self.core.follow_up
        self.tracker = self.core.tracker
        self.jobs = Scheduler.for_store(store, sleep=options.sleep)  # live demo only
        self.jobs.add(self.relay)
        self.jobs.add(self.follow_up)
        if self.tracker is not None:
            self.jobs.add(self.tracker)

    @property
    def console(self) -> ConsoleChat:
        """The customer's console chat (a console demo's; ``DemoError`` on WhatsApp)."""
        if self._console is None:
            raise DemoError("the customer is on WhatsApp: there is no console chat")
        return self._console

    @property
    def catalogue(self) -> Catalogue:
        """What the demo's own lines (``demo:``) say statuses, amounts and waits in: the
        business's default language, as its staff read them (the console speaks the typist's)."""
        return self.core.texts.business_catalogue()

    async def aclose(self) -> None:
        await self.jobs.stop()
        await self.core.aclose()
        await self.customer.aclose()
        if self.geocoder is not None:
            await self.geocoder.aclose()
        await self.store.close()
