"""The Telegram channel: PTB's Application, made before the core and closed after it, and its
registration on the core.

::

    TelegramBot (PTB Application) ─> TelegramSender (the channel's sender) ─┐
    the core's services ───────────────────────────────────────────────────┴─> BotContext
    /telegram on the core's web app in webhook mode

``register_telegram`` registers the messenger ``telegram``: its sender (paced by its limiter),
the turns it shows later (``Conversation.deliver_later``), the webhook route, and ``running``:
connecting to Telegram, the command menus and the updates (``bot.runtime.receiving``), then at
the end the updates already taken answered and the albums in their quiet window too.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from starlette.routing import BaseRoute

from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef
from bot.config import TelegramConfig, WebappConfig
from bot.core_services import CoreServices
from bot.runtime.receiving import close_application, start_receiving, stop_receiving
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.store import Store
from bot.telegram.application import (
    BotApplication,
    ChatOrderedProcessor,
    build_application,
    install_handlers,
)
from bot.telegram.bot_context import BotContext
from bot.telegram.conversation import Conversation
from bot.telegram.delivery_commands import TELEGRAM_WORDS, delivery_handlers
from bot.telegram.handoff_sides import TelegramCustomers, TelegramStaff
from bot.telegram.human_request import HumanRequests
from bot.telegram.message_sender import TelegramSender
from bot.telegram.operators import operator_handlers
from bot.telegram.operators.handoff_staff import HandoffStaff
from bot.telegram.photo_receiver import PhotoReceiver
from bot.telegram.privacy_commands import privacy_handlers
from bot.telegram.quote_taps import QuoteTaps
from bot.telegram.relay_channel import TelegramRelayChannel, TelegramTurns
from bot.telegram.staff_topics import StaffTopics
from bot.telegram.stored_updates import InboxHandOff, UpdateInboxSweep
from bot.telegram.telegram_kind import TELEGRAM_KIND
from bot.telegram.telegram_rider_map import TelegramRiderMap
from bot.telegram.telegram_texts import TELEGRAM_TEXTS
from bot.telegram.webhook_route import TELEGRAM_PATH, telegram_route
from bot.webapp.place_question import ChatPlaceQuestions
from bot.webapp.routes import WebappEndpoints
from bot.webapp.webapp_texts import WEBAPP_TEXTS


@dataclass(frozen=True)
class TelegramBot:
    """PTB's Application over ``store`` and the processor taking its updates in chat order.

    Nothing talks to Telegram yet; ``aclose`` releases it (safe when it never started).
    """

    telegram: TelegramConfig
    application: BotApplication
    processor: ChatOrderedProcessor

    @classmethod
    def build(cls, telegram: TelegramConfig, seams: Seams, store: Store) -> TelegramBot:
        processor = seams.processor or ChatOrderedProcessor(locks=store.chat_locks)
        application = build_application(
            telegram,
            request=seams.telegram_request,
            get_updates_request=seams.telegram_updates_request,
            processor=processor,
            inbox=store.telegram_inbox,
        )
        # Updates are stored before they are acknowledged, and handled from there in order.
        processor.inbox = InboxHandOff(store.telegram_inbox, application, store.updates)
        return cls(telegram, application, processor)

    async def aclose(self) -> None:
        await close_application(self.application)


@dataclass(frozen=True)
class TelegramChannel:
    """What ``register_telegram`` made: the handlers' context and the conversation, over PTB's
    ``application``."""

    ctx: BotContext
    conversation: Conversation
    application: BotApplication


def register_telegram(
    core: CoreServices,
    bot: TelegramBot,
    *,
    operators: frozenset[ChatRef],
    session_idle_seconds: float,
    webapp: WebappConfig | None = None,
    webapp_url: str | None = None,
) -> TelegramChannel:
    """Build the Telegram channel over ``core`` and register it as the messenger; its operator
    commands answer in the Telegram chats among ``operators``.

    With ``webapp`` enabled the "Pick on the map" page is served (``bot.webapp``); its button
    is shown at place questions when ``webapp_url`` (``Config.webapp_url()``) says where.
    """
    operator_chats = frozenset(chat.id for chat in operators if chat.channel == TELEGRAM)
    telegram, application, seams = bot.telegram, bot.application, core.seams
    sender = TelegramSender(
        application.bot, core.store, limiter=seams.limiter, metrics=core.metrics
    )
    bot.processor.metrics = core.metrics  # its updates are counted as the business's
    photos = PhotoReceiver(
        application.bot,
        core.store,
        public_base_url=core.settings.public_base_url,
        ttl_seconds=core.settings.media_ttl_seconds,
    )
    ctx = BotContext(
        store=core.store,
        chats=core.chats,
        client=core.client,
        cache=core.cache,
        sender=sender,
        photos=photos,
        operators=operator_chats,
        phone_region=telegram.default_phone_region,
        desk=core.desk(TELEGRAM_WORDS),
        webapp_url=webapp_url,
        staff=StaffDoor.from_settings(
            core.store,
            core.settings.console,
            core.settings.public_base_url,
            clock=core.store.clock,
        ),
    )
    # Talking to a person: only with an operators' chat to post hand-offs in.
    handoffs, staff_chat = core.handoffs, core.settings.handoff.staff_chat
    humans = HumanRequests(handoffs, sender, ctx.texts) if staff_chat is not None else None
    conversation = Conversation(
        ctx,
        chat_turn=bot.processor.hold,
        clock=seams.monotonic,
        sleep=seams.sleep,
        session_idle_seconds=session_idle_seconds,
        humans=humans,
    )
    handoff_handlers = []
    if humans is not None and staff_chat is not None:
        handoffs.serve(TELEGRAM, TelegramCustomers(sender, conversation.deliver_later))
        topics = StaffTopics(application.bot)  # a topic per hand-off in a forum group
        handoffs.use_staff(TelegramStaff(sender, ctx.texts, staff_chat, topics))
        staff = HandoffStaff(handoffs, sender, ctx.texts, operator_chats)
        handoff_handlers = [*humans.handlers(), *staff.handlers()]
    # One group: the first handler that matches answers. Feature commands and their buttons
    # come before the conversation, whose message handler takes everything else.
    quote_taps = QuoteTaps(core.quotes(TELEGRAM_WORDS), sender)
    handlers = [
        *delivery_handlers(ctx),
        *quote_taps.handlers(),
        *operator_handlers(ctx),
        *privacy_handlers(ctx, conversation.screen.forget),
        *handoff_handlers,
        *conversation.handlers(),
    ]
    install_handlers(application, ctx, handlers)

    @contextlib.asynccontextmanager
    async def running() -> AsyncIterator[None]:
        try:  # a start that fails halfway is stopped too: whatever began is undone
            await start_receiving(
                application,
                telegram,
                operator_chats,
                conversation.flow_menu,
                texts=ctx.texts,
                webhook_url=_webhook_url(core.settings),
                announce=core.settings.announce,
            )
            yield
        finally:
            await stop_receiving(application)
            await conversation.close()  # albums still in their quiet window are answered

    routes: list[BaseRoute] = []
    if telegram.mode == "webhook" and telegram.secret_token is not None:
        secret = telegram.secret_token.get_secret_value()
        store = core.store
        routes.append(
            telegram_route(application, secret, inbox=store.telegram_inbox, seen=store.updates)
        )
    if webapp is not None and webapp.enabled and telegram.token is not None:
        endpoints = WebappEndpoints(
            webapp,
            bot_token=telegram.token.get_secret_value(),
            questions=ChatPlaceQuestions(core.chats),
            geocoder=core.chats.engine.services.geocoder,
            clock=core.store.clock,
            texts=ctx.texts,
        )
        routes += endpoints.routes()
    sweep = UpdateInboxSweep(
        core.store.telegram_inbox, application, shared=core.store.shared, clock=core.store.clock
    )
    core.register(
        ChannelRegistration(
            TELEGRAM_KIND,
            TelegramRelayChannel(sender),
            turns=TelegramTurns(sender.limiter),
            deliver_later=conversation.deliver_later,
            routes=routes,
            running=running,
            jobs=(sweep,),
            texts=(TELEGRAM_TEXTS, WEBAPP_TEXTS),
            rider_map=TelegramRiderMap(sender),
        )
    )
    return TelegramChannel(ctx, conversation, application)


def _webhook_url(settings: CoreSettings) -> str | None:
    """Where Telegram posts the updates in webhook mode: the host's ``/telegram`` for a hosted
    business, else ``[server] public_base_url``'s."""
    if settings.telegram_webhook_url is not None:
        return settings.telegram_webhook_url
    base = settings.public_base_url
    return None if base is None else base + TELEGRAM_PATH
