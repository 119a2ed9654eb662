"""A real ``deliverybot run`` killed with SIGKILL after its create was answered, while the reply
that tells the customer is on its way to Telegram.

The harness of ``real_instances`` (as ``test_kill_during_create``). The customer taps
"Confirm and send"; the sandbox answers the create at once, the instance links the delivery,
and its reply ("Done! Your order reference is ...") reaches the fake Bot API, which holds it
unanswered and never delivers it (``FakeTelegram.hold_next``). The instance is killed then:
the customer has not been told. Answering linked the delivery and kept the reply owed in the
create's intent, in one commit; once the intent's lease runs out, the follow-up (the same
instance started again on SQLite, the other instance on PostgreSQL) sends the notice.

Asserted: the customer is told within ``TOLD_WITHIN`` seconds of the kill (the figure is
printed), exactly once; one delivery, created once, linked to the chat; no intent left.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import httpx
import pytest

from bot.chat_ref import ChatRef
from tests.e2e.real_instances import CreateArrivals, at_the_summary, deployment, kill, push
from tests.fakes import TgUser
from tests.support.words import say

CUSTOMER = TgUser(830_101, "Killed Before The Reply")
TOLD_WITHIN = 60.0
WENT_THROUGH = say("dialogue.went_through")  # the follow-up's notice
BOOKED = say("dialogue.created", ref="\x00").split("\x00")[0]  # the turn's reply: "Done! ..."


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_an_instance_killed_with_the_reply_on_its_way_leaves_the_customer_told_once(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async with deployment(backend, tmp_path, request, counter=CreateArrivals()) as world:
        tg, partner = world.tg, world.partner
        first, summary = await at_the_summary(world, CUSTOMER)
        seen = len(tg.sent_messages(CUSTOMER.id))
        replying = tg.hold_next("sendMessage", chat_id=CUSTOMER.id, containing=BOOKED)
        tap = tg.updates.tap(summary, "Confirm and send")
        tapping = asyncio.create_task(push(world.client, first, tap))
        await asyncio.wait_for(replying.wait(), timeout=30)
        await kill(first)
        killed_at = time.monotonic()
        with contextlib.suppress(httpx.HTTPError):
            await tapping  # acknowledged once stored, before the create or after: either way
        if backend == "sqlite":
            await world.start(port=first.port)

        told = await tg.wait_for_message(CUSTOMER.id, lambda m: WENT_THROUGH in (m.text or ""),
                                         after=seen, timeout=TOLD_WITHIN)  # fmt: skip
        seconds = time.monotonic() - killed_at
        print(f"{backend}: killed with the reply on its way, the customer was told "
              f"{seconds:.1f} s later")  # fmt: skip
        (made,) = partner.sandbox.deliveries()
        assert made["id"] in (told.text or "")
        assert partner.sandbox.call_counts()["create_delivery"] == 1
        store = await world.backing.reopen()
        link = await store.deliveries.get(made["id"])
        assert link is not None and link.chat == ChatRef("telegram", CUSTOMER.id)
        assert await store.create_intents.count() == 0
        # Told once: the held reply never reached the chat, the notice did, and nothing after.
        later = tg.sent_messages(CUSTOMER.id)[seen:]
        assert [m for m in later if BOOKED in (m.text or "")] == [told]
