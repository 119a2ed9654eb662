"""Lost create answers: duplicates and orders in limbo over 200 orders at ~20 % faults.

Each create call the bot sends (the customer's, and the follow-up's retries) fails with
probability 0.2: applied by the sandbox and then its answer lost (a 503 or a dropped connection,
``when="after"``), or, in the last row, half of them refused before the handler (a brief
outage: nothing made). Every customer whose order ends "being checked" orders the same again at
once (the probe of issue 10) and, when held, waits. Customers come 30 s apart; in between, the
follow-up worker runs each row when it falls due, as the running bot does. Counted:

* duplicates: deliveries beyond one per order (each order has its own package description);
* limbo: orders whose delivery exists but is not linked to the customer's chat, or whose
  customer was last told something other than what happened (created / not placed);
* told after: seconds from the lost answer to the customer's notice (median and max).

Services: one that deduplicates idempotency keys (the sandbox's default), and one that does not
(keys forgotten at once), both with the client's default settings (``[partner] max_attempts =
4``: the client repeats a create only when it surely never left, so every retry of one that may
have landed goes through the read-back).
Prints figures only. Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_lost_answers.py``.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
from collections import Counter
from pathlib import Path

import httpx

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import ChatService, build_engine
from bot.ordering.unconfirmed_worker import CreateFollowUp
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.store import Store
from conversations import (
    CONFIRM,
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    LocationAnswer,
    PhotosAnswer,
    TextAnswer,
    Turn,
)
from conversations.dialog import Answer
from conversations.texts import dialogue
from conversations.texts.catalogue import DEFAULT_TEXTS

ORDERS = 200
FAULT_RATE = 0.2
PHOTO = "https://media.swift-lagos.example/parcel.jpg"


def answers(description: str) -> list[Answer]:
    return [
        ChoiceAnswer(option="pickup_delivery"),
        ChoiceAnswer(option="pickup"),
        LocationAnswer(lat=6.5095, lng=3.3711, address="Ozone Cinema, Yaba"),
        ChoiceAnswer(option="saved:loc_unilag_gate"),
        ContactAnswer(phone="08031234567", first_name="Ada", last_name="Obi"),
        CommandAnswer(name="skip"),
        ChoiceAnswer(option="yes"),
        TextAnswer(text="Bola Ahmed"),
        TextAnswer(text="0802 222 3333"),
        TextAnswer(text=description),
        ChoiceAnswer(option="small"),
        ChoiceAnswer(option="no"),
        PhotosAnswer(urls=[PHOTO]),
        CommandAnswer(name="done"),
        ChoiceAnswer(option="cash_on_delivery"),
        ChoiceAnswer(option="none"),
        ChoiceAnswer(option=CONFIRM),
    ]


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


class LosingAnswers(httpx.AsyncBaseTransport):
    """The bot's way to the sandbox; creates fail at the rate, after the handler (the answer
    lost) or, with ``outages``, half of them before it (nothing made)."""

    def __init__(self, sandbox: Sandbox, rng: random.Random, *, outages: bool) -> None:
        self._inner = httpx.ASGITransport(app=sandbox.app)
        self._sandbox = sandbox
        self._rng = rng
        self._outages = outages
        self.lost = 0
        self.refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        creating = request.method == "POST" and request.url.path.endswith("/deliveries")
        if creating and self._rng.random() < FAULT_RATE:
            kind = self._rng.choice(["status", "drop"])
            before = self._outages and self._rng.random() < 0.5
            self.refused += before
            self.lost += not before
            when = "before" if before else "after"
            self._sandbox.inject_fault("create_delivery", kind, 1, when=when)
        return await self._inner.handle_async_request(request)


class Chat:
    """The channel: what each chat was told last by the follow-up, and when."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self.told: dict[int, str] = {}
        self.told_at: dict[int, float] = {}

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id  # the channel's own id for the chat
        self.told[chat_id] = text
        self.told_at[chat_id] = self._clock()
        return 1

    def otp_link(self, token: str) -> str:
        return token


async def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=b"\xff\xd8\xff" * 9)


async def _public(host: str) -> list[str]:
    return ["93.184.216.34"]


