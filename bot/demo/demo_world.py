"""``DemoWorld``: the demo as its commands (``demo_commands``) and facts (``facts``) reach it.

``DemoStack`` is one; the commands and facts name this protocol instead of the stack, which
calls them, so the three modules do not import each other in a circle.
"""

from __future__ import annotations

from typing import Protocol

from bot.console.console_screen import Screen
from bot.demo.demo_bot import DemoBot, DemoOptions
from bot.sandbox import Sandbox


class DemoWorld(Protocol):
    """The sandbox, the screen and the running bot of a demo, and its customer's deliveries."""

    options: DemoOptions
    sandbox: Sandbox
    screen: Screen
    customer_chat: int
    quit: bool

    @property
    def bot(self) -> DemoBot:
        """The bot process running now."""
        ...

    async def restart(self) -> None:
        """Stop the bot side and start it again over the same store."""
        ...

    def later(self, seconds: float) -> bool:
        """Move the demo's time on by ``seconds``; False when it cannot be moved."""
        ...

    def ride(self, seconds: float) -> None:
        """Move the demo's time on by ``seconds`` while a rider rides."""
        ...

    async def delivery_id_for(self, typed: str) -> str:
        """The customer's delivery a typed short reference names, else ``typed``."""
        ...

    async def last_delivery_id(self) -> str | None:
        """The customer's latest delivery, if any."""
        ...
