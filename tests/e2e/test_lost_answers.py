"""A create whose answer is lost after the sandbox applied it (the connection dropped, a 503),
through the whole bot: the chat says "checking", never "not sent"; the client does not repeat
the create; the follow-up, due seconds later (real seconds here: the running worker wakes by
itself), finds the delivery, links it and says so; the same order again is held; a restart
resumes it."""

from __future__ import annotations

import html
import time

from bot.chat_ref import UserRef
from bot.ordering.unconfirmed_worker import FIRST_FOLLOW_UP_SECONDS
from conversations.texts import dialogue
from tests.e2e.conftest import ADA, BotStack, MakeStack
from tests.fakes import SentMessage
from tests.support.words import SHIPPED

# The client's own back-off (for reads) is real time in this stack.
FAST_CLIENT = {"max_attempts": 2, "backoff_base_seconds": 0.01, "backoff_cap_seconds": 0.01}


def lose_the_answer(stack: BotStack, kind: str = "drop") -> None:
    """The next create is applied, then its answer lost."""
    stack.sandbox.inject_fault("create_delivery", kind, 1, when="after")


async def skip_the_wait(stack: BotStack) -> None:
    """Bring every kept create's first follow-up forward to now, as if its seconds had passed
    (the first test waits them out for real)."""
    unconfirmed = stack.bot.store.unconfirmed
    for row in await unconfirmed.due(time.time() + FIRST_FOLLOW_UP_SECONDS + 60):
        await unconfirmed.retry_later(row.idempotency_key, row.attempts, 0.0)


def says(message: SentMessage, text: str) -> bool:
    return html.unescape(message.text or "").find(text) >= 0


async def test_the_chat_hears_checking_then_the_delivery_it_made(make_stack: MakeStack) -> None:
    stack = await make_stack(partner=FAST_CLIENT)
    await stack.fill_order(ADA)
    lose_the_answer(stack)

    reply = await stack.tap(stack.prompt(ADA.id), "Confirm and send")

    assert any(says(m, dialogue.CHECKING.render(SHIPPED)) for m in reply)
    assert not any(says(m, "not sent") or says(m, "try again") for m in reply)
    told = await stack.tg.wait_for_message(ADA.id, lambda m: says(m, "Good news: the order"))
    (made,) = stack.sandbox.deliveries()
    assert made["id"] in (told.text or "")
    (link,) = await stack.bot.store.deliveries.for_user(UserRef("telegram", ADA.id), 5)
    assert link.delivery_id == made["id"]

    stack.sandbox.mark_paid(made["id"])  # the relay now finds the chat of its news
    await stack.sandbox.drain_webhooks()
    await stack.tg.wait_for_message(ADA.id, lambda m: says(m, "received your payment"))
    assert stack.sandbox.call_counts()["create_delivery"] == 1  # no create after the read-back


async def test_the_same_order_again_is_held_once(make_stack: MakeStack) -> None:
    stack = await make_stack(partner=FAST_CLIENT, workers=False)
    await stack.fill_order(ADA)
    lose_the_answer(stack, kind="status")
    await stack.tap(stack.prompt(ADA.id), "Confirm and send")

    summary = await stack.fill_order(ADA)
    held = await stack.tap(summary, "Confirm and send")

    assert any(says(m, dialogue.DUPLICATE_HELD.render(SHIPPED)) for m in held)
    assert len(stack.sandbox.deliveries()) == 1  # nothing was sent
    again = await stack.tap(stack.prompt(ADA.id), "Try sending it again")  # on purpose
    assert any(says(m, "Done! Your order reference is") for m in again)

    await skip_the_wait(stack)
    await stack.bot.core.follow_up.process_due()
    assert len(stack.sandbox.deliveries()) == 2
    assert len(await stack.bot.store.deliveries.for_user(UserRef("telegram", ADA.id), 5)) == 2


async def test_a_restart_before_the_follow_up_resumes_it(make_stack: MakeStack) -> None:
    stack = await make_stack(partner=FAST_CLIENT, workers=False)
    await stack.fill_order(ADA)
    lose_the_answer(stack)
    await stack.tap(stack.prompt(ADA.id), "Confirm and send")
    assert await stack.bot.store.unconfirmed.count_open() == 1
    await skip_the_wait(stack)

    await stack.restart(workers=True)  # the old process never followed it up

    await stack.tg.wait_for_message(ADA.id, lambda m: says(m, "Good news: the order"))
    (made,) = stack.sandbox.deliveries()
    assert await stack.bot.store.deliveries.get(made["id"]) is not None
    assert await stack.bot.store.unconfirmed.count_open() == 0
