"""The sender against the fake Bot API: limits, 429 per chat or for every chat, 403 recorded,
edits, Channel."""

from __future__ import annotations

import asyncio

import pytest
import telegram
from telegram import ReplyKeyboardRemove
from telegram.warnings import PTBDeprecationWarning

from bot.chat_ref import ChatRef
from bot.relay.channel_protocol import Channel, ChatUnreachable, SendFailed
from bot.store import Store
from bot.telegram.limits import RateLimiter, SendLimits, Window
from bot.telegram.message_sender import Blocked, Delivered, NotDelivered, TelegramSender
from bot.telegram.turn_messages import (
    OutgoingMessage,
    escape,
    render_answered,
    render_prompt,
    render_turn,
)
from conversations import Option, Prompt, Turn
from tests.fakes import FakeTelegram, TgUser
from tests.support.clock import WaitingClock
from tests.support.words import SHIPPED

from .conftest import ALICE, BOB, OPERATORS


@pytest.fixture
def sender(bot: telegram.Bot, store: Store, manual_time: WaitingClock) -> TelegramSender:
    limiter = RateLimiter(SendLimits(), clock=manual_time.clock, sleep=manual_time.sleep)
    return TelegramSender(bot, store, limiter=limiter)


def place_prompt(options: int = 0, version: int = 2) -> Prompt:
    return Prompt(
        step="pickup_place",
        version=version,
        text="Where should the rider pick it up? <Share a pin> & we'll find it.",
        input="place",
        accepts=("location", "choice"),
        options=tuple(Option(id=f"saved:{i}", label=f"Place {i}") for i in range(options)),
        commands=("back",),
    )


async def test_a_rendered_turn_reaches_the_chat_as_telegram_reads_it(
    tg: FakeTelegram, sender: TelegramSender
) -> None:
    drawn = render_turn(
        SHIPPED, Turn(messages=("Got it: 3 < 4 & all.",), prompt=place_prompt(options=2))
    )
    results = await sender.send_messages(ALICE.id, drawn.messages)
    assert all(isinstance(r, Delivered) for r in results)
    (question,) = tg.sent_messages(ALICE.id)
    assert question.text == (
        "Got it: 3 < 4 & all.\n\nWhere should the rider pick it up? <Share a pin> & we'll find it."
    )
    assert question.reply_markup == {
        "keyboard": [
            [{"text": "📍 Share my location", "request_location": True}],
            [{"text": "Place 0"}],
            [{"text": "Place 1"}],
            [{"text": "↩ Back"}],
        ],
        "resize_keyboard": True,
        "one_time_keyboard": True,
    }
    assert drawn.prompt_index is not None
    prompt_result = results[drawn.prompt_index]
    assert prompt_result == Delivered(question.message_id)


