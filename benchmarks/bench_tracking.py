"""The rider on the map (issue #39): 200 tracked deliveries inside the Partner key's budget and
Telegram's limits.

The whole path is real, in one process: the sandbox (the default scenario, auto-dispatch off,
with 200 riders added, each with a fresh fix, spread over Lagos) behind the real
``PartnerClient`` (``httpx.ASGITransport``; its ``RequestLimiter`` told the key's limit by the
capabilities, as the bot is); 200 deliveries created through it, each paid, given its rider
(``assign_rider``) and linked to a Telegram chat of its own in a real SQLite store, their events
posted signed to the bot's web app and relayed by the real ``Relay``, which writes each link's
rider and route. Then the real ``RiderTracker`` shows each customer their rider through
Telegram's ``RiderMap`` over the real ``TelegramSender`` (its ``RateLimiter``) and PTB's ``Bot``,
whose request layer is a fake Bot API (``LiveBotApi``: ``bench_relay.LimitedBotApi``'s limits,
30 calls a second in all and 3 in any 3 s per chat, answering 429 past them) that also answers
``sendLocation``, ``editMessageLiveLocation``, ``stopMessageLiveLocation`` and
``editMessageText`` as Telegram does.

Time: the tracking interval is simulated. The tracker, the sandbox, the store and the relay
read one ``SimulatedClock``, moved on by the interval before each pass; before a pass every
rider is moved along their delivery (``Sandbox.move_rider_along`` with a growing fraction) and
the deliveries advance on a schedule: picked up (the rider waits at the pickup for a pass),
in transit, delivered, staggered so live messages stop all along the run, the last passes with
nothing tracked. Telegram's limits run in real time, as they must, so each pass's real duration
is what it would take. Between passes no real time goes by: the clock of Telegram's limits (on
the sender's side and the fake's) jumps by the interval instead (``GappedTime``).

Printed (never asserted), per key limit (the scenario's 180 a minute, then a small plan's 60):

* Partner calls a simulated minute while tracking: ``GET /riders`` apart from the rest (goal:
  one a pass, 3 a minute at 20 s; none in the passes with nothing tracked), and the sandbox's
  429s (goal 0);
* Telegram calls per tracked delivery per simulated minute by method, from the passes only
  (the relay's status news between passes apart), the edits a delivery costs over its whole
  trip, and the fake's 429s (goal 0), put down to the limit that refused them;
* each pass's real duration (p50 / p99 / max; it must stay under the interval);
* CPU per pass and per delivery looked at: the process's (store threads included) less what
  the two fakes spent answering (measured inside them);
* how tracking shares Telegram's budget with customers: mid-pass (once the pass made half as
  many calls as it has deliveries) a customer's ``sendMessage`` goes through the same sender to
  a chat of its own; its wait (p50 / max) is printed.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_tracking.py`` (about 8 minutes: most of
it is Telegram's 30 calls a second). ``--deliveries`` and ``--passes`` make it smaller.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from bench_relay import BOT, TOO_MANY, LimitedBotApi  # beside this script: P5's fake Bot API
from telegram import Bot
from telegram.request import RequestData

from bot.channels import ChannelRegistration, Channels
from bot.chat_ref import TELEGRAM, ChatRef
from bot.config import RelayConfig, TrackingConfig
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest
from bot.relay import Relay
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.store import Store
from bot.telegram.limits import RateLimiter
from bot.telegram.message_sender import TelegramSender
from bot.telegram.relay_channel import TelegramRelayChannel, TelegramTurns
from bot.telegram.telegram_kind import TELEGRAM_KIND
from bot.telegram.telegram_rider_map import TelegramRiderMap
from bot.tracking.tracker import RiderTracker
from bot.web import create_web_app
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS

DELIVERIES = 200
PASSES = 30  # 10 simulated minutes at 20 s
INTERVAL = 20.0
KEY_LIMITS = (None, 60)  # the scenario's (pro: 180 a minute), then a small plan's
EPOCH = 1_800_000_000.0
FIRST_CHAT = 500_000
PROBE_CHAT = 999_999  # the customer whose message goes mid-pass: tracked by nobody
IMAGE_URL = "https://media.swift-lagos.example/parcel.jpg"
JPEG = b"\xff\xd8\xff\xe0" + b"benchmark-image" * 10
RECEIVER = "+2348098765432"
# Lagos, inside the scenario's 40 km around its hub: where pickups are spread.
LAGOS_LAT, LAGOS_LNG = (6.43, 6.62), (3.27, 3.50)
KM_PER_DEGREE = 111.2
VEHICLES = ("motorbike", "motorbike", "bicycle", "car")
METHODS = (
    "sendLocation",
    "editMessageLiveLocation",
    "sendMessage",
    "editMessageText",
    "stopMessageLiveLocation",
)
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)


class SimulatedClock:
    """Unix seconds that move only when told (``advance``) or slept on (``sleep``, which moves
    them at once): the clock of the sandbox, the store, the relay, the tracker and the Partner
    client's limiter."""

    def __init__(self, now: float = EPOCH) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


