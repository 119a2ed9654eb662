"""The console's customers among 10,000 customers (30,000 deliveries): a search's and a
customer's page time, on SQLite and PostgreSQL.

The store is filled through ``store.deliveries.add``: three deliveries per customer over 30
days, a name on each order (first and last names drawn from short lists, plus the customer's
number, so a part of a name finds a few or many), a sender phone on most, one customer in a
hundred blocked, and limit hits in the audit trail for some. Then each search is built RUNS
times by ``customers_page.search_results`` (the store's queries and the rows in words, as the
console draws them), and a customer's page by ``customer_page``; median and p95 printed.
PostgreSQL runs too when the local server helper can start one (``LocalPostgres``).
On the 2-core machine shared by six builds (loaded: the fill took 66 s, 10 s when quieter),
median ms SQLite / PostgreSQL: a part of a name 100-167 / 90-220 (46-77 on SQLite when
quieter, before the covering index); a phone 0.2 / 8; a Telegram id or ``telegram:<id>``
0.2 / 5; a customer's page 0.7 / 19.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_console_customers.py``.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from datetime import UTC

from benchmarks.bench_console_list import on_both_backends
from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import ChatRef, UserRef
from bot.staff_console.customers_page import customer_page, search_results
from bot.staff_console.customers_query import CustomersQuery, parse_search
from bot.store import ListedDetails, Store
from conversations.texts.catalogue import DEFAULT_TEXTS

CUSTOMERS = 10_000
PER_CUSTOMER = 3
RUNS = 40
NOW = 1_800_000_000.0
CATALOGUE = DEFAULT_TEXTS.with_channels(*shipped_channel_texts()).business_catalogue()
FIRST = ("Ada", "Bola", "Chidi", "Dami", "Emeka", "Funmi", "Gbenga", "Halima", "Ifeoma", "Jide")
LAST = ("Okafor", "Adeyemi", "Bello", "Eze", "Lawal", "Musa", "Nwosu", "Ogun", "Sani", "Uche")
SEARCHES = (
    ("a whole name, one customer", "Chidi Lawal 4242"),
    ("a last name, many customers", "okafor"),
    ("a part matching nobody", "zzzz"),
    ("a phone, as written locally", "0802 000 4242"),
    ("a Telegram id", "4242"),
    ("telegram:4242", "telegram:4242"),
)


def _name(n: int) -> str:
    return f"{FIRST[n % 10]} {LAST[(n // 10) % 10]} {n}"


async def fill(store: Store) -> None:
    rng = random.Random(6)
    for user in range(1, CUSTOMERS + 1):
        chat = ChatRef("telegram", user)
        for k in range(PER_CUSTOMER):
            details = ListedDetails(
                fee=2500.0,
                currency="NGN",
                customer_name=_name(user),
                sender_phone=f"+234802{user:07d}" if rng.random() < 0.8 else None,
            )
            created = NOW - rng.uniform(0, 30 * 86_400)
            await store.deliveries.add(
                f"{user:08x}-{k:04x}-4000-8000-000000000000",
                chat,
                user,
                created,
                f"+234803{rng.randrange(10**7):07d}",
                None,
                rng.choice(("delivered", "cancelled", "pending")),
                details=details,
            )
        if user % 100 == 0:
            await store.customer_blocks.block(chat.user(user), by="shell", reason="spam")
        if user % 50 == 0:
            for _ in range(5):
                await store.audit.record("bot", "limit", str(chat.user(user)), "refused: x", "3")


async def _timed(act: Callable[[], Awaitable[int]]) -> tuple[float, float, int]:
    times = []
    rows = 0
    for _ in range(RUNS):
        started = time.perf_counter()
        rows = await act()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, round(len(times) * 0.95) - 1)], rows


async def measure(store: Store, backend: str) -> None:
    started = time.perf_counter()
    await fill(store)
    filled = time.perf_counter() - started
    print(f"\n{backend}: {CUSTOMERS:,} customers, {CUSTOMERS * PER_CUSTOMER:,} deliveries")
    print(f"(filled in {filled:.1f} s)")
    print(f"{'search':<40} {'rows':>5} {'median ms':>10} {'p95 ms':>8}")
    for name, typed in SEARCHES:
        query = await parse_search(CATALOGUE, store, typed, phone_region="NG")
        assert isinstance(query, CustomersQuery), query

        async def search(q: CustomersQuery = query) -> int:
            return len(await search_results(store, CATALOGUE, UTC, q))

        median, p95, rows = await _timed(search)
        print(f"{name:<40} {rows:>5} {median:>10.2f} {p95:>8.2f}")

    async def page() -> int:
        shown = await customer_page(store, CATALOGUE, UTC, UserRef("telegram", 4200))
        assert shown is not None
        return len(shown.deliveries) + len(shown.limits)

    median, p95, rows = await _timed(page)
    print(f"{'a customer page (blocked, limits hit)':<40} {rows:>5} {median:>10.2f} {p95:>8.2f}")


async def main() -> None:
    await on_both_backends(measure, "bench-console-customers")


if __name__ == "__main__":
    asyncio.run(main())
