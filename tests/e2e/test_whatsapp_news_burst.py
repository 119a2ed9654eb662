"""A burst of news to 40 WhatsApp customers from two real ``deliverybot run`` processes on one
PostgreSQL database: the pacing they share keeps within the Cloud API's rates, and the fake
refuses nothing (its throughput, 80 a second, and its per-customer pair rate). Harness:
``whatsapp_instances``.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import re
import time
from pathlib import Path

import pytest

from bot.partner.signing import sign
from bot.whatsapp_fake.persona import WhatsAppPersona
from tests.e2e.whatsapp_instances import (
    WITHIN,
    chat_of,
    whatsapp_deployment,
)
from tests.support.partner_json import compact, webhook_event

BURST_CUSTOMERS = 40
BURST_STEPS = ("matched", "picked_up", "in_transit")
HINT = re.compile(r"Update (\d+)-(\d+)\.")


def burst_event(number: int, step: int) -> bytes:
    body = webhook_event(
        f"evt_burst_{number:02d}_{step}",
        {"id": f"dlv-burst-{number:02d}", "status": BURST_STEPS[step], "rider_assigned": True},
        created=1_800_000_000 + step * 60,
        previous_status=BURST_STEPS[step - 1] if step else "pending",
        summary=f"Delivery {number} is {BURST_STEPS[step]}.",
        hint=f"Update {number}-{step}.",
    )
    return compact(body)


def most_in_a_second(times: list[float]) -> int:
    """The most of ``times`` within any one second."""
    ordered = sorted(times)
    return max(
        (bisect.bisect_right(ordered, start + 1.0) - i for i, start in enumerate(ordered)),
        default=0,
    )


async def test_a_burst_of_news_to_40_customers_from_two_instances_is_refused_nothing(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with whatsapp_deployment("postgres", tmp_path, request, monkeypatch) as world:
        store, client = world.deployment.backing.store, world.deployment.client
        secret = world.deployment.partner.sandbox.signing_secret
        instances = [await world.start(), await world.start()]
        customers = [
            world.customer(f"2348050000{number:03d}", f"Customer {number}")
            for number in range(BURST_CUSTOMERS)
        ]
        for number, customer in enumerate(customers):
            chat = chat_of(customer.wa_id)
            await store.deliveries.add(f"dlv-burst-{number:02d}", chat, chat.id, 1.0, None, None)
        # Each customer writes (their window opens) and is answered, all at once.
        world.aim(instances[0])
        await asyncio.gather(*(customer.says("hi") for customer in customers))
        await asyncio.gather(*(customer.receives(1, timeout=WITHIN) for customer in customers))

        # Three events for each delivery, posted at once to both instances in turn.
        turn = itertools.count()

        async def post(number: int, step: int) -> None:
            body = burst_event(number, step)
            headers = {
                "Content-Type": "application/json",
                "Service-Event": "delivery.status_changed",
                "Service-Signature": sign(body, secret, int(time.time())),
            }
            target = instances[next(turn) % 2]
            answer = await client.post(f"{target.base_url}/hooks/partner", content=body,
                                       headers=headers)  # fmt: skip
            assert answer.status_code == 200

        sent_before = len(world.fake.sent())
        started = time.monotonic()
        await asyncio.gather(
            *(post(n, step) for step in range(len(BURST_STEPS)) for n in range(BURST_CUSTOMERS))
        )

        def hints(customer: WhatsAppPersona) -> set[str]:
            return {m.group() for message in customer.inbox() for m in HINT.finditer(message.text)}

        # Each customer is told the newest (an event handled after a newer one of the same
        # delivery is not told, and news piling up for a customer goes as one message).
        for number, customer in enumerate(customers):
            newest = f"Update {number}-{len(BURST_STEPS) - 1}."
            while newest not in hints(customer):
                await customer.receives(1, timeout=WITHIN)
        seconds = time.monotonic() - started
        burst = world.fake.sent()[sent_before:]
        peak = most_in_a_second([message.accepted_at for message in burst])
        print(f"news burst: {len(burst)} messages to {BURST_CUSTOMERS} customers from 2 "
              f"instances in {seconds:.1f} s, at most {peak} in a second; "
              f"refused by the fake: {world.fake.refusals.total()}")  # fmt: skip
        assert world.fake.refusals.total() == 0