async def run(*, deduplicates: bool, outages: bool, seed: int = 10) -> dict[str, float]:
    data = default_scenario_data()
    if not deduplicates:
        data["sandbox"]["idempotency_ttl_hours"] = 1e-9  # a key is forgotten at once
    clock, rng = Clock(), random.Random(seed)
    sandbox = Sandbox(
        parse_scenario(data),
        clock=clock,
        sleep=clock.sleep,
        image_transport=httpx.MockTransport(_photo),
        resolver=_public,
    )
    transport = LosingAnswers(sandbox, rng, outages=outages)
    client = PartnerClient(
        sandbox.base_url,
        sandbox.api_key,
        transport=transport,
        clock=clock,
        sleep=clock.sleep,
        rng=random.Random(seed),
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.connect(Path(tmp) / "bench.sqlite3", clock=clock, synchronous="NORMAL")
        channel = Chat(clock)
        follow_up = CreateFollowUp(store, client, channel, clock=clock, sleep=clock.sleep)
        engine = build_engine(client, CapabilityCache.for_client(client, clock=clock), store=store)
        chats = ChatService(engine, store, clock=clock, on_unconfirmed=follow_up.wake)

        async def pass_time(seconds: float) -> None:
            """``seconds`` go by; each follow-up runs when it falls due, as the worker does."""
            end = clock.now + seconds
            while (due := await store.unconfirmed.next_due()) is not None and due <= end:
                clock.now = max(clock.now, due)
                await follow_up.process_due()
            clock.now = end

        last: dict[int, Turn] = {}
        lost_at: dict[int, float] = {}
        held = 0
        for number in range(ORDERS):
            chat = 10_000 + number
            ref, user = ChatRef(TELEGRAM, chat), UserRef(TELEGRAM, chat)
            description = f"Parcel number {number}"
            turn = await chats.start(ref, user)
            for answer in answers(description):
                turn = await chats.handle(ref, user, answer)
            last[chat] = turn
            if turn.status == "unconfirmed":  # the probe: the same order again at once
                lost_at[chat] = clock.now
                again = await chats.start(ref, user)
                for answer in answers(description):
                    again = await chats.handle(ref, user, answer)
                if (
                    dialogue.DUPLICATE_HELD.render(DEFAULT_TEXTS.business_catalogue())
                    in again.messages
                ):
                    held += 1
                    await chats.cancel(ref, user)  # they wait, as asked
                else:
                    last[chat] = again
            await pass_time(30)  # the next customer comes along
        await follow_up.settle()
        figures: dict[str, float] = dict(await _count(sandbox, store, channel, last))
        waits = [channel.told_at[chat] - at for chat, at in lost_at.items()]
        figures.update(
            lost_answers=transport.lost,
            refused_before=transport.refused,
            held=held,
            told_after_median_s=statistics.median(waits) if waits else 0.0,
            told_after_max_s=max(waits, default=0.0),
        )
        await store.close()
    await client.aclose()
    await sandbox.aclose()
    return figures


async def _count(
    sandbox: Sandbox, store: Store, channel: Chat, last: dict[int, Turn]
) -> dict[str, int]:
    made: Counter[str] = Counter()
    ids: dict[str, list[str]] = {}
    for delivery in sandbox.deliveries():
        description = str((delivery.get("package") or {}).get("description"))
        made[description] += 1
        ids.setdefault(description, []).append(str(delivery["id"]))
    duplicates = sum(count - 1 for count in made.values() if count > 1)
    limbo = 0
    for number, chat in enumerate(sorted(last)):
        description = f"Parcel number {number}"
        exists = bool(made[description])
        linked = [
            i
            for i in ids.get(description, [])
            if (link := await store.deliveries.get(i)) and link.chat == ChatRef(TELEGRAM, chat)
        ]
        turn = last[chat]
        told = channel.told.get(chat, "")
        said_created = turn.status == "created" or told.startswith("Good news")
        if exists != bool(linked) or exists != said_created:
            limbo += 1
    return {
        "orders": len(last),
        "deliveries": sum(made.values()),
        "duplicates": duplicates,
        "limbo": limbo,
        "unconfirmed_left": await store.unconfirmed.count_open(),
    }


async def main() -> None:
    print(f"{ORDERS} orders, {FAULT_RATE:.0%} of create calls fail (customers 30 s apart)")
    print("default client settings in every row")
    for label, deduplicates, outages in (
        ("service deduplicates keys, answers lost", True, False),
        ("service does not deduplicate, answers lost", False, False),
        ("service does not deduplicate, answers lost or refused before", False, True),
    ):
        figures = await run(deduplicates=deduplicates, outages=outages)
        shown = ", ".join(f"{name} {value:g}" for name, value in figures.items())
        print(f"  {label}: {shown}")


if __name__ == "__main__":
    asyncio.run(main())
