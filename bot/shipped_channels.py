"""The kinds of every channel this bot ships (``bot.channel_kind``), each declared by its own
module.

A store is told them all when it opens (``open_store(..., channels=...)``): PostgreSQL's chat
locks are keyed by a channel's tag, and a process may lock a chat of a channel it does not run
(``deliverybot customers block`` of a Telegram customer, ``deliverybot mcp`` following up a
Telegram chat's lost create), so every process must key it alike. A new channel adds its kind
here, one line; the kinds' tags are checked unique as the store is told them.
"""

from __future__ import annotations

from typing import Final

from bot.agents.agents_wiring import AGENTS_KIND
from bot.agents.chatless_channel import LOG_KIND
from bot.channel_kind import ChannelKind
from bot.console.console_kind import CONSOLE_KIND
from bot.telegram.telegram_kind import TELEGRAM_KIND

SHIPPED_CHANNEL_KINDS: Final[tuple[ChannelKind, ...]] = (
    TELEGRAM_KIND,
    CONSOLE_KIND,
    AGENTS_KIND,
    LOG_KIND,
)
