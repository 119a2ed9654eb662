"""An order a customer walked away from is dropped by retention after ``[privacy]
drafts_days``, and the customer who comes back starts afresh: a tap on the old draft's
buttons, or an answer to its question, is told so in one sentence with the first question
(while the chat's view is in memory; after a restart "no order" is said)."""

from __future__ import annotations

import time

from bot.chat_ref import ChatRef
from bot.privacy.retention import prune_kind
from tests.e2e.conftest import ADA, BotStack, MakeStack
from tests.support.clock import FakeClock
from tests.support.words import say

FIRST_QUESTION = "What would you like to order?"
PICKUP_QUESTION = "Where should the rider pick the package up?"


async def _idle(stack: BotStack, wall: FakeClock, seconds: float) -> None:
    """``seconds`` pass without a word from anyone, then retention prunes the drafts."""
    wall.now += seconds
    await prune_kind(stack.bot.store, "drafts", wall.now - stack.config.privacy.drafts_seconds)


async def _a_draft(make_stack: MakeStack, *, at_pickup: bool) -> tuple[BotStack, FakeClock]:
    """Ada's new order on a bot whose store reads a ``FakeClock``: at its first question, or
    (``at_pickup``) one answer further, at the pickup question."""
    wall = FakeClock(time.time())
    stack = await make_stack(clock=wall)
    await stack.command(ADA, "new")
    if at_pickup:
        await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    return stack, wall


def _said(messages: list[object]) -> str:
    return "\n".join(getattr(message, "text", None) or "" for message in messages)


async def test_a_draft_idle_for_less_than_the_limit_is_resumed(make_stack: MakeStack) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=True)

    await _idle(stack, wall, stack.config.privacy.drafts_seconds - 60)
    reply = await stack.command(ADA, "start")

    assert _said(reply).startswith(f"Welcome back! Here is where we were:\n\n{PICKUP_QUESTION}")
    assert await stack.bot.store.sessions.get(ChatRef("telegram", ADA.id)) is not None


async def test_a_draft_idle_past_the_limit_is_dropped_and_start_begins_afresh(
    make_stack: MakeStack,
) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=True)

    await _idle(stack, wall, stack.config.privacy.drafts_seconds + 60)
    assert await stack.bot.store.sessions.get(ChatRef("telegram", ADA.id)) is None
    reply = await stack.command(ADA, "start")

    said = _said(reply)
    assert said.startswith(say("telegram.greeting"))
    assert FIRST_QUESTION in said and "Welcome back" not in said


async def test_a_tap_on_a_dropped_drafts_button_says_so_and_starts_afresh(
    make_stack: MakeStack,
) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=False)
    old_keyboard = stack.prompt(ADA.id)

    await _idle(stack, wall, stack.config.privacy.drafts_seconds + 60)
    reply = await stack.tap(old_keyboard, "✓ Pickup & delivery")

    said = _said(reply)
    assert said.startswith(say("telegram.draft_gone"))
    assert FIRST_QUESTION in said and PICKUP_QUESTION not in said
    # A new draft is open, and its own buttons work.
    assert await stack.bot.store.sessions.get(ChatRef("telegram", ADA.id)) is not None
    (next_question,) = await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    assert (next_question.text or "").startswith(PICKUP_QUESTION)


async def test_a_recent_question_whose_order_ended_elsewhere_is_not_called_dropped(
    make_stack: MakeStack,
) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=False)
    old_keyboard = stack.prompt(ADA.id)
    # The order ended without this process drawing it (another instance, on PostgreSQL).
    assert await stack.bot.store.sessions.delete(ChatRef("telegram", ADA.id))
    wall.now += 3600

    reply = await stack.tap(old_keyboard, "✓ Pickup & delivery")

    assert _said(reply) == say("telegram.no_order")


async def test_after_a_restart_a_tap_on_a_dropped_drafts_button_points_to_new(
    make_stack: MakeStack,
) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=False)
    old_keyboard = stack.prompt(ADA.id)
    await stack.restart()  # nothing of the chat is left in memory

    await _idle(stack, wall, stack.config.privacy.drafts_seconds + 60)
    reply = await stack.tap(old_keyboard, "✓ Pickup & delivery")

    # Nothing tells this tap from one on a cancelled order's keyboard: "no order" is said.
    assert _said(reply) == say("telegram.no_order")
    (fresh,) = await stack.command(ADA, "new")
    assert fresh.text == FIRST_QUESTION


async def test_an_answer_to_a_dropped_drafts_question_says_so_and_starts_afresh(
    make_stack: MakeStack,
) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=True)

    await _idle(stack, wall, stack.config.privacy.drafts_seconds + 60)
    reply = await stack.text(ADA, "12 Herbert Macaulay Way, Yaba")

    said = _said(reply)
    assert said.startswith(say("telegram.draft_gone"))
    assert FIRST_QUESTION in said
    assert "There is no order in progress" not in said


async def test_a_french_customer_is_told_in_french(make_stack: MakeStack) -> None:
    stack, wall = await _a_draft(make_stack, at_pickup=False)
    old_keyboard = stack.prompt(ADA.id)

    await _idle(stack, wall, stack.config.privacy.drafts_seconds + 60)
    update = stack.tg.updates.tap(old_keyboard, "✓ Pickup & delivery")
    update["callback_query"]["from"]["language_code"] = "fr"
    reply = await stack.send(update)

    assert _said(reply).startswith("Cette commande n'est plus ouverte")
