"""WhatsApp's flows on real ``deliverybot run`` processes (harness: ``whatsapp_instances``).

* Every flow, on each backend: a whole order from "new" to the created delivery (places from
  the list and from a shared location, the customer's own number in one tap, the receiver from
  a shared contact, a photo downloaded from the fake's media URL), the drop-off code's link
  (a ``wa.me`` chat, though Telegram is the messenger) claimed by the receiver's own number,
  news as the rider moves, status, my deliveries, a person (the operators' Telegram chat
  answers on WhatsApp, as the reply template once the window has closed), news outside the
  window as the news template. On PostgreSQL the customer's messages go to two instances in
  turn; on SQLite the one instance is restarted half-way through the order.
* A message acknowledged (200) and then its instance killed with SIGKILL before handling it is
  handled once: by the restarted instance (SQLite) or by the other (PostgreSQL).
* A burst of news to 40 customers from two instances: the fake's rate limits refuse nothing.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import re
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.partner.client import PartnerClient
from bot.partner.signing import sign
from bot.store import Store
from bot.whatsapp_fake.persona import WhatsAppPersona
from bot.whatsapp_fake.sent_messages import SentMessage
from tests.e2e.conftest import OLU, OPERATORS
from tests.e2e.real_instances import CreateArrivals, Instance, kill, push
from tests.e2e.test_handoffs_on_real_instances import staff_reply
from tests.e2e.whatsapp_instances import (
    WhatsAppWorld,
    chat_of,
    received_until,
    tap_on,
    whatsapp_deployment,
)
from tests.ordering.conftest import JPEG
from tests.support.partner_json import compact, webhook_event

ADA = "2348031234567"
BOLA = "2348022223333"  # the receiver: her WhatsApp number is the delivery's receiver_phone
DAY = 86_400.0
WA_ME = re.compile(r"https://wa\.me/\S+")
WITHIN = 60.0  # generous: the instances share a loaded machine
CREATED = "Your order reference is"


def has(words: str) -> Callable[[SentMessage], bool]:
    return lambda message: words in message.text


class Spread:
    """Meta's pushes spread over the running instances in turn, as a load balancer would."""

    def __init__(self, world: WhatsAppWorld, instances: list[Instance]) -> None:
        self._world = world
        self._turns = itertools.cycle(instances)

    def next(self) -> None:
        self._world.aim(next(self._turns))


async def to_the_summary(
    world: WhatsAppWorld, ada: WhatsAppPersona, spread: Spread, restart: Instance | None
) -> None:
    """Ada orders from "new" to the summary (``restart`` restarted half-way)."""
    spread.next()
    await ada.says("new")
    (kinds,) = await ada.receives(1, timeout=WITHIN)
    assert kinds.kind == "list" and kinds.text == "What would you like to order?"
    spread.next()
    await ada.taps("✓ Pickup & delivery")
    _places, pin = await ada.receives(2, timeout=WITHIN)
    assert pin.kind == "location_request"
    spread.next()
    await ada.shares_location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos")
    dropoff, _pin = await ada.receives(2, timeout=WITHIN)
    spread.next()
    await tap_on(ada, dropoff, "UNILAG Main Gate")  # the list above the location request
    (own,) = await ada.receives(1, timeout=WITHIN)
    assert own.titles()[0] == f"Use +{ADA}"
    if restart is not None:  # a redeploy half-way: the order goes on where it was
        await world.deployment.restart(restart)
    spread.next()
    await ada.taps(f"Use +{ADA}")
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.shares_contact("Bola Ahmed", [f"+{BOLA}"])
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.says("A pair of shoes")
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.taps("Small")
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.sends_photo(JPEG)  # pywa downloads it from the fake's media URL, over loopback
    (summary,) = await ada.receives(1, timeout=WITHIN)
    assert "NGN" in summary.text


async def order_a_delivery(
    world: WhatsAppWorld, ada: WhatsAppPersona, spread: Spread, restart: Instance | None
) -> str:
    """Ada orders from "new" to "Confirm and send" (``restart`` restarted half-way); the
    messages that told her it was created."""
    await to_the_summary(world, ada, spread, restart)
    spread.next()
    await ada.taps("Confirm and send")
    done = await received_until(ada, has(CREATED), timeout=WITHIN)
    return " ".join(message.text for message in done)


