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


class CustomerWindows(Protocol):
    """The customer-service window: 24 hours from a customer's last message, inside which any
    message may be sent; outside it, only an approved template."""

    async def customer_wrote(self, chat: ChatRef, at: float) -> None:
        """``chat``'s customer sent a message at ``at`` (Unix seconds): the window reopens."""
        ...

    async def is_open(self, chat: ChatRef) -> bool:
        """Whether a message other than a template may be sent to ``chat`` now."""
        ...


class StaffReplies(Protocol):
    """A person's answer to a customer's hand-off: a plain message inside the window, the
    approved reply template outside it (``news.WhatsAppNews.reply``)."""

    async def reply(self, chat: ChatRef, text: str, *, language: str | None = None) -> str:
        """Send ``text`` to ``chat``; WhatsApp's id for the last message sent."""
        ...


class OtpClaims(Protocol):
    """The drop-off code's hand-off on WhatsApp: a receiver opens the link (a wa.me chat with
    the claim typed in), sends it, and gets the code when their number is the delivery's
    ``receiver_phone``."""

    def link(self, token: str) -> str:
        """The link a receiver opens to claim the code (``token`` from ``store.otp``)."""
        ...

    async def claim(self, message: InboundMessage) -> bool:
        """Answer ``message`` when it is a claim (True); False when it is not one."""
        ...
