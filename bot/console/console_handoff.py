"""The hand-off's two sides in the terminal (``bot.handoff.sides``): the console's customer,
and the demo's scripted staff (``:staff`` commands), both drawn on the same screen."""

from __future__ import annotations

from collections.abc import Callable

from bot.chat_ref import ChatRef
from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.handoff.bodies import Body, one_line
from bot.store.handoffs import Handoff, StaffPost
from conversations import Turn

STAFF = "staff"  # how the screen names what staff see


class ConsoleCustomers:
    """The console's customer: what staff write is the bot's line; a turn is shown by
    ``show`` (the console chat's own drawing)."""

    def __init__(self, screen: Screen, show: Callable[[Turn], None]) -> None:
        self._screen = screen
        self._show = show

    async def send(self, chat: ChatRef, body: Body) -> bool:
        self._screen.write(said(one_line(body)))
        return True

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        self._show(turn)

    async def answered(self, chat: ChatRef, turn: Turn) -> None:
        """Nothing now: the order is shown again when the hand-off closes."""


class ConsoleStaff:
    """The demo's staff: their card and the customer's messages, shown as ``staff:`` lines
    in the operators' "chat" ``chat``."""

    def __init__(self, screen: Screen, chat: ChatRef) -> None:
        self._screen = screen
        self._chat = chat
        self._posts = 0

    async def post(self, handoff: Handoff, card: str) -> StaffPost | None:
        self._screen.write(said(card, STAFF))
        self._posts += 1
        return StaffPost(self._chat, self._posts)

    async def redraw(self, handoff: Handoff, card: str) -> None:
        self._screen.write(said(card.splitlines()[-1] if card else card, STAFF))

    async def send(self, handoff: Handoff, body: Body) -> bool:
        self._screen.write(said(f"#{handoff.ref} customer: {one_line(body)}", STAFF))
        return True

    async def tell(self, handoff: Handoff, text: str) -> None:
        self._screen.write(said(text, STAFF))