class GappedTime:
    """Real monotonic seconds with the intervals between passes added in: the clock of
    Telegram's limits, on both sides (the sender's ``RateLimiter`` and the fake's windows). A
    pass runs in real time; between two passes the clock jumps by the interval, as if the
    tracker had slept it, so a chat's window is as empty at a pass as it would be."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped

    def skip(self, seconds: float) -> None:
        """Between passes only: a sleeper in the limiter would wake late by ``seconds``."""
        self.skipped += seconds


class LiveBotApi(LimitedBotApi):
    """P5's fake Bot API (Telegram's limits, 429 past them) answering the rider map's methods
    as Telegram does: each message kept by its id, a live location editable until stopped, an
    edit that changes nothing refused as "message is not modified". Counts every call by
    method, the calls to each chat, the 429s by method, and the CPU it spends answering."""

    def __init__(self, clock: GappedTime) -> None:
        super().__init__()
        self.clock = clock
        self.calls: Counter[str] = Counter()
        self.probe_calls = 0  # calls to ``PROBE_CHAT``: the customer's, not tracking's
        self.too_many: Counter[str] = Counter()
        self.refused_by: Counter[str] = Counter()  # which limit: "overall" or "chat"
        self.cpu = 0.0
        self.kept: dict[tuple[int, int], dict[str, Any]] = {}
        self.stopped: set[tuple[int, int]] = set()
        self.mid_pass: tuple[int, asyncio.Event] | None = None  # (calls to wait for, event)

    def admitted(self, chat_id: int, now: float) -> bool:
        """``LimitedBotApi.admitted``, with each refusal put down to the limit that made it."""
        overall_full = sum(sent > now - 1 for sent in self.overall) >= 30
        if super().admitted(chat_id, now):
            return True
        self.refused_by["overall" if overall_full else "chat"] += 1
        return False

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None, *args: Any, **kw: Any
    ) -> tuple[int, bytes]:
        started = time.process_time()
        try:
            name = url.rsplit("/", 1)[-1]
            if name == "getMe":
                return 200, json.dumps({"ok": True, "result": BOT}).encode()
            params: dict[str, Any] = dict(request_data.parameters) if request_data else {}
            return self._answer(name, params)
        finally:
            self.cpu += time.process_time() - started

    def _answer(self, name: str, params: dict[str, Any]) -> tuple[int, bytes]:
        chat_id = int(params["chat_id"])
        if not self.admitted(chat_id, self.clock()):
            self.too_many[name] += 1
            return TOO_MANY
        if chat_id == PROBE_CHAT:
            self.probe_calls += 1
        else:
            self.calls[name] += 1
            if self.mid_pass is not None and self.mid_pass[0] <= sum(self.calls.values()):
                self.mid_pass[1].set()
        if name in ("sendMessage", "sendLocation"):
            message: dict[str, Any] = {
                "message_id": next(self._ids),
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": "private"},
            }
            if name == "sendMessage":
                message["text"] = params["text"]
            else:
                message["location"] = _location(params)
            self.kept[chat_id, message["message_id"]] = message
            return _ok(message)
        key = (chat_id, int(params["message_id"]))
        kept = self.kept.get(key)
        if kept is None:
            return _bad("Bad Request: message to edit not found")
        if name == "editMessageText":
            if "text" not in kept:
                return _bad("Bad Request: there is no text in the message to edit")
            if kept["text"] == params["text"]:
                return _bad(NOT_MODIFIED)
            kept = self.kept[key] = {**kept, "text": params["text"], "edit_date": int(time.time())}
            return _ok(kept)
        if name in ("editMessageLiveLocation", "stopMessageLiveLocation"):
            if "live_period" not in kept.get("location", {}):
                return _bad("Bad Request: there is no live location in the message to edit")
            if key in self.stopped:
                return _bad("Bad Request: message can't be edited")
            location = dict(kept["location"])
            if name == "stopMessageLiveLocation":
                self.stopped.add(key)
                location.pop("live_period")
            else:
                moved = {**location, **_location(params)}
                if moved == location:
                    return _bad(NOT_MODIFIED)
                location = moved
            kept = self.kept[key] = {**kept, "location": location, "edit_date": int(time.time())}
            return _ok(kept)
        return _bad(f"Not Found: method {name} is not served by this fake")


def _location(params: dict[str, Any]) -> dict[str, Any]:
    location = {"latitude": float(params["latitude"]), "longitude": float(params["longitude"])}
    if params.get("live_period"):
        location["live_period"] = int(params["live_period"])
    return location


def _ok(result: dict[str, Any]) -> tuple[int, bytes]:
    return 200, json.dumps({"ok": True, "result": result}).encode()


def _bad(description: str) -> tuple[int, bytes]:
    status = 404 if description.startswith("Not Found") else 400
    return status, json.dumps(
        {"ok": False, "error_code": status, "description": description}
    ).encode()


class MeteredSandbox(httpx.AsyncBaseTransport):
    """The sandbox's ASGI app as the Partner API, counting its 429s and the CPU it spends."""

    def __init__(self, app: Any) -> None:
        self._inner = httpx.ASGITransport(app=app)
        self.too_many = 0
        self.cpu = 0.0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        started = time.process_time()
        try:
            response = await self._inner.handle_async_request(request)
        finally:
            self.cpu += time.process_time() - started
        self.too_many += response.status_code == 429
        return response


