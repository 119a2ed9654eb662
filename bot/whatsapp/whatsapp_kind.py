"""WhatsApp as the core knows it: its name, its chats' lock tag and what it can do."""

from __future__ import annotations

from typing import Final

from bot.channel_kind import ChannelCapabilities, ChannelKind
from bot.chat_ref import WHATSAPP
from bot.whatsapp.outgoing import MAX_BUTTONS, MAX_TEXT_LENGTH

WHATSAPP_KIND: Final = ChannelKind(
    WHATSAPP,
    lock_tag=4,
    capabilities=ChannelCapabilities(
        # The sender's number is WhatsApp's own: a message cannot come from another number.
        proves_phone=True,
        buttons_per_message=MAX_BUTTONS,
        message_length=MAX_TEXT_LENGTH,
    ),
)
"""The ``whatsapp`` channel: its registration carries it."""
