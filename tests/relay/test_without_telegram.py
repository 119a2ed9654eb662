"""A bot running without Telegram, on a store that served Telegram customers before: news for
their chats takes the unreachable path (the chat is recorded as blocked, logged once), never a
silent drop, and the operators' log still hears every event (docs/agents.md): by its kind and
references, never by the summary's words."""

from __future__ import annotations

import logging

import pytest

from bot.agents.chatless_channel import ChatlessChannel, log_messenger
from bot.channels import Channels
from bot.chat_ref import OPERATOR_LOG, TELEGRAM, ChatRef
from bot.log_context import log_context
from bot.relay.planner import OTP_WAITING
from bot.store import Store

from .support import CUSTOMER_CHAT, START, MakeRelay, event, link, put

OLD_CUSTOMER = ChatRef(TELEGRAM, CUSTOMER_CHAT)


async def test_news_for_a_telegram_chat_marks_it_unreachable_once_and_operators_still_hear(
    store: Store, make_relay: MakeRelay, caplog: pytest.LogCaptureFixture
) -> None:
    channels = Channels()
    channels.add(log_messenger())  # what ``deliverybot run`` registers without a token
    relay = make_relay(store, channel=channels, operators=[OPERATOR_LOG])
    await link(store, "pending")  # ordered in Telegram, when the bot had a token
    caplog.set_level(logging.INFO)

    await put(store, event("evt_1", "matched", created=START + 1, summary="Matched."))
    await put(store, event("evt_2", "picked_up", created=START + 2, summary="Picked up."))
    assert await relay.process_pending() == 2

    assert await store.blocked.is_blocked(OLD_CUSTOMER)
    assert (await store.inbox.counts()).pending == 0  # nothing is held back for ever
    unreachable = [r for r in caplog.records if "cannot be messaged" in r.getMessage()]
    assert [r.getMessage() for r in unreachable] == [
        f"chat {OLD_CUSTOMER.for_log} cannot be messaged; marked blocked"
    ]
    for_operators = [
        r.getMessage() for r in caplog.records if r.name == "bot.agents.chatless_channel"
    ]
    assert for_operators == [
        f"for operators (no Telegram): news about delivery 3F2A9C1E (event {event_id}), not "
        "logged here: its words may name people and places"
        for event_id in ("evt_1", "evt_2")
    ]


async def test_the_log_names_an_alert_by_its_context_and_keeps_code_notices_whole(
    caplog: pytest.LogCaptureFixture,
) -> None:
    channel = ChatlessChannel()
    caplog.set_level(logging.INFO)

    with log_context(flow="pickup_delivery", step="confirm"):
        await channel.send(OPERATOR_LOG, "Ada Obi (08031234567) at 12 Herbert Macaulay Way")
    notice = "The drop-off code for delivery 3F2A9C1E came by webhook.\nSwitch it off."
    with log_context(delivery="3f2a9c1e-0000", event="evt_9", sending=OTP_WAITING):
        await channel.send(OPERATOR_LOG, notice)

    assert [r.getMessage() for r in caplog.records] == [
        "for operators (no Telegram): an alert (flow pickup_delivery, step confirm), not logged "
        "here: its words may name people and places",
        "for operators (no Telegram): The drop-off code for delivery 3F2A9C1E came by webhook. "
        "/ Switch it off.",
    ]
