"""The two sides of a hand-off, as the desk (``desk``) sees them: the customer's channel, and
the staff's chat. Each channel implements them its own way (``bot.telegram.handoff_sides``;
the console's scripted staff in the demo)."""

from __future__ import annotations

from typing import Protocol

from bot.chat_ref import ChatRef
from bot.handoff.bodies import Body
from bot.store.handoffs import Handoff, StaffPost
from conversations import Turn


class CustomerSide(Protocol):
    """How the desk reaches the customers of one channel."""

    async def send(self, chat: ChatRef, body: Body) -> bool:
        """Send ``body`` to the customer's chat; False when it could not be delivered (the
        chat blocked the bot): it is not tried again."""
        ...

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        """Show a turn of the customer's order (its open question again, after a close), for
        a customer whose client says ``language`` (the hand-off's)."""
        ...

    async def answered(self, chat: ChatRef, turn: Turn) -> None:
        """Staff answered the order's open question for the customer (``fill``); ``turn`` is
        what followed. A chat draws the order again when the hand-off closes (``show``), so it
        may do nothing now; a channel that keeps its own record of the conversation (agents)
        records the turn, or its record would still show the question staff answered."""
        ...


class StaffSide(Protocol):
    """How the desk reaches the business's staff."""

    async def post(self, handoff: Handoff, card: str) -> StaffPost | None:
        """Post a new hand-off's card where staff see it; where it went, or None when no
        staff chat could be reached."""
        ...

    async def redraw(self, handoff: Handoff, card: str) -> None:
        """Draw the card again (it was taken or closed)."""
        ...

    async def send(self, handoff: Handoff, body: Body) -> bool:
        """Pass the customer's ``body`` on to staff, marked with the hand-off's reference."""
        ...

    async def tell(self, handoff: Handoff, text: str) -> None:
        """A line to staff about the hand-off (taken, closed, a refused answer)."""
        ...
