"""A block ends the customer's hand-off at once, through the real PTB Application and the fake
Bot API, on both store backends: the customer gets the blocked sentence, the card says the
hand-off ended with the block, their next messages get that sentence and never reach staff,
staff replies are refused in the operators' chat with the reason, each step is in the audit
trail, and an unblock opens nothing again. A block from the shell (``deliverybot customers
block`` itself, on the running bot's database) is found by the running bot at the next message
either side sends, or by the hand-off upkeep's pass."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.chat_ref import ChatRef, UserRef
from bot.cli import main
from bot.handoff.handoff_upkeep import HandoffUpkeep
from bot.safety.shell_commands import SHELL
from tests.e2e.conftest import ADA, BOLA, FORUM, OLU, OPERATORS, BotStack, MakeStack, make_stack
from tests.e2e.test_handoffs import card, current_text, staff_says
from tests.fakes import SentMessage
from tests.support.words import say
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "make_stack", "stack"]

ADA_CHAT = ChatRef("telegram", ADA.id)
ADA_REF = UserRef("telegram", ADA.id)
SHELL_CONFIG = """
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_SHELLkey0123456789abcdef"

[telegram]
token = "987654321:AAGshellSECRETtokenVALUE0123456789abc"
mode = "polling"

[storage]
"""


async def talking_to_a_person(stack: BotStack) -> tuple[str, SentMessage, SentMessage]:
    """Ada, with an order open, asks for a person, writes to staff and hears back; the
    hand-off's reference, its card and her relayed message in the operators' chat."""
    await stack.command(ADA, "new")
    await stack.command(ADA, "human")
    posted = card(stack)
    ref = (posted.text or "")[1:7]
    assert await stack.text(ADA, "Where is my rider?") == []
    relayed = stack.tg.sent_messages(OPERATORS.id)[-1]
    assert relayed.text == f"#{ref} customer: Where is my rider?"
    before = len(stack.tg.sent_messages(ADA.id))
    await staff_says(stack, OLU, "Let me check for you.", posted)
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[before:]] == ["Let me check for you."]
    return ref, posted, relayed


def card_markup(stack: BotStack, posted: SentMessage) -> Any:
    found = stack.tg.message(posted.chat_id, posted.message_id)
    assert found is not None
    return found.get("reply_markup")


async def assert_ended_by_block(stack: BotStack, ref: str, posted: SentMessage) -> None:
    """The card says the hand-off ended with the block, with no button and no way to answer;
    the hand-off is closed."""
    text = current_text(stack, posted)
    assert say("staff.card_blocked") in text
    assert say("staff.card_how") not in text and card_markup(stack, posted) is None
    handoff = await stack.bot.store.handoffs.get(ref)
    assert handoff is not None and handoff.state == "closed"
    assert await stack.bot.store.handoffs.waiting_for(ADA_CHAT) is None


async def assert_cut_off(
    stack: BotStack, ref: str, posted: SentMessage, relayed: SentMessage
) -> None:
    """Ada's messages get the blocked sentence and never reach staff; a staff reply, to the
    card or to her relayed message, is refused with the reason and reaches nobody."""
    staff_before = len(stack.tg.sent_messages(OPERATORS.id))
    for sent in (stack.text(ADA, "Hello?"), stack.text(ADA, "Anyone there?")):
        (reply,) = await sent
        assert reply.text == say("safety.blocked")
    (again,) = await stack.command(ADA, "human")
    assert again.text == say("safety.blocked")
    assert stack.tg.sent_messages(OPERATORS.id)[staff_before:] == []

    ada_before = len(stack.tg.sent_messages(ADA.id))
    for to in (posted, relayed):
        await staff_says(stack, OLU, "Your rider is at the gate.", to)
        refusal = stack.tg.sent_messages(OPERATORS.id)[-1]
        assert refusal.text == say("staff.reply_blocked", ref=ref)
    assert stack.tg.sent_messages(ADA.id)[ada_before:] == []


async def test_a_block_from_the_operators_chat_ends_the_hand_off_at_once(
    stack: BotStack,
) -> None:
    ref, posted, relayed = await talking_to_a_person(stack)

    ada_before = len(stack.tg.sent_messages(ADA.id))
    staff_before = len(stack.tg.sent_messages(OPERATORS.id))
    said = await stack.command(OLU, "block", f"telegram:{ADA.id} spam", chat=OPERATORS)
    # Staff see the hand-off ended (in reply to its card), then the block's answer; she hears
    # the block at once.
    assert [m.text for m in said] == [
        say("staff.blocked_ended", ref=ref),
        " ".join(
            [say("safety.block_done", customer=ADA_REF), say("safety.drafts_dropped", count=1)]
        ),
    ]
    assert stack.tg.sent_messages(OPERATORS.id)[staff_before:] == said
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[ada_before:]] == [say("safety.blocked")]
    await assert_ended_by_block(stack, ref, posted)

    await assert_cut_off(stack, ref, posted, relayed)

    trail = [(e.actor, e.action, e.subject, e.outcome, e.detail) for e in await audit(stack)]
    subject = f"hand-off {ref}"
    assert trail == [
        ("telegram:1900", "handoff_take", subject, "done", None),  # her first reply took it
        ("telegram:1900", "handoff_reply", subject, "done", None),
        ("telegram:1900", "block", "telegram:1001", "done; 1 open order(s) dropped", "spam"),
        ("telegram:1900", "handoff_close", subject, "done; customer blocked", None),
        ("telegram:1900", "handoff_reply", subject, "refused: customer blocked", None),
        ("telegram:1900", "handoff_reply", subject, "refused: customer blocked", None),
    ]

    # Unblocked: nothing comes back to life; staff's old card answers nobody, and asking for
    # a person again opens a new hand-off.
    (lifted,) = await stack.command(OLU, "unblock", f"telegram:{ADA.id}", chat=OPERATORS)
    assert lifted.text == say("safety.unblock_done", customer=ADA_REF)
    assert await stack.bot.store.handoffs.waiting_for(ADA_CHAT) is None
    staff_before = len(stack.tg.sent_messages(OPERATORS.id))
    await stack.text(ADA, "Sorry about that")
    assert stack.tg.sent_messages(OPERATORS.id)[staff_before:] == []
    ada_before = len(stack.tg.sent_messages(ADA.id))
    await staff_says(stack, OLU, "Welcome back", posted)
    assert stack.tg.sent_messages(OPERATORS.id)[-1].text == say("staff.no_such", ref=ref)
    assert stack.tg.sent_messages(ADA.id)[ada_before:] == []
    assert say("staff.card_blocked") in current_text(stack, posted)
    (opened,) = await stack.command(ADA, "human")
    assert (opened.text or "").startswith("A person from our team will answer")
    fresh = card(stack)
    assert fresh.message_id != posted.message_id and not (fresh.text or "").startswith(f"#{ref}")


async def audit(stack: BotStack) -> list[Any]:
    return await stack.bot.store.audit.since(0)


def shell_config(stack: BotStack, folder: Path) -> Path:
    """A config file naming the running bot's database, as its operator's would."""
    storage = stack.config.storage
    if storage.postgres is not None:
        dsn = json.dumps(storage.postgres.dsn.get_secret_value())
        where = f'backend = "postgres"\n[storage.postgres]\ndsn = {dsn}'
    else:
        where = f"path = {json.dumps(str(storage.path))}"
    file = folder / "shell.toml"
    file.write_text(SHELL_CONFIG + where + "\n", encoding="utf-8")
    return file


async def block_from_the_shell(stack: BotStack, folder: Path) -> None:
    """``deliverybot customers block`` while the bot runs (its own event loop: a thread)."""
    argv = ["customers", "block", "--config", str(shell_config(stack, folder))]
    argv += [f"telegram:{ADA.id}", "--reason", "fraud"]
    assert await asyncio.to_thread(main, argv) == 0


async def ada_writes(stack: BotStack) -> list[SentMessage]:
    return await stack.text(ADA, "Still waiting")


async def staff_reply(stack: BotStack) -> list[SentMessage]:
    await staff_says(stack, OLU, "One moment", card(stack))
    return []


async def upkeep_pass(stack: BotStack) -> list[SentMessage]:
    await HandoffUpkeep(stack.bot.core.handoffs).run_once()
    return []


@pytest.mark.parametrize("first", [ada_writes, staff_reply, upkeep_pass])
async def test_a_block_from_the_shell_is_found_by_the_running_bot(
    stack: BotStack,
    first: Callable[[BotStack], Awaitable[list[SentMessage]]],
    tmp_path: Path,
) -> None:
    ref, posted, relayed = await talking_to_a_person(stack)
    await block_from_the_shell(stack, tmp_path)

    ada_before = len(stack.tg.sent_messages(ADA.id))
    staff_before = len(stack.tg.sent_messages(OPERATORS.id))
    await first(stack)
    # Whichever side comes first, Ada hears the block once, and nothing reaches staff.
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[ada_before:]] == [say("safety.blocked")]
    told = [m.text for m in stack.tg.sent_messages(OPERATORS.id)[staff_before:]]
    assert "#" + ref + " customer: Still waiting" not in told
    assert told[0] == say("staff.blocked_ended", ref=ref)
    await assert_ended_by_block(stack, ref, posted)

    await assert_cut_off(stack, ref, posted, relayed)
    ended = [e for e in await audit(stack) if e.action == "handoff_close"]
    assert [(e.actor, e.outcome) for e in ended] == [("bot", "done; customer blocked")]
    assert [(e.actor, e.action) for e in await audit(stack) if e.action == "block"] == [
        (SHELL, "block")
    ]


async def test_another_customers_hand_off_goes_on(stack: BotStack) -> None:
    """A block ends the blocked customer's hand-off only: Bola's waits, and reaches staff."""
    await talking_to_a_person(stack)
    await stack.command(BOLA, "human")
    bolas = card(stack)
    await stack.command(OLU, "block", f"telegram:{ADA.id}", chat=OPERATORS)
    assert await stack.bot.store.handoffs.waiting_for(ChatRef("telegram", BOLA.id)) is not None
    await staff_says(stack, OLU, "Hello Bola", bolas)
    assert stack.tg.sent_messages(BOLA.id)[-1].text == "Hello Bola"
    assert say("staff.card_blocked") not in current_text(stack, bolas)


async def test_in_a_forum_group_the_block_closes_the_hand_offs_topic(
    make_stack: MakeStack,
) -> None:
    """Where each hand-off has its topic, the block is told there and closes it; a staff
    message written in it afterwards is refused there."""
    stack = await make_stack(operators=[FORUM.id])
    await stack.command(ADA, "human")
    (created,) = stack.tg.calls("createForumTopic")
    thread = created.result["message_thread_id"]
    ref = (stack.tg.sent_messages(FORUM.id)[0].text or "")[1:7]

    said = await stack.command(OLU, "block", f"telegram:{ADA.id}", chat=FORUM)
    ended = [m for m in said if m.text == say("staff.blocked_ended", ref=ref)]
    assert [m.message.get("message_thread_id") for m in ended] == [thread]
    assert stack.tg.topic_closed(FORUM.id, thread) is True
    assert stack.tg.sent_messages(ADA.id)[-1].text == say("safety.blocked")

    before = len(stack.tg.sent_messages(ADA.id))
    written = stack.tg.updates.text(OLU, "Are you still there?", chat=FORUM)
    (refused,) = await stack.send(stack.tg.updates.in_topic(written, thread))
    assert refused.text == say("staff.reply_blocked", ref=ref)
    assert refused.message.get("message_thread_id") == thread
    assert stack.tg.sent_messages(ADA.id)[before:] == []
