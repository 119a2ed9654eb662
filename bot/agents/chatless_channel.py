"""``ChatlessChannel``: the relay's channel in a process without a messenger (a bot that takes
orders only through agent channels, and ``deliverybot mcp``).

It is registered as the messenger, under the ``log`` channel (``log_messenger``), whose one chat
is ``OPERATOR_LOG``: what would have gone to Telegram operators is logged instead, one WARNING
line each: event summaries, agent notes, alerts. Agent conversations never reach it (the agent
channels own them and keep their events in the store), and neither does a Telegram customer's
chat from a time this bot had a token: no ``telegram`` channel is registered, so the relay finds
that chat unreachable and records it as blocked (``bot.channels``). There is no drop-off code
hand-off without a messenger: ``otp_link`` is empty, and the relay tells the agent so.

The relay and the operator alerts address operators' messages to ``OPERATOR_LOG`` (the only
operator ``CoreSettings.from_config`` gives such a bot), so each is logged once, the relay's
under its sent markers like any message.
"""

from __future__ import annotations

import logging

from bot.channels import NO_HANDOFF, ChannelRegistration
from bot.chat_ref import LOG, ChatRef

log = logging.getLogger(__name__)

OPERATOR_LOG = ChatRef(LOG, 0)
"""The one operator "chat" of a bot without Telegram: the log."""


def one_line(text: str) -> str:
    """``text`` on one log line: its lines joined by `` / ``."""
    return " / ".join(part.strip() for part in text.splitlines() if part.strip())


class ChatlessChannel:
    """A relay ``Channel`` that writes operators' messages to the log; see the module."""

    async def send(self, chat: ChatRef, text: str) -> int | None:
        """Log ``text`` for the operators (every chat of the ``log`` channel is theirs)."""
        log.warning("for operators (no Telegram): %s", one_line(text))
        return None

    def otp_link(self, token: str) -> str:
        return NO_HANDOFF


def log_messenger() -> ChannelRegistration:
    """The messenger of a bot without one: operators' messages to the log."""
    return ChannelRegistration(LOG, ChatlessChannel())
