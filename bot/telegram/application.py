"""The PTB ``Application`` of the bot: built from ``[telegram]``, with its handlers installed.

::

    application = build_application(config.telegram)
    install_handlers(application, ctx, handlers)

Updates are processed concurrently across chats and in order within a chat
(``ChatOrderedProcessor``): a customer's second message waits for the answer to their first,
while every other chat goes on. Before any handler runs, the gatekeeper (group -1) drops an
``update_id`` seen before (Telegram repeats updates after a lost webhook answer or around a
restart; the ids live in ``store.updates``, so a repeat across a restart is caught too; the id
is recorded with the turn's session save, or by the recorder in group 1 after the handlers),
refuses an update in a private chat whose sender is not the chat's user (``chat_owner``: one
user per private chat; only a forger sends one) with one warning, and clears the "blocked" mark
of a chat whose user writes again. An update no handler can serve (``malformed``: no integer
``update_id``, or no message or tap from a user in a chat) is dropped there with a warning, in
polling and webhook mode alike. An update whose data breaks the door's check (``update_check``:
wrong types, ids beyond 64 bits) never gets this far: the webhook route drops it, and so does
the polling request (``polled_updates``).

In webhook mode the queue carries ``ReceivedUpdate``s (``received_update``): the processor
parses each one under its chat's lock and hands PTB's Update to the handlers; one PTB cannot
parse is dropped there with one warning.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Final, TypeAlias

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    BaseHandler,
    BaseUpdateProcessor,
    ContextTypes,
    ExtBot,
    TypeHandler,
)
from telegram.request import BaseRequest, HTTPXRequest

from bot.chat_ref import TELEGRAM, ChatRef
from bot.chatlocks import ChatLocks, ChatTurnLocks
from bot.config import TelegramConfig
from bot.metrics.business_metrics import NO_METRICS, Metrics, UpdateMeasure
from bot.metrics.update_kinds import kind_of
from bot.store import Store, UpdateInbox
from bot.telegram.bot_context import BotContext
from bot.telegram.chat_owner import foreign_sender
from bot.telegram.polled_updates import CheckedUpdatesRequest
from bot.telegram.received_update import (
    ReceivedUpdate,
    chat_of,
    handle_received,
    language_of,
    readable,
)
from bot.telegram.stored_updates import InboxHandOff
from bot.telegram.update_check import Flaw, update_flaw

log = logging.getLogger(__name__)

BotApplication: TypeAlias = Application[
    ExtBot[None],
    ContextTypes.DEFAULT_TYPE,
    dict[Any, Any],
    dict[Any, Any],
    dict[Any, Any],
    Any,
]
Handler: TypeAlias = BaseHandler[Update, ContextTypes.DEFAULT_TYPE, None]

# Updates in flight at once, across all chats. Above it PTB queues them: the bound keeps a
# flood from opening thousands of SQLite and HTTP calls together.
MAX_CONCURRENT_UPDATES: Final = 256
# What the bot asks Telegram for; everything else is never even sent.
ALLOWED_UPDATES: Final = (Update.MESSAGE, Update.CALLBACK_QUERY)

GATEKEEPER_GROUP: Final = -1
HANDLER_GROUP: Final = 0
RECORDER_GROUP: Final = 1


class ChatOrderedProcessor(BaseUpdateProcessor):
    """PTB's update processor: concurrent across chats, one update at a time per chat.

    PTB starts one task per update in the order the updates arrived; each takes one of the
    ``max_concurrent_updates`` slots and then queues on its chat's lock (FIFO), so a chat's
    updates run in arrival order. Updates without a chat run without a lock. ``hold`` lets
    other work for a chat (a turn that happens without an update) take its place in the line.
    A slot is held while waiting for the chat: one chat sending hundreds of updates at once
    slows the others down, but cannot reorder or lose them.

    With ``inbox`` (``bot.telegram.stored_updates``; set by the wiring) the updates are the
    stored ones: holding the chat's lock, its stored updates older than this one are handled
    first (two instances, or one that died).

    A ``ReceivedUpdate`` (webhook mode) is parsed here, holding its chat's lock, and PTB's
    Update goes to ``application`` (set by ``build_application``) instead of the raw object.

    Each update is measured in the business's ``metrics`` (set by the wiring once the core is
    built): counted by kind and outcome, timed from its arrival. PTB hands a handler's
    exception to the error handler, never back here, so the error handler marks its update
    failed through ``update_failed``, which finds the update's measure by its id among those
    being processed.
    """

    def __init__(
        self,
        max_concurrent_updates: int = MAX_CONCURRENT_UPDATES,
        *,
        locks: ChatTurnLocks | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        super().__init__(max_concurrent_updates)
        # The runtime passes the store's locks, held by every process on the store.
        self.locks: ChatTurnLocks = locks if locks is not None else ChatLocks()
        self.inbox: InboxHandOff | None = None
        self.application: BotApplication | None = None
        self.metrics = metrics
        self._measuring: dict[int, UpdateMeasure] = {}  # by update id, while processed

    def hold(self, chat_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for the turn of Telegram's chat ``chat_id`` and keep it for the block."""
        return self.locks.hold(ChatRef(TELEGRAM, chat_id))

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if isinstance(update, ReceivedUpdate) and isinstance(coroutine, Coroutine):
            # PTB made it to process the raw object; the parsed Update is processed instead.
            coroutine.close()
        chat_id = chat_of(update)
        update_id = _update_id(update)
        with self.metrics.measured_update(TELEGRAM, kind_of_update(update)) as measure:
            if update_id is not None:
                self._measuring[update_id] = measure
            try:
                if chat_id is None:
                    await self._handle(update, coroutine)
                else:
                    async with self.locks.hold(ChatRef(TELEGRAM, chat_id)):
                        if self.inbox is not None:
                            await self.inbox.earlier(update)
                        await self._handle(update, coroutine)
            finally:
                if update_id is not None and self._measuring.get(update_id) is measure:
                    del self._measuring[update_id]

    def update_failed(self, update: object) -> None:
        """``update`` (PTB's Update or the queued object), if it is being processed, failed
        although nothing was raised out of it: its error handler was called."""
        update_id = _update_id(update)
        measure = None if update_id is None else self._measuring.get(update_id)
        if measure is not None:
            measure.failed()

    async def _handle(self, update: object, coroutine: Awaitable[Any]) -> None:
        if not isinstance(update, ReceivedUpdate):
            await coroutine
            return
        if self.application is None:
            raise RuntimeError(
                "ChatOrderedProcessor.application is not set (build_application sets it)"
            )
        seen = self.inbox.seen if self.inbox is not None else None
        await handle_received(self.application, update, seen)

    async def initialize(self) -> None:
        """Nothing to set up: the locks are made as chats need them."""

    async def shutdown(self) -> None:
        """Nothing to free: the locks go once nobody holds them."""


