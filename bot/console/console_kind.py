"""The terminal console as the core knows it: its name, its chats' lock tag, what it can do."""

from __future__ import annotations

from typing import Final

from bot.channel_kind import ChannelCapabilities, ChannelKind
from bot.chat_ref import CONSOLE

CONSOLE_KIND: Final = ChannelKind(
    CONSOLE,
    lock_tag=1,
    # A terminal proves nothing, draws no buttons (choices are typed) and shares no location;
    # it prints a message of any length, but the flows write for the messengers' 4096.
    capabilities=ChannelCapabilities(),
)
"""The ``console`` channel (the embedded demo): its registration (``bot.demo``) carries it."""
