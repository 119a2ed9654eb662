"""The bot without its channels: ``build_core(settings, store, seams)``, then each channel's
``register``.

::

    PartnerClient ─> CapabilityCache ─> engine ─> ChatService ─┐
    PartnerClient ─> CustomerDesk (in each channel's words) ───┤─> the channels draw them
    Relay (+ StatusPoller when partner webhooks are off) ─> Channels ─> the chat's channel
    RiderTracker ([tracking]: GET /riders per interval) ─> Channels ─> the chat's RiderMap
    CreateFollowUp (creates whose answer was lost, woken by ChatService) ─> Channels
      (these are jobs of bot.jobs: built here, run on the runtime's one scheduler)
    web app: /hooks/partner (inbox, wakes the relay), /media, /console (the staff's web
      console, when ``[console] enabled``), each channel's routes

Every way the bot runs builds these parts here and only here: ``deliverybot run`` and
``deliverybot mcp`` (``bot.runtime``, with Telegram and the agent channels as the config
says), the terminal demo (the console channel), the benchmarks and the test fixtures. A
service a flow needs is added to ``build_core`` once. What differs between those callers is
only the ``CoreSettings`` (from the config, or from the demo's sandbox), the ``Seams``
(transports, clocks, keys) and the channels they register (``bot.channels``), never the wiring.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.applications import Starlette

from bot.channels import ChannelRegistration, Channels
from bot.chat_ref import ChatRef
from bot.geo.nominatim import NominatimGeocoder
from bot.handoff.desk import HandoffDesk
from bot.handoff.handoff_upkeep import HandoffUpkeep
from bot.jobs import Job
from bot.metrics.build_info import running_version
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.metrics.prometheus_metrics import business_metrics
from bot.ordering import ChatService, CustomerDesk, build_engine, geocoder_from_config
from bot.ordering.create_wait import CreateWaitNotice
from bot.ordering.photo_origin import RehostedPhotos
from bot.ordering.quote_desk import QuoteDesk
from bot.ordering.unconfirmed_worker import IDLE_LOOK_SECONDS, CreateFollowUp
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.shared_request_limiter import SharedRequestLimiter, key_fingerprint
from bot.relay import ChatUnreachable, Relay, SendFailed, StatusPoller
from bot.relay.channel_protocol import Channel
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.staff_console.console_app import ConsoleApp
from bot.staff_console.console_kit import ConsoleKit, ConsoleServices
from bot.staff_console.console_web_texts import CONSOLE_WEB_TEXTS
from bot.store import Store
from bot.tracking.tracker import RiderTracker
from bot.web import create_web_app
from conversations import Geocoder
from conversations.flow import FlowRegistry
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.desk_texts import ChannelWords

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotCore:
    """Everything ``build_core`` made, and the channels registered on it (a
    ``bot.core_services.CoreServices``);
    ``aclose`` closes what it opened (not the store)."""

    settings: CoreSettings
    seams: Seams
    store: Store
    client: PartnerClient
    cache: CapabilityCache
    geocoder: Geocoder | None
    chats: ChatService
    registry: FlowRegistry
    relay: Relay
    poller: StatusPoller | None
    web_app: Starlette
    follow_up: CreateFollowUp
    channels: Channels
    texts: BusinessTexts
    """The business's catalogues: the ``[texts]`` of its settings and its channels' words."""
    handoffs: HandoffDesk
    """Customers' hand-offs to staff; each channel adds its side when it registers."""
    console: ConsoleApp | None
    """The operators' web console (``[console] enabled``), its routes on ``web_app``."""
    shared: bool = False
    owns_geocoder: bool = False  # built here from ``settings.geocoding``: closed here
    metrics: Metrics = NO_METRICS  # the business's (``settings.metrics``), served at /metrics
    tracker: RiderTracker | None = None
    """The rider on the map (``[tracking] enabled``): a leader-only job (``bot.tracking``)."""

    def desk(self, words: ChannelWords) -> CustomerDesk:
        """The customer desk (status, deliveries, cancel) answering in ``words``."""
        region = self.settings.phone_region
        return CustomerDesk(
            self.store, self.client, words, phone_region=region, chats=self.chats, texts=self.texts
        )

    def quotes(self, words: ChannelWords) -> QuoteDesk:
        """Answers to the quote question (keep or cancel), the operators told each choice."""
        operators = self.settings.operators

        async def tell_operators(text: str) -> None:
            await send_to_operators(self.channels, operators, text)

        return QuoteDesk(self.desk(words), tell_operators if operators else None)

    def register(self, registration: ChannelRegistration) -> None:
        """Add a channel: the chats it owns, its routes on the web app, its jobs, what runs
        with the bot and its own words, beside the core's in the business's catalogue
        (``bot.channels``); its kind's lock tag is declared to the store, which refuses a tag
        another channel has. Before the bot starts."""
        self.store.declare_channel(registration.kind)
        self.channels.add(registration)
        self.web_app.router.routes.extend(registration.routes)
        if registration.texts:
            self.texts.add_channels(*registration.texts)

    def jobs(self) -> list[Job]:
        """The background jobs (``bot.jobs``): the core's own (the relay, the follow-up of
        lost creates, the status poller when partner webhooks are off, the rider tracker when
        ``[tracking]`` is on, the hand-offs once a channel shows them to staff) and every
        channel's."""
        jobs: list[Job] = [self.relay, self.follow_up]
        if self.poller is not None:
            jobs.append(self.poller)
        if self.tracker is not None:
            jobs.append(self.tracker)
        if self.handoffs.staff is not None:  # a channel showed hand-offs to staff
            jobs.append(HandoffUpkeep(self.handoffs))
        for registration in self.channels:
            jobs.extend(registration.jobs)
        return jobs

    async def aclose(self) -> None:
        """Close the channels (the last registered first), stop the chat service's background
        work, close the Partner API client and the geocoder the config described."""
        for registration in reversed(list(self.channels)):
            if registration.aclose is not None:
                await registration.aclose()
        await self.chats.aclose()
        await self.client.aclose()
        if self.owns_geocoder and isinstance(self.geocoder, NominatimGeocoder):
            await self.geocoder.aclose()


