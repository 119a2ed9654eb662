"""How each customer chat looks, and drawing the engine's turns into it.

``ChatScreen`` keeps, per chat, only what the chat shows (``ChatView``): the open prompt, the
message that shows it, the session id its buttons carry and which reply keyboard is up. The
conversation itself is in the store; after a restart (or when a view was dropped to bound
memory) the view is rebuilt from the saved session, so a tap on a keyboard drawn before the
restart still answers the question it belongs to. On a shared store (``store.shared``) a
chat's turns may run in any process on it, so there a remembered view is used only while it shows
the saved session's open prompt (same session, same prompt version), and rebuilt otherwise
(``Conversation`` asks for the view before every answer there, and has a stale one forgotten
before a command's own turn):
a view this process drew before the chat's last turns ran elsewhere would refuse a tap on
the prompt the customer sees now.

To keep the chat readable, the previous prompt is edited in place once the chat moves on: its
buttons go, and a tapped choice is written under the question. That tidy-up is not part of the
turn: it starts once the reply is out (the customer sees the next question first) and runs on
its own, so the chat's next update need not wait for Telegram's answer to it. It is still
tracked: the chat's next turn waits for it first (so nothing overtakes it), a failure is
logged, and ``settle`` waits for every one still running (at shutdown). A prompt drawn on a
reply keyboard (one that asks for a location or contact) has nothing to tidy: its keyboard
goes with the next message, and the customer's own message shows what they chose. Page turns
redraw the prompt in place.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from telegram import InlineKeyboardMarkup

from bot.telegram.bot_context import BotContext
from bot.telegram.message_sender import Delivered
from bot.telegram.refs import telegram_chat, telegram_user
from bot.telegram.turn_messages import (
    OutgoingMessage,
    ShareRequest,
    render_answered,
    render_prompt,
    render_turn,
    share_requests,
)
from conversations import Answer, Prompt, Session, Turn

log = logging.getLogger(__name__)

# Chats whose look is kept in memory; older ones are rebuilt from the saved session on their
# next tap. A view holds its prompt, about 5 KB: 2,000 of them are ~11 MB (bench_storage.py).
_MAX_VIEWS: Final = 2_000


@dataclass
class ChatView:
    """How a chat looks now. ``message_id`` is the prompt's message while its buttons work;
    ``shown_at`` is when the prompt was drawn (or read back), by the store's clock;
    ``language`` the language code of the customer's client when it was last drawn (a turn
    that happens without an update is drawn in it: ``Conversation.deliver_later``)."""

    session_id: str | None = None
    prompt: Prompt | None = None
    message_id: int | None = None
    reply_keyboard: tuple[ShareRequest, ...] = ()
    shown_at: float = 0.0
    language: str | None = None


class ChatScreen:
    """Draws turns into chats and remembers how each chat looks (see the module docstring)."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        self._views: OrderedDict[int, ChatView] = OrderedDict()
        self._tidying: dict[int, asyncio.Task[None]] = {}  # per chat: its tidy-up in flight

    async def show(
        self, chat_id: int, turn: Turn, answered: Answer | None = None, *, language: str | None
    ) -> None:
        """Draw ``turn`` in the chat, Telegram's own words in the catalogue of ``language``
        (the customer's client's language code); ``answered`` is what the customer answered the
        last prompt with, written under it once its buttons go."""
        await self._tidied(chat_id)
        view = self.remember(chat_id)
        view.language = language
        catalogue = self.ctx.catalogue_for(language)
        moves_on = turn.prompt is not None or turn.finished
        previous = (view.prompt, view.message_id) if moves_on else (None, None)
        if turn.prompt is not None and view.session_id is None:
            session = await self.ctx.chats.session(telegram_chat(chat_id))
            view.session_id = session.id if session is not None else None
        rendered = render_turn(
            catalogue,
            turn,
            session_id=view.session_id,
            reply_keyboard=view.reply_keyboard,
            map_url=self.ctx.map_url(chat_id),
        )
        results = await self.ctx.sender.send_messages(chat_id, rendered.messages)
        sent = [r.message_id for r in results if isinstance(r, Delivered)]
        if len(sent) == len(rendered.messages):
            view.reply_keyboard = rendered.reply_keyboard
        if moves_on:
            view.prompt, view.message_id = turn.prompt, None
            view.shown_at = self.ctx.store.clock()
        index = rendered.prompt_index
        if index is not None and index < len(sent):
            has_buttons = isinstance(rendered.messages[index].markup, InlineKeyboardMarkup)
            view.message_id = sent[index] if has_buttons else None
        if turn.finished:
            view.session_id, view.prompt, view.message_id = None, None, None
        # The reply first, then the tidying: the answered prompt loses its buttons.
        prompt, message_id = previous
        if prompt is not None and message_id is not None:
            shown = answered if answers(prompt, answered) else None
            self._tidy_later(chat_id, message_id, render_answered(catalogue, prompt, shown))

    async def settle(self) -> None:
        """Wait until every tidy-up edit still running is done (at shutdown, in tests)."""
        while self._tidying:
            await asyncio.gather(*self._tidying.values())

    async def turn_page(
        self, chat_id: int, message_id: int, view: ChatView, page: int, *, language: str | None
    ) -> None:
        """Redraw the open prompt, shown in ``message_id``, at ``page``, for a customer whose
        client says ``language``."""
        await self._tidied(chat_id)
        assert view.prompt is not None  # resolve() gives page turns for the open prompt only
        catalogue = self.ctx.catalogue_for(language)
        drawn = render_prompt(catalogue, view.prompt, page=page, session_id=view.session_id)
        result = await self.ctx.sender.edit_message(chat_id, message_id, drawn)
        if not isinstance(result, Delivered):  # too old to edit: draw the page anew
            result = await self.ctx.sender.send_message(chat_id, drawn)
        if isinstance(result, Delivered):
            view.message_id = result.message_id

    @property
    def shared(self) -> bool:
        """Whether other processes on the store may run this bot's chats' turns too."""
        return self.ctx.store.shared

    async def view(self, chat_id: int, user_id: int, *, language: str | None) -> ChatView:
        """The chat's view, rebuilt from its saved session when it is not in memory (or, on a
        shared store, no longer shows that session's open prompt); a turn read back is said
        for a customer whose client says ``language``."""
        view = self._views.get(chat_id)
        if view is not None and not self.shared:
            self._views.move_to_end(chat_id)
            return view
        session = await self.ctx.chats.session(telegram_chat(chat_id))
        if view is not None and _shows(view, session):
            self._views.move_to_end(chat_id)
            return view
        self._views.pop(chat_id, None)
        view = self.remember(chat_id)
        if session is None:
            return view
        view.session_id = session.id
        turn = await self.ctx.chats.resume(
            telegram_chat(chat_id), telegram_user(user_id), language=language
        )
        if turn is None or turn.prompt is None:
            return view  # no question to show (the service is down): the answer's turn says so
        if turn.messages:
            # The order form changed meanwhile: say so first.
            await self.show(chat_id, turn, language=language)
        else:
            view.prompt, view.shown_at = turn.prompt, self.ctx.store.clock()
            # What its last drawing left up, so the next reply takes it away when it should.
            view.reply_keyboard = share_requests(turn.prompt)
        return view

    async def forget_if_stale(self, chat_id: int) -> None:
        """On a shared store, forget the chat's view when it no longer shows
        the saved session's open prompt, without drawing anything: before a command's own turn
        (``/new``, ``/cancel`` ...), which must not tidy a prompt another process has tidied,
        nor tag its buttons with an ended session's id."""
        view = self._views.get(chat_id)
        if view is None or not self.shared:
            return
        session = await self.ctx.chats.session(telegram_chat(chat_id))
        # With no session the order ended (here or elsewhere): a command starts afresh.
        if session is None or not _shows(view, session):
            self._views.pop(chat_id, None)
            self.remember(chat_id).session_id = session.id if session is not None else None

    def _tidy_later(self, chat_id: int, message_id: int, drawn: OutgoingMessage) -> None:
        task = asyncio.create_task(self._tidy(chat_id, message_id, drawn))
        self._tidying[chat_id] = task
        task.add_done_callback(lambda done: self._forget(chat_id, done))

    async def _tidy(self, chat_id: int, message_id: int, drawn: OutgoingMessage) -> None:
        try:
            await self.ctx.sender.edit_message(chat_id, message_id, drawn)
        except Exception:
            # Only stale buttons stay behind (the engine refuses their taps kindly).
            log.exception(
                "chat %s: the answered prompt could not be tidied", telegram_chat(chat_id).for_log
            )

    def _forget(self, chat_id: int, done: asyncio.Task[None]) -> None:
        if self._tidying.get(chat_id) is done:
            del self._tidying[chat_id]

    async def _tidied(self, chat_id: int) -> None:
        """Wait for the chat's tidy-up in flight, so this turn's messages come after it."""
        pending = self._tidying.get(chat_id)
        if pending is not None:
            await asyncio.shield(pending)

    def question_older_than(self, chat_id: int, seconds: float) -> bool:
        """Whether the chat shows an open question drawn at least ``seconds`` ago, as far as
        memory knows (nothing is read)."""
        view = self._views.get(chat_id)
        return (
            view is not None
            and view.prompt is not None
            and self.ctx.store.clock() - view.shown_at >= seconds
        )

    def forget(self, chat_id: int) -> None:
        """Drop the chat's view: what it shows belongs to an order that is gone."""
        self._views.pop(chat_id, None)

    def remember(self, chat_id: int) -> ChatView:
        """The chat's view in memory (a blank one when there is none), as the most recent."""
        view = self._views.get(chat_id)
        if view is None:
            view = self._views[chat_id] = ChatView()
            if len(self._views) > _MAX_VIEWS:
                self._views.popitem(last=False)
        self._views.move_to_end(chat_id)
        return view


def answers(prompt: Prompt | None, answer: Answer | None) -> bool:
    """Whether ``answer`` answers ``prompt`` (typed answers name no step: they always do)."""
    if prompt is None or answer is None:
        return False
    return answer.step in (None, prompt.step) and answer.version in (None, prompt.version)


def _shows(view: ChatView, session: Session | None) -> bool:
    """Whether ``view`` shows ``session``'s open prompt. With no session it is kept as it is:
    an answer to its prompt finds no order, which ``Conversation`` tells apart by the prompt's
    age (a draft housekeeping dropped, or an order that ended)."""
    if session is None:
        return True
    return (
        view.prompt is not None
        and view.session_id == session.id
        and view.prompt.version == session.prompt_version
    )
