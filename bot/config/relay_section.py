"""``[relay]`` and its sub-tables: which Partner API events become chat messages, for whom."""

from __future__ import annotations

from typing import get_args

from pydantic import Field

from bot.config.section import Section
from bot.partner.vocabulary import EventType


class CustomerRelay(Section):
    """``[relay.customer]``: what a customer's chat is told about their delivery."""

    status_updates: bool = True
    customer_message_hint: bool = True
    tracking_link: bool = True


class OperatorRelay(Section):
    """``[relay.operators]``: what the operator chats are told about each event."""

    summary: bool = True
    agent_notes: bool = True
    events: list[EventType] = Field(default_factory=lambda: list(get_args(EventType)))


class RelayConfig(Section):
    """``[relay]``: turning Partner API events into chat messages."""

    polling_interval_seconds: float = Field(60.0, ge=10, le=3600)
    # As the dashboard's "OTP via webhook only" switch: the codes come to the bot, which hands
    # them over by a link, instead of the service texting them. The summary says which.
    otp_via_webhook: bool = False
    customer: CustomerRelay
    operators: OperatorRelay