def _update_id(update: object) -> int | None:
    update_id = getattr(update, "update_id", None)
    return update_id if isinstance(update_id, int) else None


def kind_of_update(update: object) -> str:
    """The metrics label of ``update`` (PTB's Update, or a ``ReceivedUpdate`` that has it)."""
    return update.kind if isinstance(update, ReceivedUpdate) else kind_of(update)


def build_application(
    settings: TelegramConfig,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    processor: ChatOrderedProcessor | None = None,
    inbox: UpdateInbox | None = None,
) -> BotApplication:
    """The Application for ``[telegram]``: its token, Bot API server and update mode.

    In webhook mode it has no updater (updates arrive through ``webhook_route``). ``request``
    and ``get_updates_request`` replace PTB's HTTP layer (tests, benchmarks); ``processor``
    replaces the update processor (a subclass that observes processing, in tests); with
    ``inbox`` polled updates are stored there before the offset moves past them.
    """
    if settings.token is None:  # the config allows that only for a bot without Telegram
        raise ValueError("[telegram] token is not set: this bot has no Telegram")
    builder = (
        ApplicationBuilder()
        .token(settings.token.get_secret_value())
        .base_url(settings.api_base_url)
        .base_file_url(settings.file_base_url)
        .concurrent_updates(processor or ChatOrderedProcessor())
    )
    if request is not None:
        builder = builder.request(request)
    # Polled updates pass the same check as pushed ones (``webhook_route``) before PTB reads them.
    polling = get_updates_request or HTTPXRequest(connection_pool_size=1)  # PTB's own default
    builder = builder.get_updates_request(CheckedUpdatesRequest(polling, inbox))
    if settings.mode == "webhook":
        builder = builder.updater(None)
    application: BotApplication = builder.build()
    # The processor parses pushed updates (``received_update``) and hands them to this app.
    chosen = application.update_processor
    if isinstance(chosen, ChatOrderedProcessor):
        chosen.application = application
    return application


def install_handlers(
    application: BotApplication, ctx: BotContext, handlers: Sequence[Handler]
) -> None:
    """The gatekeeper first, then ``handlers`` in one group (the first that matches answers),
    and an error handler that logs without personal data and apologises to the chat."""
    application.add_handler(TypeHandler(Update, gatekeeper(ctx.store)), group=GATEKEEPER_GROUP)
    application.add_handlers(list(handlers), group=HANDLER_GROUP)
    application.add_handler(TypeHandler(Update, recorder(ctx.store)), group=RECORDER_GROUP)
    processor = application.update_processor
    failed = processor.update_failed if isinstance(processor, ChatOrderedProcessor) else None
    application.add_error_handler(error_handler(ctx, failed))


