"""``DemoCustomer``: the customer's side of the demo, whichever channel they order through.

``DemoStack`` types the customer's lines, reads the open question's choices and opens drop-off
code links through this protocol, never asking which channel it has: ``ConsoleCustomer`` (the
terminal console, ``bot.console``) is one, ``WhatsAppCustomer`` (a WhatsApp customer on the
simulated Cloud API, ``whatsapp_customer``) the other. ``DemoOptions.channel`` chooses.
"""

from __future__ import annotations

from typing import Protocol

from bot.chat_ref import ChatRef, UserRef
from bot.console.console_channel import ConsoleChannel
from bot.console.console_chat import ConsoleChat
from bot.store.otp_handoffs import OtpHandoff


class DemoCustomer(Protocol):
    """The customer as the demo drives them."""

    @property
    def chat(self) -> ChatRef:
        """The customer's chat with the bot."""
        ...

    @property
    def user(self) -> UserRef:
        """The customer."""
        ...

    @property
    def status(self) -> str | None:
        """How the last conversation ended (``created`` ...), where the channel tells it."""
        ...

    async def open(self) -> None:
        """The chat as the customer finds it when the bot starts (a greeting, or the order
        where it was)."""
        ...

    async def send(self, line: str) -> None:
        """The customer types ``line`` (no ``:`` command) and the bot takes it."""
        ...

    async def settle(self) -> None:
        """Show what reached the customer since the last line, once the channel's own work
        it set off (statuses, follow-ups) is done."""
        ...

    def option_labels(self) -> list[str]:
        """The labels of the choices on screen."""
        ...

    def link_sent(self, ref: str) -> str | None:
        """The drop-off code link the customer was sent for delivery ``ref``, if any."""
        ...

    def otp_link(self, token: str) -> str:
        """The drop-off code link of the hand-off ``token``, as the customer was sent it."""
        ...

    async def open_link(self, handoff: OtpHandoff) -> None:
        """The receiver opens ``handoff``'s link (``otp_link``)."""
        ...

    async def aclose(self) -> None:
        """Close what this run of the customer's channel opened."""
        ...


class ConsoleCustomer:
    """``DemoCustomer`` at the terminal console: ``console`` draws the turns, ``channel``
    prints the relay's news (and keeps the links it printed)."""

    def __init__(self, console: ConsoleChat, channel: ConsoleChannel) -> None:
        self.console = console
        self.channel = channel

    @property
    def chat(self) -> ChatRef:
        return self.console.chat

    @property
    def user(self) -> UserRef:
        return self.console.user

    @property
    def status(self) -> str | None:
        return self.console.status

    async def open(self) -> None:
        await self.console.open()

    async def send(self, line: str) -> None:
        await self.console.send(line)

    async def settle(self) -> None:
        """Nothing: the console draws each turn as it is made."""

    def option_labels(self) -> list[str]:
        prompt = self.console.prompt
        return [option.label for option in prompt.options] if prompt else []

    def link_sent(self, ref: str) -> str | None:
        return self.channel.links_sent.get(ref)

    def otp_link(self, token: str) -> str:
        return self.channel.otp_link(token)

    async def open_link(self, handoff: OtpHandoff) -> None:
        # The console's link is a line typed back into it (the receiver shares their phone
        # next, with ``contact``).
        await self.console.send(self.otp_link(handoff.token))

    async def aclose(self) -> None:
        """Nothing: the console opened nothing of its own."""
