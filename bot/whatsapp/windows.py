"""``StoredWindows``: WhatsApp's customer-service window, kept in the store for every instance.

A customer's message opens (or reopens) a window of 24 hours in which the business may send
them anything; outside it only an approved template goes (Meta answers anything else with
131047). The receiving side calls ``customer_wrote`` with each message's own timestamp; the
news asks ``is_open`` before it chooses a plain message or the template.

The window is judged ``margin`` seconds short of its end: a message sent at the last moment
may reach Meta after it, and would come back as a ``failed`` status (then the news goes as a
template anyway, ``statuses``), so the template is chosen a little early instead.
"""

from __future__ import annotations

import time
from typing import Final

from bot.chat_ref import WHATSAPP, ChatRef
from bot.clocks import Clock
from bot.store.whatsapp_windows import WhatsAppWindows

WINDOW_SECONDS: Final = 24 * 3600.0
"""Meta's customer-service window."""
DEFAULT_MARGIN: Final = 300.0


class StoredWindows:
    """``contracts.CustomerWindows`` over ``store.whatsapp_windows``:
    ``StoredWindows(store.whatsapp_windows, clock=time.time)``."""

    def __init__(
        self,
        windows: WhatsAppWindows,
        *,
        clock: Clock = time.time,
        margin: float = DEFAULT_MARGIN,
    ) -> None:
        self._windows = windows
        self._clock = clock  # wall time: Meta's timestamps are Unix seconds
        self._margin = margin

    async def customer_wrote(self, chat: ChatRef, at: float) -> None:
        """``chat``'s customer wrote at ``at`` (Unix seconds): the window runs 24 h from it."""
        await self._windows.wrote(_wa_id(chat), at)

    async def is_open(self, chat: ChatRef) -> bool:
        """Whether a message other than a template may be sent to ``chat`` now."""
        return await self.open_for(chat) > 0

    async def open_for(self, chat: ChatRef) -> float:
        """Seconds the window stays usable (0: closed, or never opened)."""
        last = await self._windows.last_message_at(_wa_id(chat))
        if last is None:
            return 0.0
        return max(0.0, last + WINDOW_SECONDS - self._margin - self._clock())

    async def forget_closed(self) -> int:
        """Drop the windows closed a day or more ago (housekeeping); how many."""
        return await self._windows.forget_before(self._clock() - 2 * WINDOW_SECONDS)


def _wa_id(chat: ChatRef) -> int:
    if chat.channel != WHATSAPP:
        raise ValueError(f"{chat} is not a WhatsApp chat")
    return chat.id