def gatekeeper(
    store: Store,
) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    """The group -1 callback: repeated updates, and updates in a private chat from someone
    other than its user (``chat_owner``), stop here; returning users are unblocked."""

    async def check(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        flaw = malformed(update)
        if flaw is not None:
            # Not a customer's message (Telegram never sends these): nobody to answer.
            log.warning("update dropped: %s", flaw)
            if isinstance(update.update_id, int) and not isinstance(update.update_id, bool):
                await store.updates.seen(update.update_id)  # done with: its stored copy goes
            raise ApplicationHandlerStop
        chat_id = chat_of(update)
        chat_ref = None if chat_id is None else ChatRef(TELEGRAM, chat_id)
        if not await store.updates.begin(update.update_id, chat_ref):
            log.info("update %s was delivered again; ignored", update.update_id)
            raise ApplicationHandlerStop
        foreign = foreign_sender(update)
        if foreign is not None:
            # Forged (Telegram never sends it): no turn, no tap answered. Its id is recorded,
            # so a repeat of it is dropped as a repeat and this line is written once.
            log.warning(
                "update refused: update %s: user %s in user %s's chat",
                foreign.update_id,
                ChatRef(TELEGRAM, foreign.chat_id).user(foreign.user_id).for_log,
                ChatRef(TELEGRAM, foreign.chat_id).for_log,
            )
            await store.updates.finish(update.update_id, chat_ref)
            raise ApplicationHandlerStop
        chat, user = update.effective_chat, update.effective_user
        # Only the user's own action proves they unblocked the bot.
        if (
            chat is not None
            and user is not None
            and await store.blocked.clear(ChatRef(TELEGRAM, chat.id))
        ):
            log.info(
                "chat %s writes again; no longer marked blocked", ChatRef(TELEGRAM, chat.id).for_log
            )

    return check


def recorder(
    store: Store,
) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    """The group 1 callback: the update's id is recorded, if its turn's session save did not
    (``store.updates``: one commit per turn)."""

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat_id = chat_of(update)
        chat_ref = None if chat_id is None else ChatRef(TELEGRAM, chat_id)
        await store.updates.finish(update.update_id, chat_ref)

    return record


def malformed(update: Update) -> str | None:
    """Why ``update`` cannot be handled, or None when it can.

    Only what the handlers need is checked: an integer ``update_id`` (the dedupe key, an integer
    column) and a message in a chat, or a tap, from a user. Everything else (an edit, a kind the
    bot never asked for, a forged body) is dropped before it reaches a handler.
    """
    update_id: object = update.update_id
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        return f"update_id is a {type(update_id).__name__}, not an integer"
    message = update.message
    if message is None:
        if update.callback_query is None:
            return f"update {update_id} carries neither a message nor a tap"
        return None  # a tap always names who tapped
    # PTB reads a body without these keys as None although its types say otherwise.
    chat: object = message.chat
    if chat is None or message.from_user is None:
        return f"update {update_id} has a message without a chat or a sender"
    return None


def error_handler(
    ctx: BotContext, failed: Callable[[object], None] | None = None
) -> Callable[[object, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    """Log a failed update by id (never its content) and tell its chat, briefly, in its
    sender's language (``ctx``'s texts); ``failed`` (the processor's ``update_failed``) has it
    counted as failed."""

    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        error = context.error
        if failed is not None:
            failed(update)
        # Failed before its handlers ran (its chat's lock, the inbox): still the raw object.
        update = readable(update)
        update_id = update.update_id if isinstance(update, Update | ReceivedUpdate) else None
        if isinstance(error, TelegramError):
            # A network error's text may quote a request URL, and those carry the bot token.
            log.warning("update %s: Telegram call failed (%s)", update_id, type(error).__name__)
        elif (flaw := own_data_flaw(update, error)) is not None:
            # The update's own data broke the handler (it came in past the door): not a bug
            # of ours, and its chat may be the broken part, so nobody is told.
            log.warning("update dropped: %s (%s)", flaw, type(error).__name__)
            return
        else:
            log.error("update %s failed", update_id, exc_info=error)
        chat_id = chat_of(update)
        if chat_id is not None and isinstance(update, Update) and update.effective_user:
            with contextlib.suppress(Exception):
                sorry = ctx.catalogue_for(language_of(update)).say("telegram.sorry")
                await ctx.sender.send(chat_id, sorry)

    return on_error


# What malformed data raises in a handler: pydantic's ValidationError is a ValueError.
DATA_ERRORS: Final = (ValueError, TypeError, OverflowError)


def own_data_flaw(update: object, error: Exception | None) -> Flaw | None:
    """The flaw in ``update``'s own data that explains ``error``, or None (then it is a bug).

    Only a data error counts, and only when the update itself breaks a rule of the door's
    check (``update_check``); any other failure keeps its traceback.
    """
    if isinstance(update, ReceivedUpdate) and isinstance(error, DATA_ERRORS):
        return update_flaw(update.data)
    if not isinstance(update, Update) or not isinstance(error, DATA_ERRORS):
        return None
    try:
        data = update.to_dict()
    except Exception:  # an update PTB cannot even write back is no evidence either way
        return None
    return update_flaw(data)
