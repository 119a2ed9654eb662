"""The customer's conversation in Telegram: updates in, the engine's turns drawn back.

Every handler turns what the customer did into one ``Answer`` (``answers`` for messages,
``callbacks`` for taps, ``photos`` for pictures), hands it to the shared ``ChatService`` and
draws the turn it returns (``render``) through the ``sender``. It never decides what to ask.

What it remembers per chat (``ChatView``) is only how the chat looks: the open prompt, the
message that shows it, the session id its buttons carry and which reply keyboard is up. The
conversation itself is in SQLite; after a restart (or when a view was dropped to bound memory)
the view is rebuilt from the saved session, so a tap on a keyboard drawn before the restart
still answers the question it belongs to.

To keep the chat readable, the previous prompt is edited in place once the chat moves on (after
the reply is out, so the customer sees the next question first): its buttons go, and a tapped
choice is written under the question. Page turns redraw the prompt in
place. A tap on an older keyboard goes to the engine like any answer, and the engine refuses it
kindly and shows where the chat is.

Handlers run under the chat's turn in the update processor (``application``), so one chat's
updates are handled one at a time; ``deliver_later`` takes the same turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Final

from telegram import CallbackQuery, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes, MessageHandler, filters

from bot.ordering.chats import NO_OPEN_ORDER
from bot.telegram import otp
from bot.telegram.answers import answer_from_update, command_in
from bot.telegram.application import Handler
from bot.telegram.callbacks import PATTERN, PageTurn, UnknownButton, resolve
from bot.telegram.context import BotContext
from bot.telegram.photos import IncomingPhoto, PhotoRefused
from bot.telegram.render import (
    OutgoingMessage,
    ShareRequest,
    render_answered,
    render_prompt,
    render_turn,
)
from bot.telegram.sender import Delivered
from bot.telegram.text import escape
from conversations import Answer, CommandAnswer, PhotosAnswer, Prompt, Turn
from conversations.flows import REPEAT_FLOW

log = logging.getLogger(__name__)

GREETING: Final = "Hello! I take delivery orders here, one question at a time."
WELCOME_BACK: Final = "Welcome back! Here is where we were:"
NO_ORDER: Final = "There is no order in progress. Send /new to start one."
UNKNOWN_COMMAND: Final = "I don't know that command. /help lists what I can do."
UNREADABLE: Final = "I can read text, taps, locations, contacts and photos here."
DEAD_BUTTON: Final = "That button no longer works."
PRIVATE_ONLY: Final = "I take orders in a private chat: please message me directly."
NO_REPEAT: Final = "Repeating an order is not available here. Send /new to start one."
HELP: Final = (
    "I take delivery orders, one question at a time.\n\n"
    "/new starts an order, /repeat orders your last delivery again, and /start continues "
    "yours. While ordering: /back goes to the previous question, /cancel stops, /help "
    "explains the question.\n\n"
    "/deliveries lists your deliveries, /status <id> shows one, and "
    "/cancel_delivery <id> <reason> cancels one while that is still possible."
)

ChatTurn = Callable[[int], AbstractAsyncContextManager[None]]
Context = ContextTypes.DEFAULT_TYPE
_MAX_VIEWS = 10_000  # chats whose look is kept in memory; older ones are rebuilt on demand


@dataclass
class ChatView:
    """How a chat looks now. ``message_id`` is the prompt's message while its buttons work."""

    session_id: str | None = None
    prompt: Prompt | None = None
    message_id: int | None = None
    reply_keyboard: tuple[ShareRequest, ...] = ()


