"""Flow figures: the engine's cost per turn, a whole chat turn's cost, and Partner API calls per
completed order.

1. Engine turns: pickup & delivery orders answered through ``Engine.handle`` alone, with the
   org's catalogue held in memory and a creator that answers at once, so the figure is the
   engine's own work (validation, the graph walk, the prompt, the session copy).
2. Chat turns: orders through ``ChatService`` (a SQLite session save per turn) against the
   in-process sandbox, the real Partner client and the shared capability cache, one chat at a
   time (so no turn waits for another chat's).
3. API calls per completed order: 100 orders from 10 concurrent chats on a bot that starts with
   an empty capability cache, counted by the sandbox's call counters (goal: at most 1.05, thanks
   to the shared cache).

Prints figures only. Run: ``.venv/bin/python benchmarks/bench_flows.py``.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from bot.bot_core import BotCore, build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import ChatService, PartnerCatalog
from bot.partner.capabilities import CapabilityCache
from bot.partner.models import Capabilities, CreateDeliveryRequest, ServiceLocation, Warehouse
from bot.sandbox import Sandbox, default_scenario
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from bot.telegram.telegram_kind import TELEGRAM_KIND
from conversations import (
    CONFIRM,
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    Created,
    CreateOutcome,
    Engine,
    LocationAnswer,
    PhotosAnswer,
    Services,
    TextAnswer,
)
from conversations.dialog import Answer
from conversations.flows import ENTRY_FLOW, default_registry
from conversations.texts.catalogue import DEFAULT_TEXTS

ORDERS = 100
CHATS = 10
ENGINE_ORDERS = 300
CHAT_ORDERS = 30
PHOTO = "https://media.swift-lagos.example/parcel.jpg"
JPEG = b"\xff\xd8\xff\xe0" + b"benchmark-photo" * 8

ANSWERS: list[Answer] = [
    ChoiceAnswer(option="pickup_delivery"),
    ChoiceAnswer(option="pickup"),
    LocationAnswer(lat=6.5095, lng=3.3711, address="Ozone Cinema, Yaba"),
    ChoiceAnswer(option="saved:loc_moremi_hall"),
    TextAnswer(text="A017"),
    ContactAnswer(phone="08031234567", first_name="Ada", last_name="Obi"),
    CommandAnswer(name="skip"),
    ChoiceAnswer(option="yes"),
    TextAnswer(text="Bola Ahmed"),
    TextAnswer(text="0802 222 3333"),
    TextAnswer(text="A pair of shoes"),
    ChoiceAnswer(option="small"),
    ChoiceAnswer(option="no"),
    PhotosAnswer(urls=[PHOTO]),
    CommandAnswer(name="done"),
    ChoiceAnswer(option="cash_on_delivery"),
    ChoiceAnswer(option="none"),
    ChoiceAnswer(option=CONFIRM),
]


class HeldCatalog:
    """The org's catalogue, read once and held: no I/O in the engine's figure."""

    def __init__(
        self, caps: Capabilities, rows: list[Warehouse], places: list[ServiceLocation]
    ) -> None:
        self._caps, self._rows, self._places = caps, rows, places

    async def capabilities(self) -> Capabilities:
        return self._caps

    async def warehouses(self) -> list[Warehouse]:
        return self._rows

    async def service_locations(self) -> list[ServiceLocation]:
        return self._places

    async def catalogue(self) -> tuple[Capabilities, list[Warehouse], list[ServiceLocation]]:
        return await self.capabilities(), await self.warehouses(), await self.service_locations()

    async def refresh(self) -> None:
        return None


class InstantCreator:
    def __init__(self, delivery_source: Created) -> None:
        self._created = delivery_source

    async def create(
        self, request: CreateDeliveryRequest, turn: object = None, *, flow: str
    ) -> CreateOutcome:
        return self._created


def _figures(name: str, samples_ns: list[int]) -> str:
    ordered = sorted(samples_ns)
    median = statistics.median(ordered) / 1000
    p95 = ordered[int(len(ordered) * 0.95) - 1] / 1000
    return f"{name}: median {median:.0f} µs, p95 {p95:.0f} µs per turn ({len(ordered)} turns)"


def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


async def _public(host: str) -> list[str]:
    return ["93.184.216.34"]


class _Silent:
    """The bot's channel here: the figures are about turns, not about relayed news."""

    async def send(self, chat: ChatRef, text: str) -> int | None:
        return None

    def otp_link(self, token: str) -> str:
        return f"/start otp_{token}"


