"""The console's deliveries list over 10,000 deliveries: one page's time, on SQLite and PostgreSQL.

The store is filled through ``store.deliveries.add`` with a realistic mix over 30 days: every
status (most delivered), three channels, fees in NGN (one in ten not priced yet), riders on the
matched ones, a receiver phone each and a sender phone on most; some chats blocked, some news
given up on, some hand-offs open. Then each page is built RUNS times by ``deliveries_page`` (the
store's query and the rows in words, as the console will draw them) and its median and p95
printed: the first page, page 50 (reached by its cursor), each filter and each search. The
issue's goal for the whole page is at most 100 ms median; this is the part before any HTML.
Then a delivery's page (``delivery_timeline``): one delivery with 50 events, each with its three
messages, and audit entries, among the 10,000 (one in five of the others with two events and
their messages in the same tables), found by its 8-character reference.
PostgreSQL runs too when the local server helper can start one (``LocalPostgres``).
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_console_list.py``.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qs
from zoneinfo import ZoneInfo

from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import ChatRef
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.staff_console.deliveries_page import deliveries_page
from bot.staff_console.delivery_filters import (
    DeliveryFilters,
    FiltersRefused,
    parse_cursor,
    parse_filters,
)
from bot.staff_console.delivery_timeline import DeliveryTimeline, delivery_timeline
from bot.store import ListedDetails, SendKey, SentReceipt, Store
from bot.store.delivery_history import CUSTOMER, OPERATORS, HistoryEvent, HistoryMessage, Place
from bot.store.delivery_list import ListCursor
from bot.store.pg_local_server import LocalPostgres, LocalPostgresError
from conversations.texts.catalogue import DEFAULT_TEXTS

DELIVERIES = 10_000
TIMELINE_EVENTS = 50
RUNS = 40
NOW = 1_800_000_000.0
ZONE = ZoneInfo("Africa/Lagos")
CATALOGUE = DEFAULT_TEXTS.with_channels(*shipped_channel_texts()).business_catalogue()
STATUSES = (
    ("delivered", 70), ("cancelled", 8), ("in_transit", 5), ("picked_up", 4),
    ("matched", 5), ("pending", 5), ("awaiting_price", 3),
)  # fmt: skip
CHANNELS = (("telegram", 80), ("agents", 15), ("console", 5))
SEARCHED_ID = "3f2a9c1e-0000-4000-8000-000000000000"
SEARCHED_PHONE = "+2348031234567"

PAGES: tuple[tuple[str, str], ...] = (
    ("first page", ""),
    ("status=pending", "status=pending"),
    ("status=matched,picked_up,in_transit", "status=matched,picked_up,in_transit"),
    ("day (local, 30 days ago)", "day=2026-12-16"),
    ("channel=agents", "channel=agents"),
    ("attention=unpriced", "attention=unpriced"),
    ("attention=unassigned", "attention=unassigned"),
    ("attention=failed_news", "attention=failed_news"),
    ("attention=waiting_handoff", "attention=waiting_handoff"),
    ("attention (all four)", "attention=unpriced,unassigned,failed_news,waiting_handoff"),
    ("search ref 3F2A9C", "q=3F2A9C"),
    ("search ref 8 chars", "q=3f2a9c1e"),
    ("search phone 0803 123 4567", "q=0803 123 4567"),
    ("search phone +234...", "q=%2B2348031234567"),
    ("status + day + channel", "status=delivered&day=2027-01-10&channel=telegram"),
)


def _weighted(rng: random.Random, table: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([name for name, _ in table], [weight for _, weight in table])[0]


async def fill(store: Store) -> None:
    rng = random.Random(36)
    for n in range(DELIVERIES):
        delivery_id = (
            SEARCHED_ID if n == 5000 else f"{rng.getrandbits(32):08x}-{n:04x}-4000-8000-{n:012x}"
        )
        status = _weighted(rng, STATUSES)
        channel = _weighted(rng, CHANNELS)
        user = rng.randrange(1, 2500)
        priced = status != "awaiting_price" and rng.random() > 0.03
        ridden = status in ("matched", "picked_up", "in_transit", "delivered")
        phone = SEARCHED_PHONE if n % 997 == 0 else f"+234803{rng.randrange(10**7):07d}"
        details = ListedDetails(
            fee=float(rng.randrange(1500, 6000, 100)) if priced else None,
            currency="NGN",
            rider_id=f"rdr_{rng.randrange(40)}" if ridden else None,
            rider_name=f"Rider {rng.randrange(40)}" if ridden else None,
            customer_name=f"Customer {user}",
            sender_phone=f"+234802{user:07d}" if rng.random() < 0.8 else None,
        )
        chat = ChatRef(channel, user)
        created = NOW - rng.uniform(0, 30 * 86_400)
        await store.deliveries.add(
            delivery_id, chat, user, created, phone, None, status, details=details
        )
        if rng.random() < 0.01:
            await store.blocked.mark(chat)
        if rng.random() < 0.005:
            await store.handoffs.open(
                chat, chat.user(user), name="Ada", flow=None, step=None, language=None
            )
        if n == 5000:
            await _history(store, delivery_id, chat, created, events=TIMELINE_EVENTS)
        elif n % 5 == 0:
            await _history(store, delivery_id, chat, created, events=2)
        if rng.random() < 0.003:
            event = f"evt_{n}"
            await store.inbox.add(event, delivery_id, "delivery.updated", int(created), b"{}")
            await store.relayed.finish_event(event, delivery_id, gave_up=True)


async def _history(
    store: Store, delivery_id: str, chat: ChatRef, created: float, *, events: int
) -> None:
    """``events`` events of the delivery, each with its message to the customer and to two
    operators, and an audit entry every tenth, as the relay and the operators write them."""
    place = Place("12 Herbert Macaulay Way, Yaba", 6.5095, 3.3711)
    for index in range(events):
        event_id = f"evt_{delivery_id}_{index}"
        at = created + index * 60
        history = HistoryEvent(
            event_id, delivery_id, "delivery.status_changed", int(at), at + 1, "matched",
            "pending", f"Delivery {delivery_id[:8].upper()} moved on.", "Your rider is coming.",
            ("Tell the customer.", "The rider can still be changed."), place, place,
        )  # fmt: skip
        await store.relayed.finish_event(event_id, delivery_id, history=history)
        receipts = [
            SentReceipt(
                SendKey(event_id, to, "update" if to == chat else "operator"),
                index,
                HistoryMessage(
                    delivery_id,
                    event_id,
                    to,
                    "update",
                    CUSTOMER if to == chat else OPERATORS,
                    f"Delivery {delivery_id[:8].upper()}: your rider is coming.",
                    at + 2,
                ),
            )
            for to in (chat, ChatRef("telegram", -100900), ChatRef("telegram", -100901))
        ]
        await store.relayed.record_sent(receipts)
        if index % 10 == 0:
            await store.audit.record("telegram:1900", "assign", delivery_id, "done", "rdr_1")


async def _timed_timeline(store: Store) -> tuple[float, float, int]:
    times = []
    entries = 0
    for _ in range(RUNS):
        started = time.perf_counter()
        found = await delivery_timeline(store, CATALOGUE, ZONE, SEARCHED_ID[:8])
        times.append((time.perf_counter() - started) * 1000)
        assert isinstance(found, DeliveryTimeline), found
        entries = len(found.entries)
    times.sort()
    p95 = times[max(0, round(len(times) * 0.95) - 1)]
    return statistics.median(times), p95, entries


def _filters(query: str) -> DeliveryFilters:
    found = parse_filters(
        CATALOGUE,
        parse_qs(query),
        channels=("telegram", "agents", "console"),
        zone=ZONE,
        phone_region="NG",
    )
    assert isinstance(found, DeliveryFilters), found
    return found


async def _page_50_cursor(store: Store) -> ListCursor:
    filters, after = _filters(""), None
    for _ in range(49):
        page = await deliveries_page(store, CATALOGUE, filters, after)
        assert page.next_after is not None
        cursor = parse_cursor(CATALOGUE, page.next_after)
        assert not isinstance(cursor, FiltersRefused)
        after = cursor
    assert after is not None
    return after


async def _timed(
    store: Store, filters: DeliveryFilters, after: ListCursor | None
) -> tuple[float, float, int]:
    times = []
    rows = 0
    for _ in range(RUNS):
        started = time.perf_counter()
        page = await deliveries_page(store, CATALOGUE, filters, after)
        times.append((time.perf_counter() - started) * 1000)
        rows = len(page.rows)
    times.sort()
    p95 = times[max(0, round(len(times) * 0.95) - 1)]
    return statistics.median(times), p95, rows


async def measure(store: Store, backend: str) -> None:
    started = time.perf_counter()
    await fill(store)
    print(f"\n{backend}: {DELIVERIES:,} deliveries filled in {time.perf_counter() - started:.1f} s")
    print(f"{'page':<40} {'rows':>5} {'median ms':>10} {'p95 ms':>8}")
    cases: list[tuple[str, DeliveryFilters, ListCursor | None]] = [
        (name, _filters(query), None) for name, query in PAGES
    ]
    cases.insert(1, ("page 50 (by its cursor)", _filters(""), await _page_50_cursor(store)))
    for name, filters, after in cases:
        median, p95, rows = await _timed(store, filters, after)
        print(f"{name:<40} {rows:>5} {median:>10.2f} {p95:>8.2f}")
    median, p95, entries = await _timed_timeline(store)
    name = f"a delivery's page ({TIMELINE_EVENTS} events)"
    print(f"{name:<40} {entries:>5} {median:>10.2f} {p95:>8.2f}")


async def on_both_backends(measure: Callable[[Store, str], Awaitable[None]], name: str) -> None:
    """``measure`` on a new SQLite file, then on a new PostgreSQL database (``name``) when
    the local server helper can start one."""
    base = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    try:
        async with Store.open(base / "bot.db", synchronous="NORMAL") as store:
            await measure(store, "SQLite")
        try:
            server = LocalPostgres.start(Path(tempfile.mkdtemp(prefix="deliverybot-pg-")))
        except LocalPostgresError as error:
            print(f"\nPostgreSQL skipped: {error}")
            return
        try:
            dsn = await server.create_database(name.replace("-", "_"))
            store = await Store.connect_postgres(
                dsn, media_dir=base / "pg-media", channels=SHIPPED_CHANNEL_KINDS
            )
            try:
                await measure(store, "PostgreSQL")
            finally:
                await store.close()
        finally:
            server.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


async def main() -> None:
    await on_both_backends(measure, "bench-console-list")


if __name__ == "__main__":
    asyncio.run(main())
