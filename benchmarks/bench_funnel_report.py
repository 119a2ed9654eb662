"""``deliverybot report`` over 100,000 funnel rows: its time and memory, on SQLite and PostgreSQL.

The rows are a realistic mix written through ``store.funnel.add``: 4,000 conversations of the
pickup & delivery flow over 30 days, each reaching and answering its steps in order until it
is abandoned (a third of them, at a random step: cancelled or idle) or creates (the rest),
with a re-ask now and then; about 25 events a conversation, 100,000 in all. The report is then
built for the last 7 days, the last 30, and one flow over 30 days, each run 5 times: min and
median wall time, and the peak of memory the Python side allocated while building it
(``tracemalloc``; the database's own memory is not counted).
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_funnel_report.py``.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.funnel.recorder import day_of
from bot.funnel.report import funnel_report, render_table
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.funnel_events import FunnelEvent
from bot.store.pg_local_server import LocalPostgres

ROWS = 100_000
RUNS = 5
STEPS = ("service_kind", "pickup_place", "pickup_address", "dropoff_place", "sender_name",
         "receiver_name", "receiver_phone", "package_description", "package_size", "photos",
         "payment", "summary")  # fmt: skip
REASONS = ("invalid_answer", "asked_again", "refused_validation", "refused_coverage")


def events(now: float) -> list[FunnelEvent]:
    rng = random.Random(7)
    rows: list[FunnelEvent] = []
    conversation = 0
    while len(rows) < ROWS:
        conversation += 1
        session = f"s{conversation:06d}"
        at = now - rng.uniform(0, 30 * 86_400)
        gives_up = rng.randrange(len(STEPS)) if rng.random() < 1 / 3 else None
        for index, step in enumerate(STEPS):
            rows.append(
                FunnelEvent(day_of(at), "pickup_delivery", step, "reached", None, session, at)
            )
            at += rng.uniform(2, 40)
            if rng.random() < 0.1:
                reason = rng.choice(REASONS)
                rows.append(
                    FunnelEvent(day_of(at), "pickup_delivery", step, "reasked", reason, session, at)
                )
            if index == gives_up:
                why = rng.choice(("cancelled", "idle"))
                rows.append(
                    FunnelEvent(day_of(at), "pickup_delivery", step, "abandoned", why, session, at)
                )
                break
            rows.append(
                FunnelEvent(day_of(at), "pickup_delivery", step, "answered", None, session, at)
            )
            if step == "summary":
                rows.append(
                    FunnelEvent(day_of(at), "pickup_delivery", step, "created", None, session, at)
                )
    return rows[:ROWS]


async def measure(store: Store, label: str, now: float) -> None:
    for name, days, flow in (("7 days", 7, None), ("30 days", 30, None),
                             ("30 days, one flow", 30, "pickup_delivery")):  # fmt: skip
        seconds: list[float] = []
        peaks: list[int] = []
        for _ in range(RUNS):
            tracemalloc.start()
            started = time.perf_counter()
            rows = await funnel_report(store.funnel, since_day=day_of(now) - days, flow=flow)
            render_table(rows, period=f"{days}d")
            seconds.append(time.perf_counter() - started)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        fastest, median = min(seconds) * 1e3, statistics.median(seconds) * 1e3
        print(
            f"  {label:<10} {name:<18} {fastest:7.1f} {median:7.1f} ms"
            f"   peak {max(peaks) / 1e6:5.1f} MB   ({len(rows)} steps)"
        )


async def main() -> None:
    now = time.time()
    rows = events(now)
    print(f"deliverybot report over {len(rows):,} funnel rows")
    print(f"(min, median of {RUNS} runs; the Python side's peak memory):")
    scratch = Path(tempfile.mkdtemp())
    try:
        async with Store.open(scratch / "bot.sqlite3", synchronous="NORMAL") as store:
            await store.funnel.add(rows)
            await measure(store, "SQLite", now)
        pg_base = Path(tempfile.mkdtemp(prefix="bench-funnel-pg-"))  # its server's own user
        server = LocalPostgres.start(pg_base)
        try:
            dsn = await server.create_database("funnel")
            store = await Store.connect_postgres(
                dsn, media_dir=scratch / "media", channels=SHIPPED_CHANNEL_KINDS
            )
            try:
                await store.funnel.add(rows)
                await measure(store, "PostgreSQL", now)
            finally:
                await store.close()
        finally:
            server.stop()
            shutil.rmtree(pg_base, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