@dataclass(frozen=True)
class Trip:
    """One delivery's places and schedule: the rider starts at ``start``, the passes at which
    it is picked up, in transit and delivered."""

    start: tuple[float, float]
    pickup: tuple[float, float]
    dropoff: tuple[float, float]
    picked_up: int
    in_transit: int
    delivered: int
    vehicle: str

    def status_at(self, number: int) -> str:
        if number >= self.delivered:
            return "delivered"
        if number >= self.in_transit:
            return "in_transit"
        return "picked_up" if number >= self.picked_up else "matched"

    def fraction_at(self, number: int) -> float:
        """How far along its current leg the rider is before pass ``number``."""
        status = self.status_at(number)
        if status == "matched":
            return number / self.picked_up
        if status == "picked_up":
            return 0.0  # waiting at the pickup: a fresh fix where the last one was
        # In transit from a third of the way (where the sandbox puts them) to the drop-off.
        share = (number - self.in_transit) / (self.delivered - self.in_transit)
        return 1 / 3 + 2 / 3 * share


def plan_trips(count: int, passes: int, rng: random.Random) -> list[Trip]:
    """``count`` trips over Lagos whose deliveries all end by the last few passes, staggered:
    the rider 0.5-1.5 km from the pickup, the drop-off 1.5-3.5 km on."""
    # Every delivery ends by pass ``tracking``, which stops its live message: the passes after
    # it have nothing to track.
    tracking = passes - max(2, passes // 10 + 1)
    if tracking < 5:
        raise SystemExit("--passes: at least 7, so each delivery can go through every status")
    trips = []
    for number in range(count):
        share = number / max(count - 1, 1)
        picked_up = min(max(1, round(tracking * (0.25 + 0.15 * share))), tracking - 3)
        in_transit = min(picked_up + 2, tracking - 2)
        delivered = min(max(round(tracking * (0.6 + 0.4 * share)), in_transit + 2), tracking)
        pickup = (rng.uniform(*LAGOS_LAT), rng.uniform(*LAGOS_LNG))
        trips.append(
            Trip(
                start=_away(pickup, rng.uniform(0.5, 1.5), rng),
                pickup=pickup,
                dropoff=_away(pickup, rng.uniform(1.5, 3.5), rng),
                picked_up=picked_up,
                in_transit=in_transit,
                delivered=delivered,
                vehicle=VEHICLES[number % len(VEHICLES)],
            )
        )
    return trips


def _away(point: tuple[float, float], km: float, rng: random.Random) -> tuple[float, float]:
    bearing = rng.uniform(0, 2 * math.pi)
    degrees = km / KM_PER_DEGREE
    latitude = point[0] + degrees * math.cos(bearing)
    longitude = point[1] + degrees * math.sin(bearing) / math.cos(math.radians(point[0]))
    return round(latitude, 6), round(longitude, 6)


def rider_id(number: int) -> str:
    return f"rdr_bench_{number:03d}"


def scenario_data(trips: list[Trip], per_minute: int | None) -> dict[str, Any]:
    """The default scenario, auto-dispatch off (each delivery is given its rider), a rider per
    trip with a fresh fix at the trip's start, and the key's limit when one is given."""
    data = default_scenario_data()
    data["capabilities"]["publicRequest"]["autoDispatch"] = False
    if per_minute is not None:
        data["organization"]["rate_limit_per_minute"] = per_minute
    data["riders"] += [
        {
            "id": rider_id(number),
            "name": f"Rider {number:03d}",
            "vehicle_type": trip.vehicle,
            "presence": "available",
            "location": {"latitude": trip.start[0], "longitude": trip.start[1]},
        }
        for number, trip in enumerate(trips)
    ]
    return data


def order(number: int, trip: Trip) -> CreateDeliveryRequest:
    return CreateDeliveryRequest.model_validate(
        {
            "serviceKind": "pickup_delivery",
            "deliveryMode": "pickup",
            "senderName": "Adaeze Nwosu",
            "senderPhone": "+2348012345678",
            "receiverName": "Bola Ahmed",
            "receiverPhone": RECEIVER,
            "pickupAddress": f"{number} Herbert Macaulay Way, Yaba, Lagos",
            "pickupCoords": {"lat": trip.pickup[0], "lng": trip.pickup[1]},
            "deliveryAddress": f"{number} Awolowo Road, Ikoyi, Lagos",
            "deliveryCoords": {"lat": trip.dropoff[0], "lng": trip.dropoff[1]},
            "packageDescription": f"Parcel {number}",
            "packageSize": "small",
            "packageImages": [IMAGE_URL],
            "customerCollectionMethod": "cash_on_delivery",
        }
    )


async def public_resolver(host: str) -> list[str]:
    return ["93.184.216.34"]  # any public address: the image host is stubbed


@dataclass
class Run:
    """What one run measured; see the module docstring."""

    limit: int
    deliveries: int
    passes: int
    list_riders: int = 0  # GET /riders in the passes
    other_partner_calls: int = 0  # every other Partner call in the passes
    partner_429s: int = 0
    reads: Counter[str] = field(default_factory=Counter)  # the passes' read outcomes
    showing_passes: int = 0  # passes with a delivery on its way
    idle_passes: int = 0  # passes with nothing tracked
    idle_list_riders: int = 0  # GET /riders in those
    delivery_minutes: float = 0.0  # simulated minutes each delivery was tracked, summed
    tracking_calls: Counter[str] = field(default_factory=Counter)
    relay_calls: Counter[str] = field(default_factory=Counter)  # status news between passes
    telegram_429s: Counter[str] = field(default_factory=Counter)  # by method
    refused_by: Counter[str] = field(default_factory=Counter)  # by limit: overall, chat
    durations: list[float] = field(default_factory=list)  # real seconds a pass
    cpu: list[float] = field(default_factory=list)  # the bot's CPU seconds a pass
    looked_at: int = 0  # deliveries the passes looked at, summed
    probe_waits: list[float] = field(default_factory=list)
    setup_seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            name: dict(value) if isinstance(value, Counter) else value
            for name, value in vars(self).items()
        }


