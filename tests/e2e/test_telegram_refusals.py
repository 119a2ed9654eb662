"""Telegram saying no: 429 is waited out for that chat, 403 is recorded; the bot goes on."""

from __future__ import annotations

from bot.chat_ref import ChatRef
from tests.e2e.conftest import ADA, CHIDI, OPERATORS, BotStack


async def test_a_429_is_waited_out_and_the_message_still_arrives(stack: BotStack) -> None:
    stack.tg.fail_next("sendMessage", error_code=429, retry_after=7, chat_id=ADA.id)

    reply = await stack.command(ADA, "new")

    assert [m.text for m in reply] == ["What would you like to order?"]
    refused = [c for c in stack.tg.calls("sendMessage") if c.error_code == 429]
    assert len(refused) == 1
    assert 7 in stack.time.slept  # Telegram's retry_after, honoured for that chat
    (other_chat,) = await stack.command(CHIDI, "help")  # other chats were never held up
    assert other_chat.text is not None and other_chat.text.startswith("I take delivery")


async def test_a_blocked_chat_is_recorded_and_unblocked_when_the_user_returns(
    stack: BotStack,
) -> None:
    await stack.command(ADA, "new")
    stack.tg.block_chat(ADA.id)

    assert await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery") == []
    assert await stack.bot.store.blocked.is_blocked(ChatRef("telegram", ADA.id))
    assert any(c.error_code == 403 for c in stack.tg.calls("sendMessage"))

    stack.tg.unblock_chat(ADA.id)
    reply = await stack.command(ADA, "start")  # writing again proves the bot is unblocked

    assert not await stack.bot.store.blocked.is_blocked(ChatRef("telegram", ADA.id))
    # The tap still counted: the next question (the pickup place) is shown.
    (shown,) = reply
    assert (shown.text or "").startswith(
        "Welcome back! Here is where we were:\n\nWhere should the rider pick the package up?"
    )


async def test_relayed_news_to_a_blocked_chat_is_dropped_without_holding_others(
    stack: BotStack,
) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    stack.tg.block_chat(ADA.id)
    operators_before = len(stack.tg.sent_messages(OPERATORS.id))

    stack.sandbox.mark_paid(delivery_id)
    await stack.sandbox.drain_webhooks()
    await stack.deliver_events()

    assert await stack.bot.store.blocked.is_blocked(ChatRef("telegram", ADA.id))
    assert (await stack.bot.store.inbox.counts()).pending == 0  # not retried for ever
    assert len(stack.tg.sent_messages(OPERATORS.id)) > operators_before
