"""A hand-off to a person served by two real ``deliverybot run`` processes on one PostgreSQL
database, through Telegram (the fake Bot API), as a reverse proxy spreads the webhook's updates.

* A customer asks for a person on one instance; two operators press "I'll answer" at the same
  moment, each on another instance: one owner, the other told who has it.
* The owner replies on the first instance while the customer writes on the second (both sides
  at once, several messages each): every message reaches the other side exactly once, in the
  order it was written.
* Both instances are restarted (one after the other, a rolling redeploy): the hand-off is still
  open and taken, and messages still pass both ways; "Done" closes it and the customer is told.

Harness: ``real_instances``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from tests.e2e.conftest import ADA, OLU, OPERATORS
from tests.e2e.real_instances import Deployment, Instance, deployment, push
from tests.fakes import FakeTelegram, RecordedCall, SentMessage, TgUser
from tests.support.words import say

ADE = TgUser(1901, "Ade")  # a second operator in the group
# Each way; under the customer's allowance of messages to staff per minute, and more than the
# 3 in any 9 s the bot sends to a group, so the relayed messages queue behind that pacing (8
# each way waited about 50 s of it in all, 4 wait about 25).
MESSAGES = 4
ARRIVE_WITHIN = 60.0  # generous: the instances share a loaded machine


def as_reply(update: dict[str, Any], to: SentMessage) -> dict[str, Any]:
    """``update``'s message, made a Telegram reply to the bot's message ``to``."""
    update["message"]["reply_to_message"] = to.message
    return update


def staff_reply(tg: FakeTelegram, operator: TgUser, text: str, card: SentMessage) -> Any:
    return as_reply(tg.updates.text(operator, text, chat=OPERATORS), card)


def answering(tap: dict[str, Any]) -> Callable[[RecordedCall], bool]:
    """Whether a call answers the callback query of ``tap``."""
    query = tap["callback_query"]["id"]
    return lambda call: call.params.get("callback_query_id") == query


def relayed(tg: FakeTelegram, ref: str, after: int) -> list[str]:
    """What the customer wrote, as relayed to the operators' chat since message ``after``."""
    prefix = f"#{ref} customer: "
    texts = [m.text or "" for m in tg.sent_messages(OPERATORS.id)[after:]]
    return [text.removeprefix(prefix) for text in texts if text.startswith(prefix)]


def told(tg: FakeTelegram, after: int) -> list[str]:
    """Every message the customer got since message ``after``."""
    return [m.text or "" for m in tg.sent_messages(ADA.id)[after:]]


async def settled(
    store: Store, tg: FakeTelegram, ready: Callable[[], bool], timeout: float
) -> None:
    """Wait until ``ready()`` holds and nothing is left to send: every update handled (the
    update inbox empty) and no hand-off message pending, so no late repeat can follow.
    Polled: the work happens in other processes."""
    deadline = time.monotonic() + timeout
    while True:
        quiet = (
            ready()
            and await store.telegram_inbox.count() == 0
            and not await store.handoffs.pending()
        )
        if quiet:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"not settled: to Ada {told(tg, 0)}")
        await asyncio.sleep(0.2)


async def converse(
    world: Deployment,
    ref: str,
    operator: TgUser,
    card: SentMessage,
    staff_on: Instance,
    customer_on: Instance,
) -> None:
    """The operator (on ``staff_on``) and the customer (on ``customer_on``) each write
    ``MESSAGES`` messages, both at once, each sent once the previous one was answered 200;
    then each side has got the other's, once each, in order, and nothing else."""
    tg, client, store = world.tg, world.client, world.backing.store
    to_ada, to_staff = len(tg.sent_messages(ADA.id)), len(tg.sent_messages(OPERATORS.id))
    tag = f"{staff_on.port}/{customer_on.port}"
    staff = [f"{tag} staff {n}" for n in range(MESSAGES)]
    customer = [f"{tag} customer {n}" for n in range(MESSAGES)]

    async def staff_side() -> None:
        for text in staff:
            await push(client, staff_on, staff_reply(tg, operator, text, card))

    async def customer_side() -> None:
        for text in customer:
            await push(client, customer_on, tg.updates.text(ADA, text))

    await asyncio.gather(staff_side(), customer_side())

    def arrived() -> bool:
        return len(told(tg, to_ada)) >= MESSAGES and len(relayed(tg, ref, to_staff)) >= MESSAGES

    await settled(store, tg, arrived, ARRIVE_WITHIN)
    assert told(tg, to_ada) == staff
    assert relayed(tg, ref, to_staff) == customer


async def test_a_handoff_across_two_instances_and_a_restart(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    operators = f"chat_ids = [{OPERATORS.id}]\nhandoff_messages_per_minute = {MESSAGES * 3}"
    async with deployment("postgres", tmp_path, request, operators=operators) as world:
        tg, client, store = world.tg, world.client, world.backing.store
        for chat in (ADA, OLU, ADE, OPERATORS):
            tg.add_chat(chat)
        first, second = await world.start_many(2)

        # Ada asks for a person on the second instance: staff get the card.
        await push(client, second, tg.updates.command(ADA, "human"))
        asked = await tg.wait_for_message(ADA.id, timeout=ARRIVE_WITHIN)
        assert (asked.text or "").startswith("A person from our team will answer")
        card = await tg.wait_for_message(
            OPERATORS.id, lambda m: "I'll answer" in m.button_texts, timeout=ARRIVE_WITHIN
        )
        ref = (card.text or "")[1:7]

        # Two operators press "I'll answer" at once, each on another instance: one owner.
        taps = [
            tg.updates.tap(card, "I'll answer", user=OLU),
            tg.updates.tap(card, "I'll answer", user=ADE),
        ]
        await asyncio.gather(push(client, first, taps[0]), push(client, second, taps[1]))
        answers = set()
        for tap in taps:
            call = await tg.wait_for_call(
                "answerCallbackQuery", answering(tap), timeout=ARRIVE_WITHIN
            )
            answers.add(call.params.get("text"))
        handoff = await store.handoffs.get(ref)
        assert handoff is not None and handoff.state == "taken"
        owner = handoff.owner_name
        assert owner in ("Olu", "Ade")
        assert answers == {f"{owner} took #{ref}.", f"{owner} is already answering #{ref}."}
        operator = OLU if owner == "Olu" else ADE
        shown = tg.message(OPERATORS.id, card.message_id)
        assert shown is not None and f"{owner} is answering." in str(shown.get("text"))

        # Staff reply on the first instance while Ada writes on the second.
        await converse(world, ref, operator, card, first, second)
        print(f"{MESSAGES} messages each way on 2 instances: delivered once each, in order")

        # A rolling redeploy: the hand-off stays open, and taken by the same operator.
        first = await world.restart(first)
        second = await world.restart(second)
        after = await store.handoffs.get(ref)
        assert after is not None and after.state == "taken" and after.owner_name == owner
        await converse(world, ref, operator, card, second, first)  # the other way round

        # Done, on either instance: Ada is told once (she had no order to go back to).
        to_ada = len(tg.sent_messages(ADA.id))
        await push(client, first, tg.updates.tap(card, "Done", user=operator))
        await settled(store, tg, lambda: len(told(tg, to_ada)) >= 1, ARRIVE_WITHIN)
        assert told(tg, to_ada) == [say("human.closed_no_order")]
        assert await store.handoffs.waiting_for(handoff.chat) is None
