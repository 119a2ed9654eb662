"""A real ``deliverybot run`` killed with SIGKILL while a customer's create is in flight.

The harness of ``real_instances``: instances are subprocesses in webhook mode on loopback ports,
the fake Bot API and the Partner sandbox run in this process. One customer's
session is seeded at the summary; they say /start (the summary again) and tap "Confirm and
send" on the first instance. The sandbox holds that create ``LATENCY_SECONDS`` before handling
it (a ``latency`` fault ``when=before``: the request has arrived, the delivery is made once the
wait is over, whether or not its client is still there), and the instance is killed with
SIGKILL as soon as the create arrived.

* PostgreSQL: a second instance on the same database takes the create over;
* SQLite: the same instance is started again on the file.

Two latencies: shorter than an intent's lease (the create has landed when the follow-up reads
back: found, not sent again), and longer (PostgreSQL only: not found, so sent again with the
same key while the first still waits in the sandbox; when that one lands, the service's key
deduplication answers it with the same delivery).

Asserted: the customer is told the order went through within ``TOLD_WITHIN`` seconds of the
kill (the figure is printed), exactly one delivery exists, and it is linked to the chat.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import httpx
import pytest

from bot.chat_ref import ChatRef
from tests.e2e.real_instances import (
    CreateArrivals,
    at_the_summary,
    confirm_held,
    deployment,
    kill,
)
from tests.fakes import TgUser
from tests.support.words import say

CUSTOMER = TgUser(830_001, "Killed Mid-Create")
LANDED_SECONDS = 6.0  # shorter than an intent's lease (15 s)
LATE_SECONDS = 25.0  # longer than the lease and the follow-up's read-back after it
TOLD_WITHIN = 60.0
WENT_THROUGH = say("dialogue.went_through")


@pytest.mark.parametrize(
    ("backend", "latency"),
    [("sqlite", LANDED_SECONDS), ("postgres", LANDED_SECONDS), ("postgres", LATE_SECONDS)],
)
async def test_a_create_in_flight_when_its_instance_is_killed_is_told_and_linked(
    backend: str, latency: float, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    arrivals = CreateArrivals()
    async with deployment(backend, tmp_path, request, counter=arrivals) as world:
        tg, partner = world.tg, world.partner
        first, summary = await at_the_summary(world, CUSTOMER)
        seen = len(tg.sent_messages(CUSTOMER.id))
        tapping = await confirm_held(world, first, summary, latency)
        await kill(first)
        killed_at = time.monotonic()
        with contextlib.suppress(httpx.HTTPError):
            await tapping  # the webhook's answer may or may not have come before the kill
        if backend == "sqlite":
            await world.start(port=first.port)

        told = await tg.wait_for_message(CUSTOMER.id, lambda m: WENT_THROUGH in (m.text or ""),
                                         after=seen, timeout=TOLD_WITHIN)  # fmt: skip
        seconds = time.monotonic() - killed_at
        print(f"{backend}, create landing {latency:.0f} s after it was sent: killed "
              f"mid-create, the customer was told {seconds:.1f} s later")  # fmt: skip
        late = latency > LANDED_SECONDS
        # The first create and (when it landed late) the one the follow-up sent again.
        await arrivals.wait_finished(2 if late else 1, timeout=TOLD_WITHIN)
        (made,) = partner.sandbox.deliveries()
        assert made["id"] in (told.text or "")
        store = await world.backing.reopen()
        link = await store.deliveries.get(made["id"])
        assert link is not None and link.chat == ChatRef("telegram", CUSTOMER.id)
        assert await store.create_intents.count() == 0
        assert partner.sandbox.call_counts()["create_delivery"] == (2 if late else 1)