def _core(sandbox: Sandbox, store: Store) -> BotCore:
    """The bot as ``deliverybot run`` wires it, over the sandbox (a fresh client and cache)."""
    settings = CoreSettings(partner_base_url=sandbox.base_url, partner_api_key=sandbox.api_key)
    core = build_core(
        settings, store, Seams(partner_transport=httpx.ASGITransport(app=sandbox.app))
    )
    core.register(ChannelRegistration(TELEGRAM_KIND, _Silent()))
    return core


async def main() -> None:
    sandbox = Sandbox(
        default_scenario(), image_transport=httpx.MockTransport(_photo), resolver=_public
    )
    with tempfile.TemporaryDirectory() as scratch:
        store = await Store.connect(Path(scratch) / "bench.sqlite3", synchronous="NORMAL")
        try:
            core = _core(sandbox, store)
            await _engine_figure(core.cache)
            await _chat_figure(core.chats)
            await core.aclose()
            # A bot that starts now: its own client and an empty cache.
            core = _core(sandbox, store)
            await _calls_figure(core.chats, sandbox)
            await core.aclose()
        finally:
            await store.close()
            await sandbox.aclose()


async def _engine_figure(cache: CapabilityCache) -> None:
    catalog = PartnerCatalog(cache)
    held = HeldCatalog(
        await catalog.capabilities(), await catalog.warehouses(), await catalog.service_locations()
    )
    sample = Created.model_validate(
        {"delivery": {"id": "dlv-bench", "status": "pending", "tracking": {"url": "https://t/x"}}}
    )
    engine = Engine(default_registry(), Services(catalog=held, creator=InstantCreator(sample)))
    samples: list[int] = []
    catalogue = DEFAULT_TEXTS.business_catalogue()
    for _ in range(ENGINE_ORDERS):
        session, _ = await engine.start(catalogue, ENTRY_FLOW)
        for answer in ANSWERS:
            started = time.perf_counter_ns()
            turn = await engine.handle(catalogue, session, answer)
            samples.append(time.perf_counter_ns() - started)
        assert turn.status == "created", turn.messages
    print(_figures("engine alone", samples))


async def _order(chats: ChatService, chat_id: int, samples: list[int] | None = None) -> None:
    chat, user = ChatRef(TELEGRAM, chat_id), UserRef(TELEGRAM, chat_id)
    await chats.start(chat, user)
    for answer in ANSWERS:
        started = time.perf_counter_ns()
        turn = await chats.handle(chat, user, answer)
        if samples is not None:
            samples.append(time.perf_counter_ns() - started)
    assert turn.status == "created", turn.messages


async def _chat_figure(chats: ChatService) -> None:
    samples: list[int] = []
    for _ in range(CHAT_ORDERS):
        await _order(chats, 1, samples)
    print(_figures("chat turn (ChatService + SQLite + in-process sandbox)", samples))


async def _calls_figure(chats: ChatService, sandbox: Sandbox) -> None:
    before = sandbox.call_counts()

    async def customer(chat_id: int) -> None:
        for _ in range(ORDERS // CHATS):
            await _order(chats, chat_id)

    started = time.perf_counter()
    await asyncio.gather(*(customer(1000 + n) for n in range(CHATS)))
    elapsed = time.perf_counter() - started
    counts = {k: n - before[k] for k, n in sandbox.call_counts().items() if n - before[k]}
    calls = sum(counts.values())
    print(
        f"Partner API calls per completed order: {calls / ORDERS:.2f} "
        f"({calls} calls for {ORDERS} orders from {CHATS} concurrent chats in {elapsed:.1f} s; "
        "goal <= 1.05)"
    )
    print("  by operation: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    asyncio.run(main())