async def run(deliveries: int, passes: int, per_minute: int | None, directory: Path) -> Run:
    """One run of the benchmark with the key's limit ``per_minute`` (None: the scenario's)."""
    clock = SimulatedClock()
    trips = plan_trips(deliveries, passes, random.Random(39))
    scenario = parse_scenario(scenario_data(trips, per_minute))
    # The store as ``deliverybot run`` opens it by default (``synchronous = "full"``).
    store = await Store.connect(directory / f"tracking-{per_minute}.db", clock=clock)
    telegram_time = GappedTime()
    api = LiveBotApi(telegram_time)
    bot = Bot("7000000039:BenchTrackingToken", request=api, get_updates_request=api)
    await bot.initialize()
    limiter = RateLimiter(clock=telegram_time, budget=store.send_budget)
    sender = TelegramSender(bot, store, limiter=limiter)
    channels = Channels()
    channels.add(
        ChannelRegistration(
            TELEGRAM_KIND,
            TelegramRelayChannel(sender),
            turns=TelegramTurns(sender.limiter),
            rider_map=TelegramRiderMap(sender),
        )
    )
    texts = BusinessTexts(DEFAULT_TEXTS)
    relay = Relay(
        store,
        channels,
        operators=(),
        settings=RelayConfig.model_validate({"otp_via_webhook": True}),
        clock=clock,
        sleep=clock.sleep,
        turns=channels,
        texts=texts,
        capabilities=channels.capabilities,
    )
    app = create_web_app(
        store=store, signing_secrets=[scenario.webhooks[0].secret], on_event=relay.wake, clock=clock
    )
    images = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)
    )
    sandbox = Sandbox(
        scenario,
        clock=clock,
        sleep=clock.sleep,
        webhook_transport=httpx.ASGITransport(app=app),
        image_transport=images,
        resolver=public_resolver,
    )
    partner = MeteredSandbox(sandbox.app)
    client = PartnerClient(
        sandbox.base_url, sandbox.api_key, transport=partner, clock=clock, sleep=clock.sleep
    )
    settings = TrackingConfig.model_validate({"enabled": True, "interval_seconds": INTERVAL})
    tracker = RiderTracker(store, client, channels, settings=settings, texts=texts, clock=clock)
    try:
        started = time.perf_counter()
        ids = await set_up(clock, sandbox, client, store, relay, trips)
        telegram_time.skip(60)  # the minute of quiet, on Telegram's side too
        limit = client.limiter.requests_per_minute
        outcome = Run(limit or 0, deliveries, passes, setup_seconds=time.perf_counter() - started)
        world = World(clock, telegram_time, sandbox, relay, tracker, sender, api, partner)
        await track(world, trips, ids, outcome)
    finally:
        await client.aclose()
        await sandbox.aclose()
        await bot.shutdown()
        await store.close()
    return outcome


