"""A pick from the "Pick on the map" page, answered as one reply (``Conversation._map_pick``).

A saved place with its unit is two answers to the engine (the place, then the unit), but one
act of the customer's: the unit question between them is never drawn (asking "Which room?"
with the room already given, and 81 buttons, reads as if the pick were lost). The reply is the
turn after the last answer the pick makes, with the place named in one line first
(``picks.picked_line``): in the chat the pick shows only as Telegram's "data sent" line.

Whatever the pick leaves open (a place outside the area, a unit the list does not have, a
pin without its address) is drawn as the engine asks it, as for the same answers typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.ordering.chats import ChatService
from bot.webapp.picks import PagePick, picked_line
from conversations import Answer, Session, Turn
from conversations.texts.catalogue import Catalogue


@dataclass
class MapPickTurns:
    """The turns of one pick, for the open question it answers (``open``)."""

    chats: ChatService
    chat: ChatRef
    pick: PagePick
    title: str  # the place question's title ("Drop-off place"), for the echo
    catalogue: Catalogue  # the customer's, the echo is said from it
    unit_version: int | None = None  # the unit question the pick answers next, once asked

    @classmethod
    async def open(
        cls, catalogue: Catalogue, chats: ChatService, chat: ChatRef, pick: PagePick
    ) -> MapPickTurns | None:
        """The pick's turns, when it answers the chat's open question (else None: the engine
        refuses it as any stale answer, and says why); the question's title from the turn's
        ``catalogue``."""
        session = await chats.session(chat)
        if session is None or (session.step, session.prompt_version) != (pick.step, pick.version):
            return None
        flow = chats.engine.registry.get(session.flow)
        if flow is None or pick.step not in flow:
            return None
        return cls(chats, chat, pick, flow.step(pick.step).said_title(catalogue), catalogue)

    async def after_place(self, turn: Turn) -> Turn | None:
        """What the place's turn shows: nothing when it asks the unit the pick has."""
        session = await self.chats.session(self.chat)
        asks_unit = session is not None and session.step == self.pick.names.unit
        if self.pick.saved is not None and session is not None and asks_unit:
            self.unit_version = session.prompt_version
            return None
        return self._echoed(turn, session)

    def unit_answer(self) -> Answer | None:
        """The pick's answer to its saved place's unit question, once that was asked."""
        if self.unit_version is None:
            return None
        return self.pick.unit_answer(self.pick.names.unit, self.unit_version)

    async def after_unit(self, turn: Turn) -> Turn:
        """What the unit's turn shows: the place named first, once it is taken."""
        return self._echoed(turn, await self.chats.session(self.chat))

    def _echoed(self, turn: Turn, session: Session | None) -> Turn:
        line = (
            None
            if session is None
            else picked_line(self.catalogue, session, self.pick.names, self.title)
        )
        if line is None:
            return turn
        return turn.model_copy(update={"messages": (line, *turn.messages)})
