"""``AnswerReply``: how the turn of one customer answer is shown in Telegram.

``Conversation`` makes one per answer and hands it to ``ChatService.handle`` as its ``reply``:
the chat service calls it with the turn while the turn's session is written (or the
conversation does, once the session is written, when the turn is presented otherwise). It
draws the turn on the chat's screen under the answer, with ``note`` said first in the same
message, and offers a person when the customer is stuck at one question (``human_request``).
An answer to a question whose order housekeeping dropped starts a new order in the chat
service instead (``ChatService.handle``'s ``restart``), and ``restart`` draws its first turn.
Everything the reply needs of the answer travels in it, so the chat service calls nothing back
in the conversation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.telegram.chat_screen import ChatScreen
from bot.telegram.human_request import HumanRequests
from conversations import Answer, CommandAnswer, Prompt, Turn


@dataclass(eq=False)
class AnswerReply:
    """Shows the turn of ``answer`` in ``chat_id``; ``asked`` is the question the chat showed
    when the answer came (a person is offered when the turn asks it again, stuck), ``humans``
    the way to a person (None: none is offered); ``language`` the customer's client's language
    code, in whose catalogue the turn is drawn. ``dropped``: the sentence a new order that
    replaces a dropped one opens with (``restart``); ``restarted`` once one was drawn."""

    screen: ChatScreen
    chat_id: int
    answer: Answer
    asked: Prompt | None
    language: str | None
    note: str | None = None
    humans: HumanRequests | None = None
    dropped: str | None = None
    restarted: bool = field(default=False, init=False)

    async def __call__(self, turn: Turn) -> None:
        """Draw ``turn`` (``ChatService.handle``'s ``reply``)."""
        if self.note is not None:  # with the turn, in the same message: one reply
            turn = turn.model_copy(update={"messages": (self.note, *turn.messages)})
        await self.screen.show(self.chat_id, turn, self.answer, language=self.language)
        # A command (/help, /back) is no wrong answer; only an answer asked again counts.
        if (
            self.humans is not None
            and not isinstance(self.answer, CommandAnswer)
            and self.humans.stuck(self.asked, turn)
        ):
            # Stuck at one question: a person may help.
            await self.humans.offer(self.chat_id, self.language)

    async def restart(self, turn: Turn) -> None:
        """Draw ``turn``, the first of the new order that replaced one housekeeping dropped
        while the chat still showed its question (``ChatService.handle``'s ``restart``): that
        view is forgotten, and the turn opens with ``dropped``."""
        self.restarted = True
        self.screen.forget(self.chat_id)
        self.screen.remember(self.chat_id).session_id = None  # a new session: read it again
        if self.dropped is not None:
            turn = turn.model_copy(update={"messages": (self.dropped, *turn.messages)})
        await self.screen.show(self.chat_id, turn, language=self.language)