async def latest_delivery(store: Store) -> str:
    links = await store.deliveries.for_user(chat_of(ADA).user(int(ADA)), limit=1)
    assert len(links) == 1
    return links[0].delivery_id


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_every_flow_on_real_instances(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    operators = f"chat_ids = [{OPERATORS.id}]"
    async with whatsapp_deployment(
        backend, tmp_path, request, monkeypatch, operators=operators
    ) as world:
        tg, sandbox = world.deployment.tg, world.deployment.partner.sandbox
        for chat in (OLU, OPERATORS):
            tg.add_chat(chat)
        await world.deployment.backing.hand_to_instances()
        first = await world.start()
        instances = [first] + ([await world.start()] if backend == "postgres" else [])
        spread = Spread(world, instances)
        ada = world.customer(ADA, "Ada")

        done = await order_a_delivery(
            world, ada, spread, restart=first if backend == "sqlite" else None
        )
        store = await world.deployment.backing.reopen()  # beside the instances
        delivery_id = await latest_delivery(store)
        ref = delivery_id[:8].upper()
        assert ref in done

        # The fee paid: the drop-off code is issued for Bola, whose number is not Ada's. Ada
        # gets a wa.me link to pass on (Telegram is the messenger: the link is WhatsApp's all
        # the same), and Bola's own number claims the code there.
        sandbox.mark_paid(delivery_id)
        told = await received_until(ada, lambda m: WA_ME.search(m.text) is not None)
        link = WA_ME.search(told[-1].text)
        assert link is not None
        claim = parse_qs(urlsplit(link.group()).query)["text"][0]
        bola = world.customer(BOLA, "Bola")
        spread.next()
        await bola.says(claim)
        code = sandbox.otp_code(delivery_id)
        assert code and code in (await received_until(bola, has(code)))[-1].text

        # News as the rider moves; status and my deliveries.
        async with PartnerClient(sandbox.base_url, sandbox.api_key) as partner:
            await partner.assign_rider(delivery_id, "rdr_tunde")
        sandbox.advance_status(delivery_id)  # picked up
        news = await received_until(ada, has("picked up"))
        assert all(ref in message.text for message in news[-1:])
        spread.next()
        await ada.says("status")
        assert ref in (await received_until(ada, has(ref)))[-1].text
        spread.next()
        await ada.says("deliveries")
        (listed,) = await ada.receives(1, timeout=WITHIN)
        assert ref in listed.text or any(ref in title for title in listed.titles())

        # A person: the card in the operators' Telegram chat, the answer on WhatsApp.
        spread.next()
        await ada.says("human")
        await ada.receives(1, timeout=WITHIN)
        card = await tg.wait_for_message(
            OPERATORS.id, lambda m: "I'll answer" in m.button_texts, timeout=WITHIN
        )
        client = world.deployment.client
        await push(client, instances[-1], staff_reply(tg, OLU, "It is on its way.", card))
        assert (await ada.receives(1, timeout=WITHIN))[0].text.startswith("It is on its way.")

        # A day later the window has closed: the answer and the news go as templates.
        world.clock.seconds = DAY + 3600
        await _close_window(store, ADA)
        await push(client, instances[0], staff_reply(tg, OLU, "Still there?", card))
        (answer,) = await ada.receives(1, timeout=WITHIN)
        assert answer.kind == "template" and answer.template == "support_reply"
        sandbox.advance_status(delivery_id)  # in transit
        (later,) = await ada.receives(1, timeout=WITHIN)
        assert later.kind == "template" and later.template == "delivery_update"
        assert later.parameters[0] == ref
        assert world.fake.refusals.total() == 0


async def _close_window(store: Store, wa_id: str) -> None:
    """The bot's record of the customer's last message a day earlier, as the fake's clock
    now has it (the instances keep real time)."""
    await store._db.execute(
        "UPDATE whatsapp_windows SET last_message_at = last_message_at - ? WHERE wa_id = ?",
        (DAY + 3600, int(wa_id)),
    )


async def handled_once(store: Store, message_id: str, timeout: float) -> bool:
    """Whether the stored message ``message_id`` is recorded handled within ``timeout``
    (polled: the handling happens in other processes)."""
    query = """SELECT count(*) FROM whatsapp_inbox JOIN seen_updates
        ON seen_updates.update_id = -whatsapp_inbox.seq WHERE whatsapp_inbox.item_key = ?"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = await store._db.fetch_one(query, (message_id,))
        if row is not None and int(row[0]) == 1:
            return True
        await asyncio.sleep(0.2)
    return False


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_message_acknowledged_before_a_kill_is_handled_once_after_it(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    arrivals = CreateArrivals()
    async with whatsapp_deployment(
        backend, tmp_path, request, monkeypatch, counter=arrivals
    ) as world:
        await world.deployment.backing.hand_to_instances()
        first = await world.start()
        if backend == "postgres":
            await world.start()  # the one that takes over
        world.aim(first)
        ada = world.customer(ADA, "Ada")
        await to_the_summary(world, ada, Spread(world, [first]), restart=None)

        # The chat stays busy: its create waits in the sandbox, under the chat's lock.
        world.deployment.partner.sandbox.inject_fault(
            "create_delivery", "latency", 1, latency_seconds=6.0, when="before"
        )
        await ada.taps("Confirm and send")  # 200: stored, handled in the background
        await asyncio.wait_for(arrivals.arrived.wait(), timeout=WITHIN)
        waiting = await ada.says("Is it on its way?")  # 200: stored, waiting for the chat
        await kill(first)
        killed_at = time.monotonic()
        if backend == "sqlite":
            await world.start(first.port)

        store = await world.deployment.backing.reopen()
        assert await handled_once(store, waiting, WITHIN), "the acknowledged message was lost"
        seconds = time.monotonic() - killed_at
        print(f"{backend}: a WhatsApp message acknowledged before a kill, "
              f"handled {seconds:.1f} s later")  # fmt: skip
        await received_until(ada, has(CREATED), timeout=WITHIN)
        told = [m.text for m in ada.inbox()]
        assert len(world.deployment.partner.sandbox.deliveries()) == 1
        assert sum(CREATED in text for text in told) == 1


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

        for number, customer in enumerate(customers):
            every = {f"Update {number}-{step}." for step in range(len(BURST_STEPS))}
            while not every <= hints(customer):
                await customer.receives(1, timeout=WITHIN)
        seconds = time.monotonic() - started
        burst = world.fake.sent()[sent_before:]
        peak = most_in_a_second([message.accepted_at for message in burst])
        print(f"news burst: {len(burst)} messages to {BURST_CUSTOMERS} customers from 2 "
              f"instances in {seconds:.1f} s, at most {peak} in a second; "
              f"refused by the fake: {world.fake.refusals.total()}")  # fmt: skip
        assert world.fake.refusals.total() == 0