def build_core(settings: CoreSettings, store: Store, seams: Seams | None = None) -> BotCore:
    """Every channel-independent part over ``store``; channels ``register`` on it next.

    ``settings.texts`` (the ``[texts]`` locale and overrides) is the business's ``texts``
    (``BusinessTexts``): every sentence, in a turn or outside one (the relay, alerts), is said
    from it, and each channel's own words join it as the channel registers. Operator
    alerts go to ``settings.operators`` through the channels. The business's metrics (recorded
    with ``settings.metrics``, else nothing) are built here and passed to every part that
    records; the same store wired again counts in the newest core's.
    """
    seams = seams or Seams()
    texts = BusinessTexts(settings.texts, seams.shared_texts)
    # The console's health page shows this instance's counts, so they are recorded while it is
    # on even without ``[metrics]`` (which only decides whether ``/metrics`` serves them).
    recorded = settings.metrics or settings.console.enabled
    metrics = (
        seams.metrics
        if seams.metrics is not None
        else business_metrics(recorded, running_version())
    )
    store.audit.observe(metrics.count_audit_event)  # the store counts nothing itself
    channels = Channels()
    client = PartnerClient(
        settings.partner_base_url,
        settings.partner_api_key,
        options=settings.client_options,
        transport=seams.partner_transport,
        limiter=_shared_limiter(settings, store, seams, metrics),
        clock=seams.clock,
        sleep=seams.sleep,
        metrics=metrics,
    )
    cache = CapabilityCache.for_client(client, clock=seams.clock)
    geocoder = seams.geocoder
    if geocoder is None:
        geocoder = geocoder_from_config(settings.geocoding, transport=seams.geocoder_transport)
    engine = build_engine(
        client,
        cache,
        geocoder=geocoder,
        phone_region=settings.phone_region,
        registry=seams.registry,
        new_idempotency_key=seams.new_idempotency_key,
        store=store,
        public_base_url=settings.public_base_url,
        online_payment=settings.online_payment,
        codes_by_link=settings.otp_via_webhook,
        metrics=metrics,
    )

    async def alert_operators(text: str) -> None:
        await send_to_operators(channels, settings.operators, text)

    # On a shared store the leader-only jobs run in one process for all (``bot.jobs``); the
    # other processes (more bots, MCP servers) keep work that cannot wake them, so those jobs
    # also look every so often.
    shared = store.shared
    follow_up = CreateFollowUp(
        store,
        client,
        channels,
        alert_operators=alert_operators if settings.operators else None,
        clock=seams.clock,
        sleep=seams.sleep,
        rehosted=RehostedPhotos(settings.public_base_url),
        look_seconds=IDLE_LOOK_SECONDS if shared or settings.agents else None,
        metrics=metrics,
        texts=texts,
    )
    chats = ChatService(
        engine,
        store,
        alert_operators=alert_operators if settings.operators else None,
        clock=seams.clock,
        deliver_later=channels.deliver_later,
        sleep=seams.sleep,
        on_unconfirmed=follow_up.wake,
        create_wait=CreateWaitNotice(client.limiter, channels),
        limits=settings.limits,
        metrics=metrics,
        channel_capabilities=channels.capabilities,
        texts=texts,
    )
    tracker = None
    if settings.tracking.enabled:
        tracker = RiderTracker(
            store,
            client,
            channels,
            settings=settings.tracking,
            texts=texts,
            clock=seams.clock,
            metrics=metrics,
        )
    relay = Relay(
        store,
        channels,
        operators=settings.operators,
        settings=settings.relay,
        clock=seams.clock,
        sleep=seams.sleep,
        phone_region=settings.phone_region,
        turns=channels,
        metrics=metrics,
        texts=texts,
        capabilities=channels.capabilities,
        on_view_changed=None if tracker is None else tracker.wake,
    )
    poller = None
    if not settings.signing_secrets:
        poller = StatusPoller(
            store,
            client,
            interval_seconds=settings.polling_interval_seconds,
            on_event=relay.wake,
            clock=seams.clock,
            texts=texts,
        )
    web_app = create_web_app(
        store=store,
        signing_secrets=settings.signing_secrets,
        webhook_path=settings.webhook_path,
        max_body_bytes=settings.max_body_bytes,
        on_event=relay.wake,
        clock=seams.clock,
        metrics=metrics,
    )
    handoffs = HandoffDesk(store, chats, settings.handoff, texts=texts)
    console = _console(settings, store, texts, channels, client, chats, handoffs, metrics)
    if console is not None:
        texts.add_channels(CONSOLE_WEB_TEXTS)  # its words, overridable by ``[texts]``
        web_app.router.routes.extend(console.routes())
    return BotCore(
        settings,
        seams,
        store,
        client,
        cache,
        geocoder,
        chats,
        engine.registry,
        relay,
        poller,
        web_app,
        follow_up,
        channels,
        texts,
        handoffs,
        console,
        shared=shared,
        owns_geocoder=seams.geocoder is None,
        metrics=metrics,
        tracker=tracker,
    )


