"""``deliverybot run``'s parts: the core (``bot.bot_core``) speaking through Telegram.

::

    PTB Application ─> TelegramSender (the core's channel) ─┐
    build_core(settings from the config) ───────────────────┴─> BotContext ─> handlers
    the core's web app + /telegram in webhook mode

Nothing here talks to Telegram or the Partner API yet; ``Runtime.start`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.routing import BaseRoute

from bot.bot_core import BotCore, CoreSettings, build_core, core_seams_from_config
from bot.config import Config
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
from conversations import Turn


@dataclass(frozen=True)
class Parts:
    """What ``wire`` builds over an open store."""

    core: BotCore
    ctx: BotContext
    application: BotApplication
    conversation: Conversation


def wire(config: Config, seams: Seams, store: Store) -> Parts:
    """Build every part over ``store``; the seams replace what tests must not reach."""
    telegram = config.telegram
    processor = seams.processor or ChatOrderedProcessor(locks=store.chat_locks)
    application = build_application(
        telegram,
        request=seams.telegram_request,
        get_updates_request=seams.telegram_updates_request,
        processor=processor,
    )
    sender = TelegramSender(application.bot, store, limiter=seams.limiter)
    conversation: Conversation | None = None

    async def deliver_later(chat_id: int, turn: Turn) -> None:
        assert conversation is not None  # set below, before any update is taken
        await conversation.deliver_later(chat_id, turn)

    routes: list[BaseRoute] = []
    if telegram.mode == "webhook" and telegram.secret_token is not None:
        routes.append(telegram_route(application, telegram.secret_token.get_secret_value()))
    core = build_core(
        CoreSettings.from_config(config),
        store,
        sender,
        TELEGRAM_WORDS,
        seams=core_seams_from_config(
            config,
            partner_transport=seams.partner_transport,
            geocoder_transport=seams.geocoder_transport,
            clock=seams.clock,
            new_idempotency_key=seams.new_idempotency_key,
        ),
        deliver_later=deliver_later,
        web_routes=routes,
    )
    photos = PhotoReceiver(
        application.bot,
        store,
        public_base_url=telegram.public_base_url,
        ttl_seconds=config.storage.media_ttl_hours * 3600,
    )
    ctx = BotContext(
        store=store,
        chats=core.chats,
        client=core.client,
        cache=core.cache,
        sender=sender,
        photos=photos,
        operators=frozenset(config.operators.chat_ids),
        phone_region=telegram.default_phone_region,
        desk=core.desk,
    )
    conversation = Conversation(
        ctx,
        chat_turn=processor.hold,
        clock=seams.monotonic,
        sleep=seams.sleep,
        session_idle_seconds=config.storage.session_idle_seconds,
    )
    # One group: the first handler that matches answers. Feature commands and their buttons
    # come before the conversation, whose message handler takes everything else.
    handlers = [*delivery_handlers(ctx), *operator_handlers(ctx), *conversation.handlers()]
    install_handlers(application, ctx, handlers)
    return Parts(core, ctx, application, conversation)
