"""Telegram as the relay's channel: ``TelegramSender`` and its ``RateLimiter`` by ``ChatRef``.

The relay names every chat by its channel (``bot.chat_ref``); Telegram's sender and limiter
know a chat by Telegram's id alone. ``bot.channels.Channels`` hands this channel the chats
named under ``telegram``, so a ref's ``id`` is Telegram's chat id.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.chat_ref import ChatRef
from bot.relay.asking import Asking
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.telegram.limits import RateLimiter
from bot.telegram.message_sender import Blocked, NotDelivered, TelegramSender
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage


class TelegramRelayChannel:
    """The relay's ``Channel`` (and ``PacedChannel``) over a ``TelegramSender``."""

    def __init__(self, sender: TelegramSender) -> None:
        self._sender = sender

    async def send(self, chat: ChatRef, text: str) -> int | None:
        """``TelegramSender.send`` to the chat's Telegram id."""
        return await self._sender.send(chat.id, text)

    async def ask(self, chat: ChatRef, text: str, asking: Asking) -> int | None:
        """``text`` with ``asking``'s choices as inline buttons, one a row (``quote_taps``
        answers a tap)."""
        rows = [[InlineKeyboardButton(c.label, callback_data=c.data)] for c in asking.choices]
        message = OutgoingMessage(escape(text), InlineKeyboardMarkup(rows))
        result = await self._sender.send_message(chat.id, message)
        if isinstance(result, Blocked):
            raise ChatUnreachable(result.reason)
        if isinstance(result, NotDelivered):
            raise SendFailed(result.reason)
        return result.message_id

    def send_delay(self, chat: ChatRef) -> float:
        """``TelegramSender.send_delay`` of the chat's Telegram id."""
        return self._sender.send_delay(chat.id)

    def otp_link(self, token: str) -> str:
        """The bot's deep link for a drop-off code hand-off (``TelegramSender.otp_link``)."""
        return self._sender.otp_link(token)


class TelegramTurns:
    """The relay's ``ChatTurns`` taken in a ``RateLimiter`` (Telegram's sending limits)."""

    def __init__(self, limiter: RateLimiter) -> None:
        self._limiter = limiter

    async def reserve(self, chat: ChatRef) -> float:
        """``RateLimiter.reserve`` of the chat's Telegram id."""
        return await self._limiter.reserve(chat.id)

    def release(self, chat: ChatRef) -> None:
        """``RateLimiter.release`` of the chat's Telegram id."""
        self._limiter.release(chat.id)
