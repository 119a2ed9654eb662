"""Every part of the bot built from one ``Config``: ``wire(config, seams, store)``.

::

    PartnerClient ─> CapabilityCache ─> engine ─> ChatService ─┐
    PartnerClient ─> CustomerDesk ─────────────────────────────┤
    PTB Application ─> TelegramSender ─> PhotoReceiver ────────┴─> BotContext ─> handlers
    Relay (+ StatusPoller when partner webhooks are off) ─> web app (/hooks/partner, /media,
                                                            /telegram in webhook mode)

Nothing here talks to Telegram or the Partner API yet; ``Runtime.start`` does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.routing import BaseRoute

from bot.config import Config
from bot.ordering import ChatService, CustomerDesk, build_engine, geocoder_from_config
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.relay import ChatUnreachable, Relay, SendFailed, StatusPoller
from bot.runtime.seams import Seams
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
from bot.telegram.message_sender import TelegramSender
from bot.telegram.operators import operator_handlers
from bot.telegram.photo_receiver import PhotoReceiver
from bot.telegram.webhook_route import telegram_route
from bot.web import create_web_app
from conversations import Geocoder, Turn

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Parts:
    """What ``wire`` builds over an open store."""

    client: PartnerClient
    ctx: BotContext
    application: BotApplication
    conversation: Conversation
    relay: Relay
    poller: StatusPoller | None
    web_app: Starlette
    geocoder: Geocoder | None


def wire(config: Config, seams: Seams, store: Store) -> Parts:
    """Build every part over ``store``; the seams replace what tests must not reach."""
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
        desk=CustomerDesk(
            store,
            client,
            TELEGRAM_WORDS,
            phone_region=telegram.default_phone_region,
            chats=chats,
        ),
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
    poller = None
    if not config.webhooks.enabled:
        interval = config.relay.polling_interval_seconds
        poller = StatusPoller(store, client, interval_seconds=interval, on_event=relay.wake)
    web_app = _web_app(config, seams, store, application, relay)
    return Parts(client, ctx, application, conversation, relay, poller, web_app, geocoder)


def _web_app(
    config: Config, seams: Seams, store: Store, application: BotApplication, relay: Relay
) -> Starlette:
    telegram, webhooks = config.telegram, config.webhooks
    routes: list[BaseRoute] = []
    if telegram.mode == "webhook" and telegram.secret_token is not None:
        routes.append(telegram_route(application, telegram.secret_token.get_secret_value()))
    return create_web_app(
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


async def send_to_operators(sender: TelegramSender, operators: Iterable[int], text: str) -> None:
    """``text`` to every operator chat; one that cannot be reached does not stop the others."""
    for chat_id in sorted(operators):
        try:
            await sender.send(chat_id, text)
        except (ChatUnreachable, SendFailed) as error:
            log.warning("operator chat %s not told (%s)", chat_id, type(error).__name__)
