"""How each customer chat looks, and drawing the engine's turns into it.

``ChatScreen`` keeps, per chat, only what the chat shows (``ChatView``): the open prompt, the
message that shows it, the session id its buttons carry and which reply keyboard is up. The
conversation itself is in SQLite; after a restart (or when a view was dropped to bound memory)
the view is rebuilt from the saved session, so a tap on a keyboard drawn before the restart
still answers the question it belongs to.

To keep the chat readable, the previous prompt is edited in place once the chat moves on (after
the reply is out, so the customer sees the next question first): its buttons go, and a tapped
choice is written under the question. Page turns redraw the prompt in place.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from telegram import InlineKeyboardMarkup

from bot.telegram.bot_context import BotContext
from bot.telegram.message_sender import Delivered
from bot.telegram.turn_messages import ShareRequest, render_answered, render_prompt, render_turn
from conversations import Answer, Prompt, Turn

# Chats whose look is kept in memory; older ones are rebuilt from the saved session on their
# next tap. A view holds its prompt, about 5 KB: 2,000 of them are ~11 MB (bench_storage.py).
_MAX_VIEWS: Final = 2_000


@dataclass
class ChatView:
    """How a chat looks now. ``message_id`` is the prompt's message while its buttons work."""

    session_id: str | None = None
    prompt: Prompt | None = None
    message_id: int | None = None
    reply_keyboard: tuple[ShareRequest, ...] = ()


class ChatScreen:
    """Draws turns into chats and remembers how each chat looks (see the module docstring)."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        self._views: OrderedDict[int, ChatView] = OrderedDict()

    async def show(self, chat_id: int, turn: Turn, answered: Answer | None = None) -> None:
        """Draw ``turn`` in the chat; ``answered`` is what the customer answered the last prompt
        with, written under it once its buttons go."""
        view = self.remember(chat_id)
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
            shown = answered if answers(prompt, answered) else None
            await self.ctx.sender.edit_message(chat_id, message_id, render_answered(prompt, shown))

    async def turn_page(self, chat_id: int, message_id: int, view: ChatView, page: int) -> None:
        """Redraw the open prompt, shown in ``message_id``, at ``page``."""
        assert view.prompt is not None  # resolve() gives page turns for the open prompt only
        drawn = render_prompt(view.prompt, page=page, session_id=view.session_id)
        result = await self.ctx.sender.edit_message(chat_id, message_id, drawn)
        if not isinstance(result, Delivered):  # too old to edit: draw the page anew
            result = await self.ctx.sender.send_message(chat_id, drawn)
        if isinstance(result, Delivered):
            view.message_id = result.message_id

    async def view(self, chat_id: int, user_id: int) -> ChatView:
        """The chat's view, rebuilt from its saved session when it is not in memory."""
        view = self._views.get(chat_id)
        if view is not None:
            self._views.move_to_end(chat_id)
            return view
        view = self.remember(chat_id)
        session = await self.ctx.chats.session(chat_id)
        if session is None:
            return view
        view.session_id = session.id
        turn = await self.ctx.chats.resume(chat_id, user_id)
        if turn is not None and turn.messages:
            await self.show(chat_id, turn)  # the order form changed meanwhile: say so first
        elif turn is not None:
            view.prompt = turn.prompt
        return view

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
