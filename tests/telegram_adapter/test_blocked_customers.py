"""Operators stop a customer from Telegram, on both store backends: ``/block`` by a delivery
reference or a Telegram user id, from operator chats only; the blocked customer gets one polite
sentence for anything they send, no flow runs and nothing is created, their draft is dropped and
their existing delivery is still relayed; ``/unblock`` lets them order again. Every action is
in the audit trail."""

from __future__ import annotations

from bot.chat_ref import UserRef
from conversations.texts.deliveries_texts import short_ref
from tests.e2e.conftest import ADA, CHIDI, OLU, OPERATORS, BotStack
from tests.support.words import say
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]

ADA_REF = UserRef("telegram", ADA.id)


async def test_a_blocked_customer_gets_one_sentence_until_unblocked(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    await stack.command(ADA, "new")  # a draft, open when the block comes
    assert await stack.bot.ctx.chats.session(ADA.chat) is not None
    creates = len(stack.partner.creates) if stack.partner else 0

    # Not from a customer's chat: refused, and nobody is blocked.
    (refused,) = await stack.command(CHIDI, "block", str(ADA.id))
    assert refused.text == say("ops.refused")
    assert await stack.bot.store.customer_blocks.get(ADA_REF) is None

    # The reference the chats show; digits alone would name a Telegram user (1 id in 40).
    ref = short_ref(delivery_id) if not short_ref(delivery_id).isdecimal() else delivery_id
    (done,) = await stack.command(OLU, "block", f"{ref} fifty orders an hour", chat=OPERATORS)
    assert done.text == " ".join(
        [say("safety.block_done", customer=ADA_REF), say("safety.drafts_dropped", count=1)]
    )
    assert await stack.bot.ctx.chats.session(ADA.chat) is None

    for sent in (
        stack.command(ADA, "new"),
        stack.command(ADA, "start"),
        stack.command(ADA, "repeat"),
        stack.text(ADA, "hello"),
        stack.location(ADA, 6.5095, 3.3711),
    ):
        (reply,) = await sent
        assert reply.text == say("safety.blocked")
        assert not reply.reply_markup or "inline_keyboard" not in reply.reply_markup
    assert await stack.bot.ctx.chats.session(ADA.chat) is None
    assert stack.partner is not None and len(stack.partner.creates) == creates

    # Their delivery goes on, and they hear how (its first events tell nothing the answer to
    # the order did not: the rider's payment is the news).
    before = len(stack.tg.sent_messages(ADA.id))
    assert await stack.deliver_events() > 0
    stack.sandbox.mark_paid(delivery_id)
    assert await stack.deliver_events() > 0
    assert len(stack.tg.sent_messages(ADA.id)) > before

    (again,) = await stack.command(OLU, "block", str(ADA.id), chat=OPERATORS)
    assert again.text == say("safety.block_again", customer=ADA_REF)
    (lifted,) = await stack.command(OLU, "unblock", str(ADA.id), chat=OPERATORS)
    assert lifted.text == say("safety.unblock_done", customer=ADA_REF)
    (question,) = await stack.command(ADA, "new")
    assert (question.text or "").startswith("What would you like to order?")

    trail = await stack.bot.store.audit.since(0)
    assert [(e.actor, e.action, e.subject, e.outcome, e.detail) for e in trail] == [
        (
            "telegram:1900",
            "block",
            "telegram:1001",
            "done; 1 open order(s) dropped",
            "fifty orders an hour",
        ),
        ("telegram:1900", "block", "telegram:1001", "already blocked", None),
        ("telegram:1900", "unblock", "telegram:1001", "done", None),
    ]


async def test_a_name_that_is_no_customer_is_refused_with_the_reason(stack: BotStack) -> None:
    (usage,) = await stack.command(OLU, "block", chat=OPERATORS)
    (short,) = await stack.command(OLU, "block", "3f2a", chat=OPERATORS)
    (unknown,) = await stack.command(OLU, "block", "abcdef12", chat=OPERATORS)
    (agent,) = await stack.command(OLU, "unblock", "shop-app:nobody", chat=OPERATORS)

    assert usage.text == say("safety.block_usage")
    assert short.text == say("safety.not_a_customer", typed="3f2a")
    assert unknown.text == say("safety.no_such_delivery", ref="ABCDEF12")
    assert agent.text == say("safety.no_agent_customer", typed="shop-app:nobody")
    assert await stack.bot.store.customer_blocks.all() == []


async def test_a_whatsapp_customer_is_blocked_by_their_number_written_with_spaces(
    stack: BotStack,
) -> None:
    bola = UserRef("whatsapp", 2348012345678)
    shown = "whatsapp:+2348012345678"

    (done,) = await stack.command(OLU, "block", "+234 801 234 5678 too many orders", chat=OPERATORS)
    (extra,) = await stack.command(OLU, "unblock", "+234 801 234 5678 now", chat=OPERATORS)
    (lifted,) = await stack.command(OLU, "unblock", "whatsapp:+234 801 234 5678", chat=OPERATORS)

    assert done.text == say("safety.block_done", customer=shown)
    assert extra.text == say("safety.unblock_usage")
    assert lifted.text == say("safety.unblock_done", customer=shown)
    trail = await stack.bot.store.audit.since(0)
    assert [(e.action, e.subject, e.detail) for e in trail] == [
        ("block", str(bola), "too many orders"),
        ("unblock", str(bola), None),
    ]