async def set_up(
    clock: SimulatedClock,
    sandbox: Sandbox,
    client: PartnerClient,
    store: Store,
    relay: Relay,
    trips: list[Trip],
) -> list[str]:
    """Every delivery created, linked to its chat, paid and given its rider, its events
    relayed; then a simulated minute of quiet, so tracking starts with the key's budget free."""
    await CapabilityCache.for_client(client, clock=clock).get()  # tells the limiter the cap
    ids = []
    for number, trip in enumerate(trips):
        delivery = await client.create_delivery(order(number, trip))
        await store.deliveries.add(
            delivery.id,
            ChatRef(TELEGRAM, FIRST_CHAT + number),
            FIRST_CHAT + number,
            clock(),
            RECEIVER,
            delivery.tracking_url,
            delivery.status,
            tracking_sent=delivery.tracking_url is not None,
            language="fr" if number % 4 == 3 else None,
        )
        sandbox.mark_paid(delivery.id)
        await client.assign_rider(delivery.id, rider_id(number))
        ids.append(delivery.id)
    await sandbox.drain_webhooks()
    await relay.process_pending()
    clock.advance(60)
    return ids


@dataclass(frozen=True)
class World:
    """The parts a run's passes drive and read."""

    clock: SimulatedClock
    telegram_time: GappedTime
    sandbox: Sandbox
    relay: Relay
    tracker: RiderTracker
    sender: TelegramSender
    api: LiveBotApi
    partner: MeteredSandbox


