"""Where the WhatsApp channel's parts meet: receiving, the conversation, and sending.

* The receiving route (``POST /whatsapp``) stores each ``InboundMessage`` durably, and its
  handling, holding the chat's lock and in order, calls the ``InboundHandler``;
* the conversation (the ``InboundHandler``) answers through ``WhatsAppSend``;
* statuses go to the ``StatusHandler``, which follows up what the bot sent;
* the relay's news goes through the channel's ``Channel.send`` (``bot.relay``), which uses the
  customer-service window and the templates.
"""

from __future__ import annotations

from typing import Protocol

from bot.chat_ref import ChatRef
from bot.whatsapp.inbound import InboundMessage, StatusUpdate
from bot.whatsapp.outgoing import Outgoing


class InboundHandler(Protocol):
    """Answers one customer message; called holding the chat's lock, a chat's messages in the
    order they were stored, each once (its handling recorded with the turn's commit)."""

    async def handle(self, message: InboundMessage) -> None:
        """Take ``message`` to the core and answer it."""
        ...


class StatusHandler(Protocol):
    """Follows up a status WhatsApp reports for a message the bot sent."""

    async def status(self, update: StatusUpdate) -> None:
        """Record ``update``; a ``failed`` message is retried, sent as a template, or
        reported to the operators."""
        ...


class WhatsAppSend(Protocol):
    """Sends the bot's messages to a WhatsApp chat, paced within WhatsApp's limits.

    Raises ``bot.relay.ChatUnreachable`` for a number that cannot be messaged and
    ``bot.relay.SendFailed`` for a message to try again later; never lets a Cloud API error's
    text reach a chat.
    """

    async def send(self, chat: ChatRef, message: Outgoing) -> str:
        """Send ``message`` to ``chat``; WhatsApp's id for it (``wamid.…``)."""
        ...
