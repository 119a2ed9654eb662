"""A reply to a customer's message, sent in order: its messages one after another, stopped
quietly at a number WhatsApp refuses for good (``ChatUnreachable``: the rest would be refused
too). A send to try again later (``SendFailed``) is raised to the caller, as the sender raises it.
"""

from __future__ import annotations

import logging

from bot.chat_ref import ChatRef
from bot.relay.channel_protocol import ChatUnreachable
from bot.whatsapp.contracts import WhatsAppSend
from bot.whatsapp.outgoing import Outgoing, TextMessage
from bot.whatsapp.turn_drawing import split_text

log = logging.getLogger(__name__)


async def send_reply(send: WhatsAppSend, chat: ChatRef, messages: list[Outgoing]) -> None:
    """Send ``messages`` to ``chat`` in order (see the module docstring)."""
    for message in messages:
        try:
            await send.send(chat, message)
        except ChatUnreachable:
            log.info("chat %s cannot be messaged: the reply ends", chat.for_log)
            return


async def say_text(send: WhatsAppSend, chat: ChatRef, text: str) -> None:
    """Send ``text`` to ``chat`` as text messages, split at WhatsApp's length."""
    await send_reply(send, chat, [TextMessage(chunk) for chunk in split_text(text)])