async def test_one_chats_messages_keep_their_order_under_concurrency(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    sends = [sender.send_message(ALICE.id, OutgoingMessage(f"m{i}")) for i in range(3)]
    await asyncio.gather(*sends)
    assert [m.text for m in tg.sent_messages(ALICE.id)] == ["m0", "m1", "m2"]


async def test_a_turns_messages_stay_together(
    tg: FakeTelegram, bot: telegram.Bot, store: Store, manual_time: WaitingClock
) -> None:
    roomy = SendLimits(private_chat=Window(10, 1.0))
    sender = TelegramSender(
        bot, store, limiter=RateLimiter(roomy, clock=manual_time.clock, sleep=manual_time.sleep)
    )
    turn = sender.send_messages(ALICE.id, [OutgoingMessage(f"turn {i}") for i in range(3)])
    relay = sender.send(ALICE.id, "status update")
    async with asyncio.timeout(5):
        await asyncio.gather(turn, relay)
    texts = [m.text for m in tg.sent_messages(ALICE.id)]
    assert texts == ["turn 0", "turn 1", "turn 2", "status update"]


async def test_a_429_at_a_chats_busy_window_holds_only_that_chat(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    assert isinstance(await sender.send_message(ALICE.id, OutgoingMessage("hello")), Delivered)
    # Her second message within her window: Telegram's per-chat limit can explain the 429.
    tg.fail_next("sendMessage", retry_after=5, chat_id=ALICE.id)
    to_alice = asyncio.create_task(sender.send_message(ALICE.id, OutgoingMessage("for Alice")))
    await manual_time.sleepers(1)  # Alice's send is waiting out Telegram's 5 seconds
    assert manual_time.slept == [5.0]
    assert sender.limiter.held_for(ALICE.id) == 5.0 and sender.limiter.held_for(BOB.id) == 0.0

    to_bob = await sender.send_message(BOB.id, OutgoingMessage("for Bob"))
    assert isinstance(to_bob, Delivered)
    assert [m.text for m in tg.sent_messages(ALICE.id)] == ["hello"] and not to_alice.done()

    manual_time.advance(5.0)
    result = await to_alice
    sent = tg.sent_messages(ALICE.id)[-1]
    assert result == Delivered(sent.message_id) and sent.text == "for Alice"
    assert [c.status for c in tg.calls("sendMessage")] == [200, 429, 200, 200]


async def test_a_429_to_a_chats_first_message_holds_every_chat(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    # Nothing else went to Alice: her own limit cannot be why; the bot as a whole is over.
    tg.fail_next("sendMessage", retry_after=5, chat_id=ALICE.id)
    to_alice = asyncio.create_task(sender.send_message(ALICE.id, OutgoingMessage("for Alice")))
    await manual_time.sleepers(1)
    assert sender.limiter.held_for(ALICE.id) == 5.0 and sender.limiter.held_for(BOB.id) == 5.0

    to_bob = asyncio.create_task(sender.send_message(BOB.id, OutgoingMessage("for Bob")))
    await manual_time.sleepers(2)  # Bob's send waits for the hold too
    assert tg.sent_messages(BOB.id) == [] and not to_alice.done()

    manual_time.advance(5.0)
    assert isinstance(await to_alice, Delivered) and isinstance(await to_bob, Delivered)
    assert [c.status for c in tg.calls("sendMessage")] == [429, 200, 200]


async def test_429s_to_two_chats_within_a_second_hold_every_chat(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    for user in (ALICE, BOB):  # each chat's window is busy: one 429 alone would be the chat's
        assert isinstance(await sender.send_message(user.id, OutgoingMessage("hi")), Delivered)
    tg.fail_next("sendMessage", retry_after=3, chat_id=ALICE.id)
    to_alice = asyncio.create_task(sender.send_message(ALICE.id, OutgoingMessage("one")))
    await manual_time.sleepers(1)
    assert sender.limiter.held_for(BOB.id) == 0.0
    tg.fail_next("sendMessage", retry_after=4, chat_id=BOB.id)
    to_bob = asyncio.create_task(sender.send_message(BOB.id, OutgoingMessage("two")))
    await manual_time.sleepers(2)
    # A second chat refused within the overall window: every chat waits Telegram's 4 s.
    assert sender.limiter.held_for(OPERATORS.id) == 4.0
    manual_time.advance(4.0)
    assert isinstance(await to_alice, Delivered) and isinstance(await to_bob, Delivered)


async def test_retries_are_bounded(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    tg.fail_next("sendMessage", retry_after=2, chat_id=ALICE.id, count=3)
    sending = asyncio.create_task(sender.send_message(ALICE.id, OutgoingMessage("hi")))
    for _ in range(2):
        await manual_time.sleepers(1)
        manual_time.advance(2.0)
    result = await sending
    assert result == NotDelivered("rate limited", retry_after=2.0)
    assert len(tg.calls("sendMessage")) == SendLimits().max_attempts == 3
    assert tg.sent_messages(ALICE.id) == []
    assert sender.limiter.held_for(ALICE.id) == 2.0  # the next send still waits


async def test_a_very_long_wait_is_not_waited_for(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    tg.fail_next("sendMessage", retry_after=600, chat_id=ALICE.id)
    result = await sender.send_message(ALICE.id, OutgoingMessage("hi"))
    assert result == NotDelivered("rate limited", retry_after=600.0)
    assert manual_time.slept == [] and len(tg.calls("sendMessage")) == 1


async def test_a_process_that_did_not_opt_in_to_timedeltas_reads_the_wait_too(
    tg: FakeTelegram, sender: TelegramSender, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A program embedding the bot without ``deliverybot run``: PTB hands int seconds, and warns.
    monkeypatch.delenv("PTB_TIMEDELTA")
    tg.fail_next("sendMessage", retry_after=600, chat_id=ALICE.id)
    with pytest.warns(PTBDeprecationWarning, match="retry_after"):
        result = await sender.send_message(ALICE.id, OutgoingMessage("hi"))
    assert result == NotDelivered("rate limited", retry_after=600.0)


async def test_a_chat_that_blocked_the_bot_is_recorded_not_raised(
    tg: FakeTelegram, sender: TelegramSender, store: Store
) -> None:
    tg.block_chat(ALICE.id)
    messages = [OutgoingMessage("one"), OutgoingMessage("two")]
    results = await sender.send_messages(ALICE.id, messages)
    assert results == [Blocked(ALICE.id, "Forbidden: bot was blocked by the user")]
    assert len(tg.calls("sendMessage")) == 1  # the second is not tried
    assert await store.blocked.is_blocked(ChatRef("telegram", ALICE.id))
    assert not await store.blocked.is_blocked(ChatRef("telegram", BOB.id))


async def test_a_chat_telegram_does_not_know_is_unreachable(
    sender: TelegramSender, store: Store
) -> None:
    stranger = TgUser(4242, "Nobody")
    result = await sender.send_message(stranger.id, OutgoingMessage("hello"))
    assert result == Blocked(stranger.id, "Chat not found")
    assert await store.blocked.is_blocked(ChatRef("telegram", stranger.id))


async def test_other_refusals_are_results(
    tg: FakeTelegram, sender: TelegramSender, store: Store
) -> None:
    tg.fail_next("sendMessage", error_code=400, description="Bad Request: message is too long")
    result = await sender.send_message(ALICE.id, OutgoingMessage("x"))
    assert result == NotDelivered("Message is too long")
    tg.fail_next("sendMessage", error_code=502)
    assert await sender.send_message(ALICE.id, OutgoingMessage("x")) == NotDelivered("NetworkError")
    assert not await store.blocked.is_blocked(ChatRef("telegram", ALICE.id))


async def test_groups_are_sent_to_like_any_chat(tg: FakeTelegram, sender: TelegramSender) -> None:
    result = await sender.send_message(OPERATORS.id, OutgoingMessage(escape("<b>not bold</b>")))
    (sent,) = tg.sent_messages(OPERATORS.id)
    assert result == Delivered(sent.message_id) and sent.text == "<b>not bold</b>"


# --- edits --------------------------------------------------------------------------------------


async def test_a_page_turn_edits_the_prompt_in_place(
    tg: FakeTelegram, sender: TelegramSender
) -> None:
    asked = place_prompt(options=12)
    first = await sender.send_message(ALICE.id, render_prompt(SHIPPED, asked))
    assert isinstance(first, Delivered)
    result = await sender.edit_message(
        ALICE.id, first.message_id, render_prompt(SHIPPED, asked, page=1)
    )
    assert result == first
    now = tg.message(ALICE.id, first.message_id)
    assert now is not None and now["text"].endswith("Page 2 of 2")
    labels = [b["text"] for row in now["reply_markup"]["inline_keyboard"] for b in row]
    assert labels == ["Place 8", "Place 9", "Place 10", "Place 11", "‹ Prev", "↩ Back"]


async def test_an_answered_prompt_loses_its_keyboard_and_an_unchanged_edit_is_fine(
    tg: FakeTelegram, sender: TelegramSender
) -> None:
    asked = place_prompt(options=2)
    first = await sender.send_message(ALICE.id, render_prompt(SHIPPED, asked))
    assert isinstance(first, Delivered)
    answered = render_answered(SHIPPED, asked)
    assert await sender.edit_message(ALICE.id, first.message_id, answered) == first
    assert await sender.edit_message(ALICE.id, first.message_id, answered) == first
    now = tg.message(ALICE.id, first.message_id)
    assert now is not None and "reply_markup" not in now


async def test_editing_a_message_that_is_gone_is_not_delivered(sender: TelegramSender) -> None:
    result = await sender.edit_message(ALICE.id, 999, OutgoingMessage("x"))
    assert result == NotDelivered("Message to edit not found")


async def test_reply_keyboards_cannot_be_edited_in(sender: TelegramSender) -> None:
    with pytest.raises(ValueError):
        await sender.edit_message(ALICE.id, 1, OutgoingMessage("x", ReplyKeyboardRemove()))


# --- the relay's Channel ------------------------------------------------------------------------


async def test_the_channel_sends_plain_text(tg: FakeTelegram, sender: TelegramSender) -> None:
    channel: Channel = sender
    message_id = await channel.send(ALICE.id, "Your order is <on its way> & fast")
    (sent,) = tg.sent_messages(ALICE.id)
    assert message_id == sent.message_id
    assert sent.text == "Your order is <on its way> & fast"
    assert "parse_mode" not in sent.params


async def test_the_channel_splits_long_text_and_returns_the_last_id(
    tg: FakeTelegram, sender: TelegramSender
) -> None:
    message_id = await sender.send(ALICE.id, "\n".join(["x" * 1000] * 6))
    sent = tg.sent_messages(ALICE.id)
    assert len(sent) == 2 and message_id == sent[-1].message_id


async def test_the_channel_raises_chat_unreachable_for_a_blocked_chat(
    tg: FakeTelegram, sender: TelegramSender, store: Store
) -> None:
    tg.block_chat(BOB.id)
    with pytest.raises(ChatUnreachable):
        await sender.send(BOB.id, "hello")
    assert await store.blocked.is_blocked(ChatRef("telegram", BOB.id))


async def test_the_channel_raises_send_failed_for_what_may_work_later(
    tg: FakeTelegram, sender: TelegramSender
) -> None:
    tg.fail_next("sendMessage", error_code=500)
    with pytest.raises(SendFailed):
        await sender.send(ALICE.id, "hello")


async def test_otp_links_open_the_bot_with_the_token(sender: TelegramSender) -> None:
    assert sender.otp_link("abc123") == "https://t.me/fake_delivery_bot?start=otp_abc123"


async def test_the_bot_token_never_appears_in_results(
    tg: FakeTelegram, sender: TelegramSender
) -> None:
    tg.block_chat(ALICE.id)
    result = await sender.send_message(ALICE.id, OutgoingMessage("x"))
    assert tg.token.split(":")[1] not in repr(result)
