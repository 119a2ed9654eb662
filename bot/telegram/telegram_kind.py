"""Telegram as the core knows it: its name, its chats' lock tag and what it can do."""

from __future__ import annotations

from typing import Final

from bot.channel_kind import ChannelCapabilities, ChannelKind
from bot.chat_ref import TELEGRAM
from bot.telegram.text import MAX_TEXT_LENGTH

MAX_INLINE_BUTTONS: Final = 100
"""The most buttons Telegram takes in one message's inline keyboard."""

TELEGRAM_KIND: Final = ChannelKind(
    TELEGRAM,
    # 0: a Telegram chat's lock key is its id, as before channels were named.
    lock_tag=0,
    capabilities=ChannelCapabilities(
        proves_phone=True,  # a shared contact carries its account's user id
        forum_topics=True,
        live_locations=True,
        buttons_per_message=MAX_INLINE_BUTTONS,
        message_length=MAX_TEXT_LENGTH,
    ),
)
"""The ``telegram`` channel: its registration (``bot.runtime.wiring``) carries it."""