class Conversation:
    """The customer handlers; ``chat_turn(chat_id)`` is the update processor's per-chat turn."""

    def __init__(self, ctx: BotContext, *, chat_turn: ChatTurn | None = None) -> None:
        self.ctx = ctx
        self._chat_turn = chat_turn
        self._views: OrderedDict[int, ChatView] = OrderedDict()

    def handlers(self) -> list[Handler]:
        """The handlers, in the order PTB should try them (after other features' commands)."""
        private = filters.ChatType.PRIVATE
        return [
            CommandHandler("start", self.on_start, filters=private),
            CommandHandler("new", self.on_new, filters=private),
            CommandHandler("repeat", self.on_repeat, filters=private),
            CommandHandler("cancel", self.on_cancel, filters=private),
            CommandHandler("help", self.on_help, filters=private),
            CommandHandler(["start", "new", "repeat"], self.on_group_order, filters=~private),
            CallbackQueryHandler(self.on_tap, pattern=PATTERN),
            MessageHandler(private & ~filters.UpdateType.EDITED, self.on_message),
            CallbackQueryHandler(self.on_unknown_tap),
        ]

    # --- commands -------------------------------------------------------------------------

    async def on_start(self, update: Update, context: Context) -> None:
        """``/start``: a deep link's hand-off, the open order again, or a new order."""
        chat_id, user_id = _ids(update)
        payload = (context.args or [""])[0]
        if payload.startswith("otp_"):
            await otp.start_otp_handoff(self.ctx, update, payload.removeprefix("otp_"))
            return
        turn = await self.ctx.chats.resume(chat_id, user_id)
        if turn is None:
            await self._begin(chat_id, user_id, greet=True)
            return
        welcome = turn.model_copy(update={"messages": (WELCOME_BACK, *turn.messages)})
        await self._show(chat_id, welcome)

    async def on_new(self, update: Update, context: Context) -> None:
        """``/new``: a fresh order (an open one is dropped)."""
        await self._begin(*_ids(update))

    async def on_repeat(self, update: Update, context: Context) -> None:
        """``/repeat``: the customer's last delivery, filled in again (an open one is dropped)."""
        chat_id, user_id = _ids(update)
        if self.ctx.chats.engine.registry.get(REPEAT_FLOW) is None:
            await self._say(chat_id, NO_REPEAT)
            return
        await self._begin(chat_id, user_id, flow=REPEAT_FLOW)

    async def on_cancel(self, update: Update, context: Context) -> None:
        """``/cancel``: stop the order being filled in."""
        chat_id, user_id = _ids(update)
        turn = await self.ctx.chats.cancel(chat_id, user_id)
        if turn is None:
            await self._say(chat_id, NO_ORDER)
            return
        await self._show(chat_id, turn, answered=CommandAnswer(name="cancel"))

    async def on_help(self, update: Update, context: Context) -> None:
        """``/help``: about the open question, or about the bot when nothing is open."""
        chat_id, user_id = _ids(update)
        if await self.ctx.chats.session(chat_id) is None:
            await self._say(chat_id, HELP)
            return
        await self._answer(chat_id, user_id, CommandAnswer(name="help"))

    async def on_group_order(self, update: Update, context: Context) -> None:
        """An order command in a group: orders carry personal details, so not here."""
        await self._say(_ids(update)[0], PRIVATE_ONLY)

    # --- answers --------------------------------------------------------------------------

    async def on_message(self, update: Update, context: Context) -> None:
        """Text, a shared contact, location or venue, a picture, or /back, /skip, /done."""
        message = update.message
        if message is None:
            return
        chat_id, user_id = _ids(update)
        if message.contact is not None and await otp.contact_shared(self.ctx, update):
            return
        found = answer_from_update(update, bot_username=context.bot.username)
        if found is None:
            await self._say(chat_id, UNKNOWN_COMMAND if command_in(message) else UNREADABLE)
            return
        if isinstance(found, IncomingPhoto):
            photos = await self._photo_answer(chat_id, user_id, found)
            if isinstance(photos, PhotoRefused):
                await self._say(chat_id, photos.message)
                return
            found = photos
        await self._answer(chat_id, user_id, found)

    async def on_tap(self, update: Update, context: Context) -> None:
        """A tap on a prompt's button: an answer, a page turn, or a tap on an old keyboard."""
        query = update.callback_query
        if query is None or query.message is None:
            return
        chat_id, user_id, tapped = query.message.chat.id, query.from_user.id, query.message
        view = await self._view(chat_id, user_id)
        meant = resolve(query.data, view.prompt, session_id=view.session_id)
        if isinstance(meant, UnknownButton):
            log.info("chat %s tapped a button that points nowhere: %s", chat_id, meant.reason)
            await _answer_query(query, DEAD_BUTTON)
            return
        # Answered alongside the turn: the client's spinner stops without delaying the reply.
        answering = asyncio.create_task(_answer_query(query))
        try:
            if isinstance(meant, PageTurn):
                await self._turn_page(chat_id, tapped.message_id, view, meant.page)
                return
            if _answers(view.prompt, meant):
                view.message_id = tapped.message_id  # known even when the view was rebuilt
            await self._answer(chat_id, user_id, meant)
        finally:
            await answering

    async def on_unknown_tap(self, update: Update, context: Context) -> None:
        """A button no handler knows (an old release's): stop the client's spinner, kindly."""
        if update.callback_query is not None:
            await _answer_query(update.callback_query, DEAD_BUTTON)

    async def deliver_later(self, chat_id: int, turn: Turn) -> None:
        """Show a turn that happened without an update (a create re-sent after a rate limit)."""
        held = self._chat_turn(chat_id) if self._chat_turn else contextlib.nullcontext()
        async with held:
            await self._show(chat_id, turn)

    # --- drawing --------------------------------------------------------------------------

    async def _answer(self, chat_id: int, user_id: int, answer: Answer) -> None:
        turn = await self.ctx.chats.handle(chat_id, user_id, answer)
        if turn == NO_OPEN_ORDER:  # the engine's "has ended" reads oddly to someone just saying hi
            await self._say(chat_id, NO_ORDER)
            return
        await self._show(chat_id, turn, answer)

    async def _begin(
        self, chat_id: int, user_id: int, *, greet: bool = False, flow: str | None = None
    ) -> None:
        turn = await self.ctx.chats.start(chat_id, user_id, flow=flow)
        self._remember(chat_id).session_id = None  # a new session: its buttons get a new tag
        if greet:
            turn = turn.model_copy(update={"messages": (GREETING, *turn.messages)})
        await self._show(chat_id, turn)

    async def _show(self, chat_id: int, turn: Turn, answered: Answer | None = None) -> None:
        view = self._remember(chat_id)
        moves_on = turn.prompt is not None or turn.finished
        previous = (view.prompt, view.message_id) if moves_on else (None, None)
        if turn.prompt is not None and view.session_id is None:
            session = await self.ctx.chats.session(chat_id)
            view.session_id = session.id if session is not None else None
        rendered = render_turn(turn, session_id=view.session_id, reply_keyboard=view.reply_keyboard)
        results = await self.ctx.sender.send_messages(chat_id, rendered.messages)
        sent = [r.message_id for r in results if isinstance(r, Delivered)]
        if len(sent) == len(rendered.messages):
            view.reply_keyboard = rendered.reply_keyboard
        if moves_on:
            view.prompt, view.message_id = turn.prompt, None
        index = rendered.prompt_index
        if index is not None and index < len(sent):
            has_buttons = isinstance(rendered.messages[index].markup, InlineKeyboardMarkup)
            view.message_id = sent[index] if has_buttons else None
        if turn.finished:
            view.session_id, view.prompt, view.message_id = None, None, None
        # The reply first, then the tidying: the answered prompt loses its buttons.
        prompt, message_id = previous
        if prompt is not None and message_id is not None:
            shown = answered if _answers(prompt, answered) else None
            await self.ctx.sender.edit_message(chat_id, message_id, render_answered(prompt, shown))

    async def _turn_page(self, chat_id: int, message_id: int, view: ChatView, page: int) -> None:
        assert view.prompt is not None  # resolve() gives page turns for the open prompt only
        drawn = render_prompt(view.prompt, page=page, session_id=view.session_id)
        result = await self.ctx.sender.edit_message(chat_id, message_id, drawn)
        if not isinstance(result, Delivered):  # too old to edit: draw the page anew
            result = await self.ctx.sender.send_message(chat_id, drawn)
        if isinstance(result, Delivered):
            view.message_id = result.message_id

    async def _photo_answer(
        self, chat_id: int, user_id: int, photo: IncomingPhoto
    ) -> PhotosAnswer | PhotoRefused:
        prompt = (await self._view(chat_id, user_id)).prompt
        if prompt is None or "photos" not in prompt.accepts:
            # Nothing to download for: the engine says what the question wants instead.
            return PhotosAnswer(urls=[])
        have = prompt.photos.have if prompt.photos is not None else 0
        received = await self.ctx.photos.receive(photo, chat_id=chat_id, already=have)
        if isinstance(received, PhotoRefused):
            return received
        return PhotosAnswer(urls=[received.url])

    async def _view(self, chat_id: int, user_id: int) -> ChatView:
        """The chat's view, rebuilt from its saved session when it is not in memory."""
        view = self._views.get(chat_id)
        if view is not None:
            self._views.move_to_end(chat_id)
            return view
        view = self._remember(chat_id)
        session = await self.ctx.chats.session(chat_id)
        if session is None:
            return view
        view.session_id = session.id
        turn = await self.ctx.chats.resume(chat_id, user_id)
        if turn is not None and turn.messages:
            await self._show(chat_id, turn)  # the order form changed meanwhile: say so first
        elif turn is not None:
            view.prompt = turn.prompt
        return view

    def _remember(self, chat_id: int) -> ChatView:
        view = self._views.get(chat_id)
        if view is None:
            view = self._views[chat_id] = ChatView()
            if len(self._views) > _MAX_VIEWS:
                self._views.popitem(last=False)
        self._views.move_to_end(chat_id)
        return view

    async def _say(self, chat_id: int, text: str) -> None:
        await self.ctx.sender.send_message(chat_id, OutgoingMessage(escape(text)))


def _ids(update: Update) -> tuple[int, int]:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        raise ValueError("the conversation's handlers only get updates from a user in a chat")
    return chat.id, user.id


def _answers(prompt: Prompt | None, answer: Answer | None) -> bool:
    """Whether ``answer`` answers ``prompt`` (typed answers name no step: they always do)."""
    if prompt is None or answer is None:
        return False
    return answer.step in (None, prompt.step) and answer.version in (None, prompt.version)


async def _answer_query(query: CallbackQuery, text: str | None = None) -> None:
    try:
        await query.answer(text)
    except TelegramError as error:  # too old to answer, or the network: the tap still counts
        log.info("callback query not answered (%s)", type(error).__name__)