async def track(world: World, trips: list[Trip], ids: list[str], outcome: Run) -> None:
    """The passes, each after the riders moved and the deliveries' news was relayed."""
    clock, telegram_time, sandbox, relay = (
        world.clock, world.telegram_time, world.sandbox, world.relay
    )  # fmt: skip
    tracker, sender, api, partner = world.tracker, world.sender, world.api, world.partner
    for number in range(outcome.passes):
        if number:
            clock.advance(INTERVAL)
            telegram_time.skip(INTERVAL)
        for trip, delivery_id in zip(trips, ids, strict=True):
            before, now = trip.status_at(number - 1), trip.status_at(number)
            if number and now != before:
                sandbox.advance_status(delivery_id, now)
            elif now != "delivered":
                sandbox.move_rider_along(delivery_id, trip.fraction_at(number))
        relayed = Counter(api.calls)
        await sandbox.drain_webhooks()
        await relay.process_pending()
        outcome.relay_calls += Counter(api.calls) - relayed

        active = sum(trip.status_at(number) != "delivered" for trip in trips)
        partner_calls = sandbox.call_counts()
        calls = Counter(api.calls)
        mid_pass = asyncio.Event()
        api.mid_pass = (sum(calls.values()) + max(1, active // 2), mid_pass)
        probe = asyncio.create_task(_probe(sender, mid_pass, number))
        cpu = time.process_time() - api.cpu - partner.cpu
        started = time.perf_counter()
        done = await tracker.track_once()
        outcome.durations.append(time.perf_counter() - started)
        outcome.cpu.append(time.process_time() - api.cpu - partner.cpu - cpu)
        api.mid_pass = None
        if mid_pass.is_set():
            outcome.probe_waits.append(await probe)
        else:
            probe.cancel()

        outcome.tracking_calls += Counter(api.calls) - calls
        outcome.looked_at += done.tracked
        outcome.reads[done.read] += 1
        outcome.delivery_minutes += active * INTERVAL / 60
        outcome.showing_passes += active > 0
        counted = sandbox.call_counts()
        riders = counted.get("list_riders", 0) - partner_calls.get("list_riders", 0)
        outcome.list_riders += riders
        outcome.other_partner_calls += sum(counted.values()) - sum(partner_calls.values()) - riders
        if not done.tracked:
            outcome.idle_passes += 1
            outcome.idle_list_riders += riders
    outcome.partner_429s = partner.too_many
    outcome.telegram_429s = api.too_many
    outcome.refused_by = api.refused_by


async def _probe(sender: TelegramSender, mid_pass: asyncio.Event, number: int) -> float:
    """A customer's message, sent once the pass is halfway: how long it waited."""
    await mid_pass.wait()
    started = time.perf_counter()
    await sender.send(PROBE_CHAT, f"Your order is confirmed (pass {number}).")
    return time.perf_counter() - started


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else math.nan


def report(runs: list[Run]) -> None:
    """The figures of each run, side by side."""
    first = runs[0]
    minutes = first.passes * INTERVAL / 60
    print(
        f"The rider on the map: {first.deliveries} deliveries, {first.passes} passes at "
        f"{INTERVAL:.0f} s ({minutes:.0f} simulated minutes), Telegram's limits in real time"
    )
    rows: list[tuple[str, list[str]]] = [
        ("key limit (requests a minute)", [f"{r.limit}" for r in runs]),
        ("set-up (real s)", [f"{r.setup_seconds:.1f}" for r in runs]),
        ("GET /riders a minute", [f"{r.list_riders / minutes:.2f}" for r in runs]),
        ("  a pass with riders on the way", [_per_pass(r) for r in runs]),
        ("other Partner calls a minute", [f"{r.other_partner_calls / minutes:.2f}" for r in runs]),
        ("reads: ok / busy / failed", [_reads(r) for r in runs]),
        ("passes with nothing tracked", [f"{r.idle_passes}" for r in runs]),
        ("  their GET /riders (goal 0)", [f"{r.idle_list_riders}" for r in runs]),
        ("Partner 429s (goal 0)", [f"{r.partner_429s}" for r in runs]),
    ]
    rows.append(("Telegram, per delivery a minute:", ["" for _ in runs]))
    for method in METHODS:
        rows.append(
            (f"  {method}", [f"{r.tracking_calls[method] / r.delivery_minutes:.2f}" for r in runs])
        )
    rows += [
        ("  all", [f"{sum(r.tracking_calls.values()) / r.delivery_minutes:.2f}" for r in runs]),
        ("  calls in all (tracking)", [f"{sum(r.tracking_calls.values())}" for r in runs]),
        ("edits per delivery, whole trip", [_edits(r) for r in runs]),
        ("relay's news between passes", [_methods(r.relay_calls) for r in runs]),
        ("Telegram 429s (goal 0)", [_refusals(r) for r in runs]),
        ("pass real s p50 / p99 / max", [_spread(r.durations, 1, "{:.2f}") for r in runs]),
        ("pass CPU ms p50 / p99 / max", [_spread(r.cpu, 1000, "{:.0f}") for r in runs]),
        ("CPU per delivery a pass (ms)", [f"{1000 * sum(r.cpu) / r.looked_at:.2f}" for r in runs]),
        ("customer's send mid-pass ms", [_probes(r) for r in runs]),
    ]
    width = max(len(label) for label, _ in rows) + 2
    for label, cells in rows:
        print(f"{label:<{width}}" + "".join(f"{cell:>30}" for cell in cells))


def _edits(run: Run) -> str:
    pin = run.tracking_calls["editMessageLiveLocation"] / run.deliveries
    text = run.tracking_calls["editMessageText"] / run.deliveries
    return f"{pin:.1f} pin + {text:.1f} text"


def _per_pass(run: Run) -> str:
    per_pass = run.list_riders / max(run.showing_passes, 1)
    return f"{per_pass:.2f} (goal 1: {60 / INTERVAL * per_pass:.1f}/min)"


def _refusals(run: Run) -> str:
    if not run.refused_by:
        return "0"
    limits = ", ".join(f"{count} {limit}" for limit, count in sorted(run.refused_by.items()))
    return f"{sum(run.refused_by.values())} ({limits})"


def _reads(run: Run) -> str:
    return " / ".join(str(run.reads[outcome]) for outcome in ("ok", "busy", "failed"))


def _methods(calls: Counter[str]) -> str:
    return ", ".join(f"{count} {method}" for method, count in sorted(calls.items())) or "none"


def _spread(values: list[float], scale: float, style: str) -> str:
    return " / ".join(
        style.format(scale * _percentile(values, share)) for share in (0.5, 0.99, 1.0)
    )


def _probes(run: Run) -> str:
    if not run.probe_waits:
        return "none sent"
    p50, worst = _percentile(run.probe_waits, 0.5), max(run.probe_waits)
    return f"p50 {1000 * p50:.1f} / max {1000 * worst:.1f} ({len(run.probe_waits)} sent)"


async def measure(deliveries: int, passes: int, directory: Path) -> list[Run]:
    return [await run(deliveries, passes, limit, directory) for limit in KEY_LIMITS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=DELIVERIES)
    parser.add_argument("--passes", type=int, default=PASSES)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args()
    logging.disable(logging.INFO)  # a refused send is logged; the counts are printed
    with tempfile.TemporaryDirectory() as directory:
        runs = asyncio.run(measure(options.deliveries, options.passes, Path(directory)))
    report(runs)
    if options.json is not None:
        options.json.write_text(json.dumps([r.as_json() for r in runs], indent=1))


if __name__ == "__main__":
    main()
