"""A customer's "my data" and "forget me" with 10,000 deliveries of theirs, among 10,000
more of a thousand other customers, on SQLite and PostgreSQL.

Each delivery has what the relay leaves of it: two timeline events (addresses, summary), two
messages (one to the customer, one to the operators) and a sent marker; the customer also
has remembered details, a session, a photo and a few audit entries. The rows are written in
one transaction, a hundred to a statement (the bench measures the store's reads and writes,
not the fill). Then ``store.customer_data.export`` runs RUNS times (min / median, and the
document's size as JSON), the file a customer receives is written from it (``export_file``,
with the longest the event loop waited meanwhile), ``forget`` once (it is one transaction:
the 10,000 deliveries anonymised, their 40,000 timeline rows emptied), and ``forget`` again
(nothing left to do).
PostgreSQL runs too when the local server helper can start one (``LocalPostgres``).
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_customer_data.py``.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Sequence

from benchmarks.bench_console_list import on_both_backends
from bot.chat_ref import ChatRef, UserRef
from bot.privacy.my_data_file import export_file
from bot.store import Store, delete_files
from bot.store.database import Executor

DELIVERIES = 10_000
OTHERS = 1_000  # other customers, ten deliveries each
RUNS = 3
NOW = 1_800_000_000.0
CUSTOMER = UserRef("telegram", 424242)
CHUNK = 100

_DELIVERY = (
    "INSERT INTO deliveries (delivery_id, channel, chat_id, user_id, created_at, receiver_phone,"
    " tracking_url, status, updated_at, saved_order, customer_name, sender_phone, fee, currency)"
    " VALUES "
)
_EVENT = (
    "INSERT INTO timeline_events (event_id, delivery_id, event_type, created, received_at,"
    " status, summary, agent_notes, pickup_address, dropoff_address) VALUES "
)
_MESSAGE = (
    "INSERT INTO timeline_messages (delivery_id, event_id, channel, chat_id, kind, audience,"
    " text, at) VALUES "
)
_MARKER = (
    "INSERT INTO sent_messages (event_id, channel, chat_id, kind, claimed_at, sent_at) VALUES "
)


async def _insert(tx: Executor, head: str, rows: Sequence[tuple[object, ...]]) -> None:
    """``rows`` by ``head`` (an INSERT up to VALUES), ``CHUNK`` rows a statement."""
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        marks = ", ".join("(" + ", ".join("?" * len(chunk[0])) + ")" for _ in chunk)
        await tx.execute(head + marks, [value for row in chunk for value in row])


def _rows(user: UserRef, count: int, name: str) -> dict[str, list[tuple[object, ...]]]:
    """``count`` delivered deliveries of ``user`` (named ``name``) and what hangs off them."""
    rows: dict[str, list[tuple[object, ...]]] = {"d": [], "e": [], "m": [], "s": []}
    order = json.dumps({"sender": name, "package": "two cartons of shoes", "pickup": "1 A St"})
    for n in range(count):
        delivery = f"{user.id:08x}-{n:06d}"
        at = NOW - n * 60
        rows["d"].append(
            (
                *(delivery, user.channel, user.id, user.id, at, "+2348030000000"),
                *(f"https://t.example/{delivery}", "delivered", at, order, name, "+2348031111111"),
                *(2500.0, "NGN"),
            )
        )
        for k, status in enumerate(("picked_up", "delivered")):
            event = f"evt-{delivery}-{k}"
            summary = f"{status} for {name}"
            rows["e"].append(
                (
                    event,
                    delivery,
                    "status",
                    int(at) + k,
                    at + k,
                    status,
                    summary,
                    "[]",
                    "1 A St",
                    "2 B Rd",
                )
            )
            chat_id = user.id if k == 0 else -1001
            audience = "customer" if k == 0 else "operators"
            text = f"{name}, your delivery is {status}"
            rows["m"].append((delivery, event, user.channel, chat_id, "update", audience, text, at))
        rows["s"].append((f"evt-{delivery}-0", user.channel, user.id, "update", at, at))
    return rows


async def fill(store: Store) -> None:
    everyone = [(CUSTOMER, DELIVERIES, "Ada Customer")]
    everyone += [
        (UserRef("telegram", 1000 + n), DELIVERIES // OTHERS, f"Other {n}") for n in range(OTHERS)
    ]
    async with store._db.transaction() as tx:
        for user, count, name in everyone:
            rows = _rows(user, count, name)
            await _insert(tx, _DELIVERY, rows["d"])
            await _insert(tx, _EVENT, rows["e"])
            await _insert(tx, _MESSAGE, rows["m"])
            await _insert(tx, _MARKER, rows["s"])
    chat = ChatRef(CUSTOMER.channel, CUSTOMER.id)
    await store.customers.put(CUSTOMER, json.dumps({"name": "Ada Customer", "places": ["1 A St"]}))
    await store.sessions.save(chat, CUSTOMER.id, json.dumps({"answers": {"name": "Ada"}}))
    await store.media.put(
        b"\xff\xd8photo", content_type="image/jpeg", chat=chat, expires_at=NOW * 2
    )
    for n in range(5):
        await store.audit.record("bot", "limit", str(CUSTOMER), "refused: orders", str(n))


async def _longest_stall(done: asyncio.Event) -> float:
    """The longest the event loop went without running this task (ms) until ``done``."""
    longest = 0.0
    last = time.perf_counter()
    while not done.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        longest = max(longest, now - last - 0.001)
        last = now
    return longest * 1000


async def measure(store: Store, backend: str) -> None:
    started = time.perf_counter()
    await fill(store)
    if backend == "PostgreSQL":
        await store._db.execute("ANALYZE")  # as autovacuum would have, after such a fill
    print(
        f"\n{backend}: {DELIVERIES:,} deliveries of one customer,"
        f" {DELIVERIES:,} of {OTHERS:,} others"
    )
    print(f"(filled in {time.perf_counter() - started:.1f} s)")
    times = []
    stalls = []
    for _ in range(RUNS):
        done = asyncio.Event()
        watch = asyncio.create_task(_longest_stall(done))
        started = time.perf_counter()
        exported = await store.customer_data.export(CUSTOMER)
        times.append((time.perf_counter() - started) * 1000)
        done.set()
        stalls.append(await watch)
    size = len(json.dumps(exported.document)) / 1e6
    print(
        f"export: {min(times):.0f} / {statistics.median(times):.0f} ms, {size:.1f} MB of JSON;"
        f" the loop stalled at most {min(stalls):.0f} / {statistics.median(stalls):.0f} ms"
    )
    done = asyncio.Event()
    watch = asyncio.create_task(_longest_stall(done))
    started = time.perf_counter()
    data = await export_file(exported)
    took = (time.perf_counter() - started) * 1000
    done.set()
    print(
        f"the customer's file: {took:.0f} ms, {len(data) / 1e6:.1f} MB indented;"
        f" the loop stalled at most {await watch:.0f} ms"
    )
    started = time.perf_counter()
    outcome = await store.customer_data.forget(CUSTOMER)
    await delete_files(store.media_dir, outcome.files)
    took = (time.perf_counter() - started) * 1000
    print(
        f"forget: {took:.0f} ms, {outcome.anonymised_deliveries:,} deliveries anonymised,"
        f" {outcome.erased}"
    )
    started = time.perf_counter()
    again = await store.customer_data.forget(CUSTOMER)
    took = (time.perf_counter() - started) * 1000
    print(f"forget again: {took:.1f} ms, {again.anonymised_deliveries} anonymised")


async def main() -> None:
    await on_both_backends(measure, "bench-customer-data")


if __name__ == "__main__":
    asyncio.run(main())
