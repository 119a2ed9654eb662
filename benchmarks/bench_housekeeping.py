"""Housekeeping's purge of idle sessions, and what the turns saved meanwhile wait.

A first pass after an upgrade (or after housekeeping was off) may find a large backlog of
abandoned chats. The store deletes them ``PURGE_BATCH`` rows a statement
(``store.sessions.purge_idle``); the anchor is the one statement deleting them all at once, as
before. A SQLite file holds ``IDLE`` sessions idle past the limit and ``ACTIVE`` recent ones
(~0.7 KB each); while the purge runs, a turn loop saves sessions of other chats one after
another, as customers answering would. Printed per variant, min / median over alternating
rounds: the purge's time, the longest a turn's save waited, and how many saves got through
during the purge. Prints figures only.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_housekeeping.py`` (about 5 seconds).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.chat_ref import TELEGRAM, ChatRef
from bot.store import Store

IDLE = 50_000
ACTIVE = 1_000
ROUNDS = 5
SESSION = '{"flow": "pickup_delivery", "answers": "' + "x" * 680 + '"}'
START = 1_800_000_000.0
IDLE_SECONDS = 14 * 86_400.0

_FILL = """WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
    INSERT INTO sessions (channel, chat_id, user_id, data, updated_at)
    SELECT ?, i, i, ?, ? FROM n"""
_ONE_STATEMENT = "DELETE FROM sessions WHERE updated_at < ?"

Purge = Callable[[Store, float], Awaitable[int]]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def batched(store: Store, before: float) -> int:
    return await store.sessions.purge_idle(before)


async def one_statement(store: Store, before: float) -> int:
    return await store._db.execute(_ONE_STATEMENT, (before,))


async def one_round(store: Store, clock: Clock, purge: Purge) -> tuple[float, float, int]:
    """(purge ms, longest save wait ms, saves during the purge) for one backlog."""
    clock.now = START
    await store._db.execute(_FILL, (IDLE, TELEGRAM, SESSION, clock.now))
    clock.now += IDLE_SECONDS + 3600
    purging = True
    waits: list[float] = []

    async def turns() -> None:
        chat = 10_000_000
        while purging:
            began = time.perf_counter()
            await store.sessions.save(ChatRef(TELEGRAM, chat + len(waits) % ACTIVE), 1, SESSION)
            waits.append(time.perf_counter() - began)

    saving = asyncio.create_task(turns())
    await asyncio.sleep(0)
    began = time.perf_counter()
    purged = await purge(store, clock.now - IDLE_SECONDS)
    took = time.perf_counter() - began
    purging = False
    await saving
    assert purged == IDLE, purged
    return took * 1000, max(waits, default=0.0) * 1000, len(waits)


async def main() -> None:
    variants: dict[str, Purge] = {"one statement (before)": one_statement, "batched": batched}
    figures: dict[str, list[tuple[float, float, int]]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as directory:
        clock = Clock()
        async with Store.open(Path(directory) / "bench.db", clock=clock) as store:
            for _ in range(ROUNDS):
                for name, purge in variants.items():
                    figures[name].append(await one_round(store, clock, purge))
    print(
        f"purging {IDLE:,} idle sessions beside {ACTIVE:,} active ones, SQLite "
        f"synchronous=FULL, {ROUNDS} alternating rounds (min / median)"
    )
    for name, runs in figures.items():
        took = [run[0] for run in runs]
        longest = [run[1] for run in runs]
        saves = [run[2] for run in runs]
        print(
            f"  {name:24} purge {min(took):6.0f} / {statistics.median(took):6.0f} ms"
            f"   longest save wait {min(longest):6.1f} / {statistics.median(longest):6.1f} ms"
            f"   saves meanwhile {min(saves):5d} / {statistics.median(saves):7.0f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
