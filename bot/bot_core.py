"""The bot without its channel: ``build_core(settings, store, channel, words, seams)``.

::

    PartnerClient ─> CapabilityCache ─> engine ─> ChatService ─┐
    PartnerClient ─> CustomerDesk ─────────────────────────────┤─> the channel draws them
    Relay (+ StatusPoller when partner webhooks are off) ─> channel.send
    CreateFollowUp (creates whose answer was lost, woken by ChatService) ─> channel.send
      (these are jobs of bot.jobs: built here, run by a scheduler, bot.runtime.workers)
    web app: /hooks/partner (inbox, wakes the relay), /media, the channel's own routes
    AgentParts (when [agents] lists channels): /api, agent events to the store and webhooks

Every way the bot runs builds these parts here and only here: ``deliverybot run`` (with the
Telegram channel, ``bot.runtime.wiring``), the terminal demo (the console channel), the
benchmarks and the test fixtures. A service a flow needs is added to ``build_core`` once.
What differs between those callers is only the ``CoreSettings`` (from the config, or from the
demo's sandbox) and the ``CoreSeams`` (transports, clocks, keys), never the wiring.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import httpx
from starlette.applications import Starlette
from starlette.routing import BaseRoute

from bot.agents.agents_wiring import AgentParts, AgentsSettings
from bot.agents.event_webhooks import OTHER_INSTANCES_LOOK_SECONDS
from bot.clocks import Clock, Sleep
from bot.config import Config
from bot.config.relay_section import RelayConfig
from bot.ordering import ChatService, CustomerDesk, build_engine, geocoder_from_config
from bot.ordering.chats import DeliverLater
from bot.ordering.create_wait import CreateWaitNotice
from bot.ordering.photo_origin import RehostedPhotos
from bot.ordering.unconfirmed_worker import (
    FIRST_FOLLOW_UP_SECONDS,
    AlertOperators,
    CreateFollowUp,
)
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.options import ClientOptions
from bot.partner.shared_request_limiter import SharedRequestLimiter, key_fingerprint
from bot.relay import ChatUnreachable, Relay, SendFailed, StatusPoller
from bot.relay.channel_protocol import Channel
from bot.store import Store
from bot.store.database import Synchronous
from bot.web import create_web_app
from bot.web.web_app import DEFAULT_MAX_BODY_BYTES, DEFAULT_WEBHOOK_PATH
from conversations import Geocoder
from conversations.flow import FlowRegistry
from conversations.texts.catalogue import DEFAULT_TEXTS, Texts, install
from conversations.texts.desk_texts import ChannelWords

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CoreSettings:
    """What the channel-independent parts need to know; ``from_config`` reads it from the TOML.

    ``signing_secrets`` empty means partner webhooks are off: a ``StatusPoller`` asks for the
    news every ``polling_interval_seconds`` instead. ``public_base_url`` is the bot's own https
    host (``[telegram] public_base_url``), where it re-hosts package photos: the service
    refusing that host is the operators' to fix, any other photo host the customer's.
    """

    partner_base_url: str
    partner_api_key: str
    client_options: ClientOptions = field(default_factory=ClientOptions)
    phone_region: str = "NG"
    operators: tuple[int, ...] = ()
    signing_secrets: tuple[str, ...] = ()
    webhook_path: str = DEFAULT_WEBHOOK_PATH
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    relay: RelayConfig | None = None
    polling_interval_seconds: float = 60.0
    agents: AgentsSettings | None = None
    texts: Texts = DEFAULT_TEXTS
    public_base_url: str | None = None

    @classmethod
    def from_config(cls, config: Config) -> CoreSettings:
        """The settings a ``deliverybot run`` takes from its config file."""
        webhooks = config.webhooks
        secrets = webhooks.signing_secrets() if webhooks.enabled else []
        return cls(
            partner_base_url=config.partner.base_url,
            partner_api_key=config.partner.api_key.get_secret_value(),
            client_options=config.partner.client_options(),
            phone_region=config.telegram.default_phone_region,
            operators=tuple(sorted(set(config.operators.chat_ids))),
            signing_secrets=tuple(secret.get_secret_value() for secret in secrets),
            webhook_path=webhooks.path,
            max_body_bytes=webhooks.max_body_bytes,
            relay=config.relay,
            polling_interval_seconds=config.relay.polling_interval_seconds,
            agents=AgentsSettings.from_config(config),
            texts=config.texts.texts(),
            public_base_url=config.telegram.public_base_url,
        )


@dataclass(frozen=True)
class CoreSeams:
    """What a test, a benchmark or the demo replaces; ``deliverybot run`` uses the defaults.

    ``geocoder`` replaces the one the config describes (the demo's offline gazetteer);
    ``registry`` the shipped flows; ``new_idempotency_key`` the engine's key maker.
    """

    partner_transport: httpx.AsyncBaseTransport | None = None
    geocoder: Geocoder | None = None
    clock: Clock = time.time
    sleep: Sleep = asyncio.sleep
    registry: FlowRegistry | None = None
    new_idempotency_key: Callable[[], str] | None = None
    agent_webhook_transport: httpx.AsyncBaseTransport | None = None


@dataclass(frozen=True)
class BotCore:
    """Everything ``build_core`` made; ``aclose`` closes what it opened (not the store)."""

    client: PartnerClient
    cache: CapabilityCache
    geocoder: Geocoder | None
    chats: ChatService
    desk: CustomerDesk
    relay: Relay
    poller: StatusPoller | None
    web_app: Starlette
    follow_up: CreateFollowUp
    agents: AgentParts | None = None

    async def aclose(self) -> None:
        """Stop the chat service's background work and close the Partner API client."""
        await self.chats.aclose()
        await self.client.aclose()
        if self.agents is not None:
            await self.agents.aclose()


def build_core(
    settings: CoreSettings,
    store: Store,
    channel: Channel,
    words: ChannelWords,
    *,
    seams: CoreSeams | None = None,
    deliver_later: DeliverLater | None = None,
    web_routes: Sequence[BaseRoute] = (),
    alert_operators: AlertOperators | None = None,
) -> BotCore:
    """Every channel-independent part over ``store``, speaking through ``channel``.

    ``words`` names the channel's commands in the customer desk's answers; ``deliver_later``
    shows a turn that happens without a customer message (the create re-sent after a rate
    limit); ``web_routes`` are the channel's own routes on the web app (Telegram's webhook);
    ``alert_operators`` replaces sending operator alerts to the operator chats (a bot without
    Telegram logs them). ``settings.texts`` (the ``[texts]`` locale and overrides) is installed
    for the process: every sentence, in a turn or outside one (the relay, alerts), is said
    from it.
    """
    seams = seams or CoreSeams()
    agents = None
    if settings.agents is not None:
        # Agent conversations' events and later turns go to the JSON API, not to the channel.
        agents = AgentParts(settings.agents, store, channel, deliver_later)
        channel, deliver_later = agents.channel, agents.deliver_later
    install(settings.texts)
    client = PartnerClient(
        settings.partner_base_url,
        settings.partner_api_key,
        options=settings.client_options,
        transport=seams.partner_transport,
        limiter=_shared_limiter(settings, store, seams),
        clock=seams.clock,
        sleep=seams.sleep,
    )
    cache = CapabilityCache.for_client(client, clock=seams.clock)
    engine = build_engine(
        client,
        cache,
        geocoder=seams.geocoder,
        phone_region=settings.phone_region,
        registry=seams.registry,
        new_idempotency_key=seams.new_idempotency_key,
        store=store,
        public_base_url=settings.public_base_url,
    )

    async def alert_operator_chats(text: str) -> None:
        await send_to_operators(channel, settings.operators, text)

    if alert_operators is None and settings.operators:
        alert_operators = alert_operator_chats
    # With several instances on one database the leader-only jobs run on one for all (the
    # scheduler asks the store's leadership); other processes on the store (instances, MCP
    # servers) keep work that cannot wake it, so those jobs also look every so often.
    shared = store.leadership is not None
    follow_up = CreateFollowUp(
        store,
        client,
        channel,
        alert_operators=alert_operators,
        clock=seams.clock,
        sleep=seams.sleep,
        rehosted=RehostedPhotos(settings.public_base_url),
        look_seconds=FIRST_FOLLOW_UP_SECONDS if shared or settings.agents else None,
    )
    chats = ChatService(
        engine,
        store,
        alert_operators=alert_operators,
        clock=seams.clock,
        deliver_later=deliver_later,
        sleep=seams.sleep,
        on_unconfirmed=follow_up.wake,
        create_wait=CreateWaitNotice(client.limiter, channel),
    )
    desk = CustomerDesk(store, client, words, phone_region=settings.phone_region, chats=chats)
    if agents is not None:
        agents.finish(
            chats,
            client,
            engine.registry,
            phone_region=settings.phone_region,
            webhook_transport=seams.agent_webhook_transport,
            clock=seams.clock,
            look_seconds=OTHER_INSTANCES_LOOK_SECONDS if shared else None,
        )
        web_routes = [*web_routes, *agents.routes]
    relay = Relay(
        store,
        channel,
        operators=settings.operators,
        settings=settings.relay,
        clock=seams.clock,
        sleep=seams.sleep,
        phone_region=settings.phone_region,
    )
    poller = None
    if not settings.signing_secrets:
        poller = StatusPoller(
            store,
            client,
            interval_seconds=settings.polling_interval_seconds,
            on_event=relay.wake,
            clock=seams.clock,
        )
    web_app = create_web_app(
        store=store,
        signing_secrets=settings.signing_secrets,
        webhook_path=settings.webhook_path,
        max_body_bytes=settings.max_body_bytes,
        on_event=relay.wake,
        extra_routes=web_routes,
        clock=seams.clock,
    )
    return BotCore(
        client,
        cache,
        seams.geocoder,
        chats,
        desk,
        relay,
        poller,
        web_app,
        follow_up=follow_up,
        agents=agents,
    )


def core_seams_from_config(
    config: Config,
    *,
    partner_transport: httpx.AsyncBaseTransport | None = None,
    geocoder_transport: httpx.AsyncBaseTransport | None = None,
    clock: Clock = time.time,
    new_idempotency_key: Callable[[], str] | None = None,
) -> CoreSeams:
    """The seams of a ``deliverybot run``: the geocoder the config describes (over
    ``geocoder_transport`` when given) and the transports and clock tests replace."""
    return CoreSeams(
        partner_transport=partner_transport,
        geocoder=geocoder_from_config(config.geocoding, transport=geocoder_transport),
        clock=clock,
        new_idempotency_key=new_idempotency_key,
    )


async def open_store(config: Config, clock: Clock, synchronous: Synchronous = "FULL") -> Store:
    """The store ``[storage]`` names: the shared PostgreSQL database, or the SQLite file (its
    directory made); ``synchronous`` other than FULL (a test's seam) overrides the config's."""
    storage = config.storage
    if storage.backend == "postgres" and storage.postgres is not None:
        return await Store.connect_postgres(
            storage.postgres.dsn.get_secret_value(),
            media_dir=storage.media_dir,
            clock=clock,
            pool_size=storage.postgres.pool_size,
            lease_seconds=storage.postgres.lease_seconds,
        )
    await asyncio.to_thread(storage.path.parent.mkdir, parents=True, exist_ok=True)
    return await Store.connect(
        storage.path,
        media_dir=storage.media_dir,
        clock=clock,
        synchronous=synchronous if synchronous != "FULL" else storage.sqlite_synchronous,
    )


async def send_to_operators(channel: Channel, operators: Iterable[int], text: str) -> None:
    """``text`` to every operator chat; one that cannot be reached does not stop the others."""
    for chat_id in sorted(operators):
        try:
            await channel.send(chat_id, text)
        except (ChatUnreachable, SendFailed) as error:
            log.warning("operator chat %s not told (%s)", chat_id, type(error).__name__)


def _shared_limiter(
    settings: CoreSettings, store: Store, seams: CoreSeams
) -> SharedRequestLimiter | None:
    """With several instances on one database, the key's budget is kept there (None: the
    client's own in-process limiter is the whole budget)."""
    if store.rate_budget is None:
        return None
    return SharedRequestLimiter(
        store.rate_budget,
        key_fingerprint(settings.partner_api_key),
        clock=seams.clock,
        sleep=seams.sleep,
    )
