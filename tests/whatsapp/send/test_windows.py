"""The customer-service window, kept in the store (``StoredWindows`` over
``store.whatsapp_windows``) on both backends."""

from __future__ import annotations

import pytest

from bot.chat_ref import TELEGRAM, ChatRef
from bot.whatsapp.windows import DEFAULT_MARGIN, WINDOW_SECONDS

from .conftest import CHAT, Sending


async def test_a_customer_who_wrote_has_the_window_open_for_24_hours_less_the_margin(
    sending: Sending,
) -> None:
    windows, clock = sending.windows, sending.clock
    assert not await windows.is_open(CHAT)

    await windows.customer_wrote(CHAT, clock())
    assert await windows.is_open(CHAT)
    clock.advance(WINDOW_SECONDS - DEFAULT_MARGIN - 1)
    assert await windows.is_open(CHAT)
    clock.advance(1)
    assert not await windows.is_open(CHAT)


async def test_an_older_message_handled_late_does_not_move_the_window_back(
    sending: Sending,
) -> None:
    windows, clock = sending.windows, sending.clock
    await windows.customer_wrote(CHAT, clock())
    await windows.customer_wrote(CHAT, clock() - 20 * 3600)  # redelivered, or handled late
    clock.advance(WINDOW_SECONDS - DEFAULT_MARGIN - 1)
    assert await windows.is_open(CHAT)


async def test_a_window_is_the_customers_own_and_the_store_keeps_it(sending: Sending) -> None:
    windows, clock = sending.windows, sending.clock
    await windows.customer_wrote(CHAT, clock())
    other = ChatRef(CHAT.channel, CHAT.id + 1)
    assert not await windows.is_open(other)
    # Another instance reads the same row.
    assert await sending.store.whatsapp_windows.last_message_at(CHAT.id) == clock()
    with pytest.raises(ValueError, match="not a WhatsApp chat"):
        await windows.is_open(ChatRef(TELEGRAM, CHAT.id))


async def test_closed_windows_are_forgotten_after_two_days(sending: Sending) -> None:
    windows, clock = sending.windows, sending.clock
    await windows.customer_wrote(CHAT, clock())
    clock.advance(WINDOW_SECONDS)
    assert await windows.forget_closed() == 0
    clock.advance(WINDOW_SECONDS + 1)
    assert await windows.forget_closed() == 1
    assert await sending.store.whatsapp_windows.last_message_at(CHAT.id) is None