async def send_to_operators(channel: Channel, operators: Iterable[ChatRef], text: str) -> None:
    """``text`` to every operator chat; one that cannot be reached does not stop the others."""
    for chat in sorted(operators):
        try:
            await channel.send(chat, text)
        except (ChatUnreachable, SendFailed) as error:
            log.warning("operator chat %s not told (%s)", chat.for_log, type(error).__name__)


def _console(
    settings: CoreSettings,
    store: Store,
    texts: BusinessTexts,
    channels: Channels,
    client: PartnerClient,
    chats: ChatService,
    handoffs: HandoffDesk,
    metrics: Metrics,
) -> ConsoleApp | None:
    """The web console when ``[console] enabled`` (which needs ``public_base_url``)."""
    door = StaffDoor.from_settings(
        store, settings.console, settings.public_base_url, clock=store.clock
    )
    if door is None or settings.public_base_url is None:
        return None
    services = ConsoleServices(
        client=client,
        chats=chats,
        handoffs=handoffs,
        metrics=metrics,
        channel_names=lambda: [registration.name for registration in channels],
        phone_region=settings.phone_region,
        public_base_url=settings.public_base_url,
        map_tiles=settings.map_tiles,
    )
    kit = ConsoleKit(door, store, texts, services, clock=store.clock)
    return ConsoleApp(kit, clock=store.clock)


def _shared_limiter(
    settings: CoreSettings, store: Store, seams: Seams, metrics: Metrics
) -> SharedRequestLimiter:
    """The client's limiter, whose starts also count against the store's budget for the key
    (every start granted at once where the store is this process's alone); its own waits are
    counted in ``metrics``."""
    return SharedRequestLimiter(
        store.rate_budget,
        key_fingerprint(settings.partner_api_key),
        clock=seams.clock,
        sleep=seams.sleep,
        metrics=metrics,
    )
