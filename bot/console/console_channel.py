"""``ConsoleChannel``: the relay's ``Channel`` for the terminal, so webhook events reach the
same screen as the conversation: the customer's updates as ``bot:``, the operators' summaries
and agent notes as ``ops:``."""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.chat_ref import ChatRef
from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.ordering.receiver_handoff import handoff_payload

_REF = re.compile(r"\b[0-9A-F]{8}\b")


class ConsoleChannel:
    """Writes each message to ``screen`` under the name ``names`` gives its chat."""

    def __init__(self, screen: Screen, names: Mapping[int, str]) -> None:
        """``names`` by the chats' ids (the relay names the console's chats by the id alone)."""
        self._screen = screen
        self._names = dict(names)
        self._sent = 0
        # The hand-off links sent, by the delivery's short reference: the demo's ``:link``
        # finds one after its hand-off is gone (the delivery finished).
        self.links_sent: dict[str, str] = {}
        self._link = re.compile(re.escape(self.otp_link("")) + r"\S+")

    async def send(self, chat: ChatRef, text: str) -> int:
        self._screen.write(said(text, self._names.get(chat.id, f"chat {chat.id}")))
        link, ref = self._link.search(text), _REF.search(text)
        if link is not None and ref is not None:
            self.links_sent[ref.group(0)] = link.group(0)
        self._sent += 1
        return self._sent

    def otp_link(self, token: str) -> str:
        # Typed back into the console, it opens the hand-off (``parse_line``).
        return f"/start {handoff_payload(token)}"
