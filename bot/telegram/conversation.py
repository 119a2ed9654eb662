"""The customer's conversation in Telegram: updates in, the engine's turns drawn back.

Every handler turns what the customer did into one ``Answer`` (``answers`` for messages,
``callbacks`` for taps, ``photo_receiver`` for pictures, ``album_collector`` for the photos of
an album, which are one answer), hands it to the shared ``ChatService``
and has the turn it returns drawn by the chat's ``ChatScreen`` (``chat_screen``), which also
remembers how the chat looks. It never decides what to ask. A tap on an older keyboard goes to the
engine like any answer, and the engine refuses it kindly and shows where the chat is.

The order commands are ``order_commands``', a photo's answer is ``photo_answers``', the desk's
words once no order is open ``desk_words``', and an answer's turn is drawn by ``answer_reply``.
Handlers run under the chat's turn in the update processor (``application``), so one chat's
updates are handled one at a time; ``deliver_later`` takes the same turn. Each handler reads
the language code of the update's sender (``language_of``): the chat service says the turn in
it, and Telegram's own words come from its catalogue in the business's texts
(``BotContext.catalogue_for``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from telegram import Chat, Update
from telegram.ext import CallbackQueryHandler, ContextTypes, MessageHandler, filters

from bot.chat_ref import ChatRef
from bot.clocks import Clock, Sleep, system_sleep
from bot.ordering.chats import no_open_order
from bot.telegram import otp_receiver as otp
from bot.telegram.album_collector import Album, AlbumCollector
from bot.telegram.answer_reply import AnswerReply
from bot.telegram.answers import answer_from_update, command_in
from bot.telegram.application import Handler
from bot.telegram.bot_context import BotContext
from bot.telegram.callbacks import PATTERN, PageTurn, UnknownButton, resolve
from bot.telegram.chat_screen import ChatScreen, answers
from bot.telegram.command_menus import flow_commands
from bot.telegram.desk_words import desk_reply
from bot.telegram.human_request import CommandCallback, HumanRequests
from bot.telegram.map_picks import MapPickTurns
from bot.telegram.message_sender import answer_tap
from bot.telegram.order_commands import OrderCommands
from bot.telegram.photo_answers import PhotoAnswers
from bot.telegram.photo_receiver import IncomingPhoto, PhotoRefused
from bot.telegram.received_update import language_of
from bot.telegram.refs import telegram_chat, telegram_user, update_ids
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage, reply_answer
from bot.webapp.picks import read_pick
from conversations import Answer, PhotosAnswer, TextAnswer, Turn

log = logging.getLogger(__name__)

ChatTurn = Callable[[int], AbstractAsyncContextManager[None]]
Present = Callable[[Turn], Awaitable[Turn | None]]
Context = ContextTypes.DEFAULT_TYPE


class Conversation:
    """The customer handlers; ``chat_turn(chat_id)`` is the update processor's per-chat turn;
    ``clock`` (monotonic) and ``sleep`` time an album's quiet window (``album_collector``);
    ``session_idle_seconds`` is ``[privacy] drafts_days``: a question shown at least that
    long ago whose order is gone was dropped by housekeeping, and the customer is told so.
    ``humans`` is the way to a person (``human_request``): a waiting customer's messages go
    to staff, and a person is offered in ``/help`` and after repeated wrong answers."""

    def __init__(
        self,
        ctx: BotContext,
        *,
        chat_turn: ChatTurn | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = system_sleep,
        session_idle_seconds: float = 0.0,
        humans: HumanRequests | None = None,
    ) -> None:
        self.ctx = ctx
        self.humans = humans
        self._session_idle_seconds = session_idle_seconds
        self._chat_turn = chat_turn
        self.albums = AlbumCollector(
            self._answer_album, chat_turn=chat_turn, clock=clock, sleep=sleep
        )
        self.screen = ChatScreen(ctx)
        self.registry = ctx.chats.engine.registry
        # Checked here, while the bot is wired: a flow's command that clashes fails the start.
        self.flow_menu = flow_commands(ctx.texts.business_catalogue(), self.registry)
        self.commands = OrderCommands(
            ctx, self.screen, answer=self._answer, say=self._say, humans=humans
        )
        self.photos = PhotoAnswers(ctx, self.screen, self.albums)

    def handlers(self) -> list[Handler]:
        """The handlers, in the order PTB should try them (after other features' commands)."""
        # While a person talks with the customer, the order's commands leave it as it is.
        held = self.humans.order_waits if self.humans is not None else _as_is
        return [
            *self.commands.handlers(self.flow_menu, held),
            CallbackQueryHandler(self.on_tap, pattern=PATTERN),
            MessageHandler(filters.ChatType.PRIVATE & ~filters.UpdateType.EDITED, self.on_message),
            CallbackQueryHandler(self.on_unknown_tap),
        ]

    # --- answers --------------------------------------------------------------------------

    async def on_message(self, update: Update, context: Context) -> None:
        """Text, a shared contact, location or venue, a picture, or /back, /skip, /done."""
        message = update.message
        if message is None:
            return
        chat_id, user_id = update_ids(update)
        language = language_of(update)
        catalogue = self.ctx.catalogue_for(language)
        if message.contact is not None and await otp.contact_shared(self.ctx, update):
            return
        if self.humans is not None and await self.humans.divert(update):
            return  # a person is talking with the customer: the order waits
        if message.web_app_data is not None:
            await self._map_pick(chat_id, user_id, message.web_app_data.data, language)
            return
        found = answer_from_update(catalogue, update, bot_username=context.bot.username)
        if found is None:
            unread = "telegram.unknown_command" if command_in(message) else "telegram.unreadable"
            await self._say(chat_id, catalogue.say(unread))
            return
        if isinstance(found, TextAnswer):
            said = await desk_reply(self.ctx, catalogue, chat_id, user_id, found.text)
            if said is not None:
                await self._say(chat_id, said)
                return
        if isinstance(found, TextAnswer):
            # A button of a prompt drawn on a reply keyboard sends its label: read it as the tap.
            view = await self.screen.view(chat_id, user_id, language=language)
            found = reply_answer(catalogue, view.prompt, found.text) or found
        if isinstance(found, IncomingPhoto):
            if message.media_group_id is not None:
                group = message.media_group_id
                await self.photos.album_photo(chat_id, user_id, group, found, language)
                return
            photos = await self.photos.answer(chat_id, user_id, found, language)
            if isinstance(photos, PhotoRefused):
                await self._say(chat_id, photos.said(catalogue))
                return
            found = photos
        await self._answer(chat_id, user_id, found, language)

    async def on_tap(self, update: Update, context: Context) -> None:
        """A tap on a prompt's button: an answer, a page turn, or a tap on an old keyboard."""
        query = update.callback_query
        if query is None or query.message is None:
            return
        if query.message.chat.type != Chat.PRIVATE:
            # Orders are drawn in private chats only, so a tap on an order's button in a group
            # was forged: no turn runs for a group.
            log.info(
                "a tap on an order's button in group %s ignored",
                telegram_chat(query.message.chat.id).for_log,
            )
            return
        chat_id, user_id, tapped = query.message.chat.id, query.from_user.id, query.message
        language = language_of(update)
        catalogue = self.ctx.catalogue_for(language)
        if self.humans is not None and await self.humans.waiting(chat_id):
            # The order waits for the person.
            await answer_tap(query, catalogue.say("human.waiting"))
            return
        view = await self.screen.view(chat_id, user_id, language=language)
        meant = resolve(query.data, view.prompt, session_id=view.session_id)
        if isinstance(meant, UnknownButton):
            log.info(
                "chat %s tapped a button that points nowhere: %s",
                telegram_chat(chat_id).for_log,
                meant.reason,
            )
            await answer_tap(query, catalogue.say("telegram.dead_button"))
            return
        # Answered alongside the turn: the client's spinner stops without delaying the reply.
        answering = asyncio.create_task(answer_tap(query))
        try:
            if isinstance(meant, PageTurn):
                shown = tapped.message_id
                await self.screen.turn_page(chat_id, shown, view, meant.page, language=language)
                return
            if answers(view.prompt, meant):
                view.message_id = tapped.message_id  # known even when the view was rebuilt
            await self._answer(chat_id, user_id, meant, language)
        finally:
            await answering

    async def on_unknown_tap(self, update: Update, context: Context) -> None:
        """A button no handler knows (an old release's): stop the client's spinner, kindly."""
        if update.callback_query is not None:
            dead = self.ctx.catalogue_for(language_of(update)).say("telegram.dead_button")
            await answer_tap(update.callback_query, dead)

    async def deliver_later(self, chat: ChatRef, turn: Turn, language: str | None = None) -> None:
        """Show a turn that happened without an update (a create re-sent after a rate limit, a
        hand-off closed) in ``chat``, a Telegram chat, in ``language`` (a language code), else
        the one its customer's client last gave (the business default when this process has
        not drawn the chat)."""
        held = self._chat_turn(chat.id) if self._chat_turn else contextlib.nullcontext()
        async with held:
            language = language or self.screen.remember(chat.id).language
            await self.screen.show(chat.id, turn, language=language)

    async def settle(self) -> None:
        """Wait for the work turns left running (the answered prompts' tidy-up edits)."""
        await self.screen.settle()

    async def close(self) -> None:
        """Answer the albums still in their quiet window now, then settle (the bot stops)."""
        await self.albums.flush()
        await self.settle()

    async def _map_pick(self, chat_id: int, user_id: int, data: str, language: str | None) -> None:
        """A pick from the "Pick on the map" page (``bot.webapp.picks``): the same answers the
        chat takes, the place first and then, for a saved place, its unit, shown as one reply
        that names the place (``map_picks``)."""
        catalogue = self.ctx.catalogue_for(language)
        pick = read_pick(data)
        if pick is None:  # an old page's, or not the page's at all: about the map, not "text"
            await self._say(chat_id, catalogue.say("telegram.map_pick_unreadable"))
            return
        turns = await MapPickTurns.open(catalogue, self.ctx.chats, telegram_chat(chat_id), pick)
        if turns is None:  # not the open question: the engine refuses it as a stale tap
            await self._answer(chat_id, user_id, pick.place_answer(), language)
            return
        place = pick.place_answer()
        await self._answer(chat_id, user_id, place, language, present=turns.after_place)
        unit = turns.unit_answer()
        if unit is not None:
            await self._answer(chat_id, user_id, unit, language, present=turns.after_unit)

    # --- turns ----------------------------------------------------------------------------

    async def _answer(
        self,
        chat_id: int,
        user_id: int,
        answer: Answer,
        language: str | None,
        *,
        note: str | None = None,
        present: Present | None = None,
    ) -> None:
        """``answer`` to the chat's order, from a customer whose client says ``language``, and
        its turn drawn (``AnswerReply``); ``note`` is said first.

        ``present``, when given, decides what the turn shows, from the session it wrote (so
        it is drawn once the session is written): that turn, changed, or nothing at all."""
        asked = self.screen.remember(chat_id).prompt
        if self.screen.shared:
            # The chat's last turns may have run in another process: draw this one over
            # what the chat shows now (the prompt to tidy, the reply keyboard that is up).
            await self.screen.view(chat_id, user_id, language=language)
        # Should no order be open, yet the chat still show its question, drawn longer ago than
        # an order is kept unanswered (a tap on its buttons, an answer to it): housekeeping
        # dropped it while the chat waited. The customer is told, and a new order starts. (A
        # view is cleared when an order ends here, and a younger one may only be stale, the
        # order having ended in another process; after a restart nothing shows: "no order".)
        old = self.screen.question_older_than(chat_id, self._session_idle_seconds)
        catalogue = self.ctx.catalogue_for(language)
        dropped = catalogue.say("telegram.draft_gone") if old else None
        reply = AnswerReply(
            self.screen,
            chat_id,
            answer,
            asked,
            language,
            note=note,
            humans=self.humans,
            dropped=dropped,
        )
        chat, user = telegram_chat(chat_id), telegram_user(user_id)
        # Without ``present`` the reply is drawn and sent while the turn's session is written;
        # with it, once the session is written (``present`` reads it).
        turn = await self.ctx.chats.handle(
            chat,
            user,
            answer,
            reply=reply if present is None else None,
            restart=reply.restart if old else None,
            language=language,
        )
        if reply.restarted:
            return  # the new order's first turn is drawn
        # Only an ended turn can be "no order is open": the rest is not built to compare.
        no_order = turn.status == "ended" and turn == no_open_order(catalogue)
        if present is not None:
            shown = None if no_order else await present(turn)
            if shown is not None:
                await reply(shown)
        if no_order:
            # The engine's "has ended" reads oddly to someone just saying hi.
            await self._say(chat_id, catalogue.say("telegram.no_order"))

    async def _answer_album(self, album: Album) -> None:
        """A whole album, once its quiet window is over: one answer, one reply, in the language
        of its sender's client."""
        catalogue = self.ctx.catalogue_for(album.language)
        note = album.note(catalogue)
        try:
            if not album.urls and note is not None:
                await self._say(album.chat_id, note)
                return
            # With no photo taken and nothing refused, no order was open: the engine says so.
            answer = PhotosAnswer(urls=list(album.urls))
            await self._answer(album.chat_id, album.user_id, answer, album.language, note=note)
        except Exception:
            # As PTB's error handler does for an update (the collector logs the error).
            with contextlib.suppress(Exception):
                await self.ctx.sender.send(album.chat_id, catalogue.say("telegram.sorry"))
            raise

    async def _say(self, chat_id: int, text: str) -> None:
        await self.ctx.sender.send_message(chat_id, OutgoingMessage(escape(text)))


def _as_is(command: CommandCallback) -> CommandCallback:
    """``command`` unchanged (no way to a person is wired)."""
    return command
