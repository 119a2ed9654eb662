"""The bot process restarting, or dying, in the middle of things."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from tests.e2e.conftest import ADA, OPERATORS, BotStack, MakeStack


async def test_a_restart_mid_flow_resumes_at_the_same_step(stack: BotStack) -> None:
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    await stack.tap(stack.prompt(ADA.id), "UNILAG Main Gate")
    asked = stack.prompt(ADA.id)  # the drop-off question, drawn before the restart
    assert asked.text is not None and asked.text.startswith("Where should the rider deliver it?")

    await stack.restart()

    # A button of the keyboard drawn by the old process answers the same question.
    reply = await stack.tap(asked, "Ikeja City Mall")
    assert reply[-1].text == "Shop number (optional)? Type it (or skip)."
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None
    assert session.answers["dropoff_place"]["location"]["name"] == "Ikeja City Mall"

    await stack.restart()

    # Typing goes on just as well after another restart.
    reply = await stack.text(ADA, "Shop 12")
    assert reply[0].text is not None and reply[0].text.startswith("What is your name?")
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "sender_name"


async def test_start_after_a_restart_shows_where_the_order_was(stack: BotStack) -> None:
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "Errand: we buy it for you")

    await stack.restart()
    reply = await stack.command(ADA, "start")

    (message,) = reply
    assert message.text == "Welcome back! Here is where we were:\n\nWhat kind of errand?"
    assert message.message_id == stack.prompt(ADA.id).message_id


async def test_events_stored_before_a_crash_are_sent_once_after_it(make_stack: MakeStack) -> None:
    stack = await make_stack(workers=False)  # this process never gets to relay
    delivery_id = await stack.order(ADA)
    stack.sandbox.mark_paid(delivery_id)
    await stack.sandbox.drain_webhooks()  # stored in the inbox and acknowledged
    assert (await stack.bot.store.inbox.counts()).pending >= 3
    already = len(stack.tg.sent_messages(ADA.id))

    await stack.restart(workers=True)  # the new process relays what the old one stored
    await stack.tg.wait_for_message(ADA.id, lambda m: "received your payment" in (m.text or ""))
    assert await stack.deliver_events() == 0
    await stack.restart()
    assert await stack.deliver_events() == 0

    # The payment and the drop-off code's link (the rider was named by the answer to the order).
    sent = [m.text for m in stack.tg.sent_messages(ADA.id)[already:]]
    assert len(sent) == len(set(sent)) >= 2
    assert (await stack.bot.store.inbox.counts()).pending == 0


class ProcessDied(BaseException):
    """The process is killed: nothing catches it, nothing after it runs."""


async def test_a_crash_in_the_middle_of_an_event_sends_only_what_is_missing(
    make_stack: MakeStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack = await make_stack(workers=False)
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()  # the create's own events, relayed in full
    stack.sandbox.mark_paid(delivery_id)
    await stack.sandbox.drain_webhooks()
    before = {chat: len(stack.tg.sent_messages(chat)) for chat in (ADA.id, OPERATORS.id)}

    sender = stack.bot.ctx.sender
    real_send = sender.send
    sends = 0
    first_out = asyncio.Event()

    async def send_then_die(chat_id: int, text: str) -> int | None:
        nonlocal sends
        sends += 1
        if sends >= 2:  # one message went out; the process dies before the next
            # The relay sends to different chats at once: die once the first is out, and a
            # dead process sends nothing more.
            await first_out.wait()
            raise ProcessDied
        message_id = await real_send(chat_id, text)
        first_out.set()
        return message_id

    monkeypatch.setattr(sender, "send", send_then_die)
    with pytest.raises(ProcessDied):
        await stack.bot.relay.process_pending()
    monkeypatch.undo()

    await stack.restart()
    await stack.deliver_events()

    relayed = [
        (chat, m.text)
        for chat in (ADA.id, OPERATORS.id)
        for m in stack.tg.sent_messages(chat)[before[chat] :]
    ]
    assert len(relayed) >= 3  # the customer's news, and the operators' summary and notes
    print(relayed)
    assert Counter(relayed).most_common(1)[0][1] == 1  # the message sent before dying: once
