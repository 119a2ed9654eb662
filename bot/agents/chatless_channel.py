"""``ChatlessChannel``: the relay's channel in a process without a messenger (a bot that takes
orders only through agent channels, and ``deliverybot mcp``).

It is registered as the messenger, under the ``log`` channel (``log_messenger``), whose one chat
is ``OPERATOR_LOG``: what would have gone to Telegram operators is logged instead, one WARNING
line each, without what they would have read about people and places (the log promises no
names, phones, addresses or parcel texts): a delivery's news (its summary and agent notes) and
an alert are named by their kind and references (the delivery's short reference, the event's
id, the flow and step), from the ``log_context`` the relay sends them under; only the notices
about drop-off codes, which name nothing but a delivery's reference
(``REFERENCE_ONLY_KINDS``), are logged whole. Agent conversations never reach it (the agent
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
from collections.abc import Mapping
from typing import Final

from bot.channel_kind import ChannelKind
from bot.channels import NO_HANDOFF, ChannelRegistration
from bot.chat_ref import LOG, ChatRef
from bot.log_context import current_context
from bot.ordering.alerting import context_named
from bot.relay.planner import OPERATOR_UPDATE, REFERENCE_ONLY_KINDS

log = logging.getLogger(__name__)

LOG_KIND: Final = ChannelKind(LOG, lock_tag=3)
"""The ``log`` messenger of a bot without one: it proves, draws and shares nothing."""


def one_line(text: str) -> str:
    """``text`` on one log line: its lines joined by `` / ``."""
    return " / ".join(part.strip() for part in text.splitlines() if part.strip())


class ChatlessChannel:
    """A relay ``Channel`` that writes operators' messages to the log; see the module."""

    async def send(self, chat: ChatRef, text: str) -> int | None:
        """Log what ``text`` tells the operators (every chat of the ``log`` channel is
        theirs): itself when it names only a delivery's reference, else its kind and
        references."""
        context = current_context()
        if context.get("sending") in REFERENCE_ONLY_KINDS:
            log.warning("for operators (no Telegram): %s", one_line(text))
        else:
            log.warning("for operators (no Telegram): %s", described(context))
        return None

    def otp_link(self, token: str) -> str:
        return NO_HANDOFF


def described(context: Mapping[str, str]) -> str:
    """A message for operators named by its kind and the references in ``context`` (a
    ``log_context``), never by its words: "news about delivery FC645AAD (event evt_1), ..."."""
    kind = context.get("sending")
    if kind == OPERATOR_UPDATE:
        what = "news"
    else:
        what = "an alert" if kind is None else f"a {kind} message"
    return f"{what}{context_named(context)}, not logged here: its words may name people and places"


def log_messenger() -> ChannelRegistration:
    """The messenger of a bot without one: operators' messages to the log."""
    return ChannelRegistration(LOG_KIND, ChatlessChannel())
