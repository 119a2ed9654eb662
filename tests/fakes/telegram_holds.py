"""Calls the fake holds unanswered: a bot killed while Telegram has its request.

``FakeTelegram.hold_next`` plans one: the next call of a method to a chat whose text contains
some words arrives, is never carried out (nothing is sent to the chat) and never answered, so
its client waits until it goes away. The test learns it arrived from the returned event, and
kills the bot then.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .telegram_wire import JSONDict


@dataclass
class _Hold:
    method: str
    chat_id: int
    containing: str
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


class HoldPlan:
    """Planned holds, each taken by the first call that matches it."""

    def __init__(self) -> None:
        self._holds: list[_Hold] = []

    def add(self, method: str, chat_id: int, containing: str) -> asyncio.Event:
        """Plan a hold; the event is set once the held call has arrived."""
        hold = _Hold(method, chat_id, containing)
        self._holds.append(hold)
        return hold.arrived

    def take(self, method: str, params: JSONDict) -> asyncio.Event | None:
        """The event of the hold this call matches (used up), or None."""
        for hold in self._holds:
            if (
                hold.method == method
                and str(params.get("chat_id")) == str(hold.chat_id)
                and hold.containing in str(params.get("text") or params.get("caption") or "")
            ):
                self._holds.remove(hold)
                return hold.arrived
        return None
