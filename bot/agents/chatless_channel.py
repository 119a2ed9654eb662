"""``ChatlessChannel``: the relay's channel in a process without a messenger (a bot that takes
orders only through agent channels, and ``deliverybot mcp``).

It is registered as the messenger (``log_messenger``): agent conversations never reach it (the
agent channels own them and keep their events in the store). What
would have gone to Telegram operators is logged instead, one WARNING line each: event
summaries, agent notes, alerts. A message for any other chat (a Telegram customer's, from a
time this bot had a token) is not delivered and its text is not logged, since it may carry a
drop-off code; the log says only that it was dropped. There is no drop-off code hand-off
without a messenger: ``otp_link`` is empty, and the relay tells the agent so.

The relay and the operator alerts address operators' messages to ``OPERATOR_LOG`` (the only
operator ``CoreSettings.from_config`` gives such a bot), so each is logged once, the relay's
under its sent markers like any message.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.channels import NO_HANDOFF, ChannelRegistration
from bot.chat_ref import ChatRef

log = logging.getLogger(__name__)

# The one operator "chat" of a bot without Telegram: the log. 0 is no Telegram chat's id.
OPERATOR_LOG = 0


def one_line(text: str) -> str:
    """``text`` on one log line: its lines joined by `` / ``."""
    return " / ".join(part.strip() for part in text.splitlines() if part.strip())


class ChatlessChannel:
    """A relay ``Channel`` that writes operators' messages to the log; see the module."""

    def __init__(self, operators: Iterable[int] = (OPERATOR_LOG,)) -> None:
        self._operators = frozenset(operators)

    async def send(self, chat: ChatRef, text: str) -> int | None:
        if chat.id in self._operators:
            log.warning("for operators (no Telegram): %s", one_line(text))
        else:
            log.warning("message for chat %s dropped: this bot has no Telegram", chat.id)
        return None

    def otp_link(self, token: str) -> str:
        return NO_HANDOFF


def log_messenger() -> ChannelRegistration:
    """The messenger of a bot without one: operators' messages to the log."""
    return ChannelRegistration("log", ChatlessChannel())
