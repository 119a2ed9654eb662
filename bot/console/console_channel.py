"""``ConsoleChannel``: the relay's ``Channel`` for the terminal, so webhook events reach the
same screen as the conversation: the customer's updates as ``bot:``, the operators' summaries
and agent notes as ``ops:``."""

from __future__ import annotations

from collections.abc import Mapping

from bot.chat_ref import ChatRef
from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.ordering.receiver_handoff import handoff_payload


class ConsoleChannel:
    """Writes each message to ``screen`` under the name ``names`` gives its chat."""

    def __init__(self, screen: Screen, names: Mapping[int, str]) -> None:
        """``names`` by the chats' ids (the relay names the console's chats by the id alone)."""
        self._screen = screen
        self._names = dict(names)
        self._sent = 0

    async def send(self, chat: ChatRef, text: str) -> int:
        self._screen.write(said(text, self._names.get(chat.id, f"chat {chat.id}")))
        self._sent += 1
        return self._sent

    def otp_link(self, token: str) -> str:
        # Typed back into the console, it opens the hand-off (``parse_line``).
        return f"/start {handoff_payload(token)}"
