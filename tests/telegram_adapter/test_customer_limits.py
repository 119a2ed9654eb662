"""``[limits]`` in Telegram on both store backends, each limit at its edge: the last order
under a limit is created, the next is refused in plain words with when the customer can order
again (the summary stays, nothing is created), the operators hear it once a day, the audit trail
keeps every hit, and the count holds across a restart (it is in the store)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.chat_ref import UserRef
from tests.e2e.conftest import ADA, CHIDI, OPERATORS, BotStack
from tests.support.words import say
from tests.telegram_adapter.stack_backends import stack

__all__ = ["stack"]

ADA_REF = UserRef("telegram", ADA.id)


OFF = {
    "creates_per_hour": 0,
    "creates_per_day": 0,
    "open_deliveries": 0,
    "unpaid_deliveries": 0,
    "drafts_per_hour": 0,
}


@pytest.fixture
def limits(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Only the limit under test on (a test says which with ``indirect``)."""
    default = {"creates_per_hour": 2, "creates_per_day": 3}
    return {**OFF, **getattr(request, "param", default)}


def creates(stack: BotStack) -> int:
    """Creates the sandbox answered, across the bot's restarts."""
    return stack.sandbox.call_counts().get("create_delivery", 0)


async def test_creates_per_hour_at_its_edge_and_across_a_restart(stack: BotStack) -> None:
    await stack.order(ADA)
    await stack.order(ADA)  # the second of two an hour: created
    summary = await stack.fill_order(ADA)
    made = creates(stack)

    refused = await stack.tap(summary, "Confirm and send")

    assert creates(stack) == made  # nothing was sent
    wait = say("safety.wait.minutes", count=60)
    told = say("safety.limit.creates_per_hour", limit=2, wait=wait)
    assert (refused[0].text or "").startswith(told + "\n\nPlease check your pickup & delivery")
    (alert,) = stack.tg.sent_messages(OPERATORS.id)[-1:]
    assert alert.text == say(
        "safety.limit_alert", customer=ADA_REF, kind="creates_per_hour", limit=2
    )
    operators_told = len(stack.tg.sent_messages(OPERATORS.id))

    await stack.restart(workers=False)
    again = await stack.tap(stack.prompt(ADA.id), "Confirm and send")

    assert (again[0].text or "").startswith(told)
    assert creates(stack) == made
    assert len(stack.tg.sent_messages(OPERATORS.id)) == operators_told  # once a day
    assert await stack.order(CHIDI)  # another customer is not limited by Ada's orders
    hits = [e for e in await stack.bot.store.audit.since(0) if e.action == "limit"]
    assert [(e.actor, e.subject, e.outcome) for e in hits] == [
        ("bot", "telegram:1001", "refused: creates_per_hour")
    ] * 2


@pytest.mark.parametrize("limits", [{"creates_per_day": 2}], indirect=True)
async def test_creates_per_day_at_its_edge(stack: BotStack) -> None:
    await stack.order(ADA)
    await stack.order(ADA)
    summary = await stack.fill_order(ADA)

    refused = await stack.tap(summary, "Confirm and send")

    wait = say("safety.wait.hours", count=24)
    told = say("safety.limit.creates_per_day", limit=2, wait=wait)
    assert (refused[0].text or "").startswith(told)
    assert creates(stack) == 2


@pytest.mark.parametrize("limits", [{"open_deliveries": 1}], indirect=True)
async def test_open_deliveries_at_its_edge(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    summary = await stack.fill_order(ADA)

    refused = await stack.tap(summary, "Confirm and send")

    assert (refused[0].text or "").startswith(say("safety.limit.open_deliveries", limit=1))
    assert creates(stack) == 1
    # Once the bot hears it was delivered, the next order goes through.
    assert await stack.bot.store.deliveries.note_status(delivery_id, "delivered")
    await stack.tap(stack.prompt(ADA.id), "Confirm and send")
    assert creates(stack) == 2


@pytest.mark.parametrize("limits", [{"drafts_per_hour": 2}], indirect=True)
async def test_orders_started_per_hour_at_its_edge(stack: BotStack) -> None:
    for _ in range(2):
        (question,) = await stack.command(ADA, "new")
        assert (question.text or "").startswith("What would you like to order?")
        await stack.command(ADA, "cancel")

    (refused,) = await stack.command(ADA, "new")

    wait = say("safety.wait.minutes", count=60)
    assert refused.text == say("safety.limit.drafts_per_hour", limit=2, wait=wait)
    assert await stack.bot.ctx.chats.session(ADA.chat) is None


@pytest.mark.parametrize("limits", [{"unpaid_deliveries": 1}], indirect=True)
async def test_unpaid_deliveries_at_its_edge(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    # Delivered is not paid: the fee is still owed.
    assert await stack.bot.store.deliveries.note_status(delivery_id, "delivered")
    summary = await stack.fill_order(ADA)

    refused = await stack.tap(summary, "Confirm and send")

    assert (refused[0].text or "").startswith(say("safety.limit.unpaid_deliveries", limit=1))
    assert creates(stack) == 1
    # Once the relay hears the fee was paid, the next order goes through.
    stack.sandbox.mark_paid(delivery_id)
    await stack.deliver_events()
    await stack.tap(stack.prompt(ADA.id), "Confirm and send")
    assert creates(stack) == 2
