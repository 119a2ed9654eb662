"""Telegram as the relay's channel: ``TelegramSender`` and its ``RateLimiter`` by ``ChatRef``.

The relay names every chat by its channel (``bot.chat_ref``); Telegram's sender and limiter
know a chat by Telegram's id alone. ``bot.channels.Channels`` hands this channel the chats
named under ``telegram``, so a ref's ``id`` is Telegram's chat id.
"""

from __future__ import annotations

from bot.chat_ref import ChatRef
from bot.telegram.limits import RateLimiter
from bot.telegram.message_sender import TelegramSender


class TelegramRelayChannel:
    """The relay's ``Channel`` (and ``PacedChannel``) over a ``TelegramSender``."""

    def __init__(self, sender: TelegramSender) -> None:
        self._sender = sender

    async def send(self, chat: ChatRef, text: str) -> int | None:
        """``TelegramSender.send`` to the chat's Telegram id."""
        return await self._sender.send(chat.id, text)

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
