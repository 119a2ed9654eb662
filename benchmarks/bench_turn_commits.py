"""P1, the store's part of a Telegram turn: one commit per turn beside two.

What the store does for each update, timed alone (no PTB, no engine), on a real SQLite file:

* one commit (the bot now): ``updates.begin`` (a read), the chat's session read, and the save
  that records the update id in the same statement, then ``updates.finish`` (nothing left to
  write);
* two commits (the anchor, as before): the update id inserted and committed first
  (``updates.seen``), then the session read, then the session saved in a commit of its own.

Both write a ~1.7 KB session (the size at the summary) to one of 50 chats, 200 turns a round,
11 alternating rounds, for ``synchronous=FULL`` (each commit waits for fsync) and ``NORMAL``.
Printed: µs per turn, min and median, and the ratio of the medians. Prints figures only.
Run: ``.venv/bin/python benchmarks/bench_turn_commits.py`` (about 15 seconds).
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
from bot.store.database import Synchronous

SESSION = '{"answers": "' + "x" * 1_680 + '"}'
TURNS = 200
ROUNDS = 11
CHATS = 50

Turn = Callable[[Store, int, int], Awaitable[None]]


async def one_commit(store: Store, update_id: int, chat_id: int) -> None:
    async def handle() -> None:  # in a task of its own, as PTB runs each update
        chat = ChatRef(TELEGRAM, chat_id)
        assert await store.updates.begin(update_id, chat)
        await store.sessions.get(chat)
        await store.sessions.save(chat, chat_id, SESSION)
        await store.updates.finish(update_id, chat)

    await asyncio.create_task(handle())


async def two_commits(store: Store, update_id: int, chat_id: int) -> None:
    async def handle() -> None:
        assert not await store.updates.seen(update_id)
        chat = ChatRef(TELEGRAM, chat_id)
        await store.sessions.get(chat)
        await store.sessions.save(chat, chat_id, SESSION)

    await asyncio.create_task(handle())


async def figures(directory: Path, sync: Synchronous) -> None:
    variants: dict[str, Turn] = {"one commit per turn": one_commit, "two commits": two_commits}
    rounds: dict[str, list[float]] = {name: [] for name in variants}
    stores = {
        name: await Store.connect(directory / f"{sync}-{number}.db", synchronous=sync)
        for number, name in enumerate(variants)
    }
    update_id = 0
    try:
        for number in range(ROUNDS):
            order = list(variants) if number % 2 == 0 else list(reversed(variants))
            for name in order:
                started = time.perf_counter()
                for turn in range(TURNS):
                    update_id += 1
                    await variants[name](stores[name], update_id, turn % CHATS)
                rounds[name].append((time.perf_counter() - started) / TURNS * 1e6)
    finally:
        for store in stores.values():
            await store.close()
    print(f"P1 store part of a turn, synchronous={sync}, {ROUNDS} x {TURNS} turns")
    for name, times in rounds.items():
        print(f"  {name:21} min {min(times):6.0f}  median {statistics.median(times):6.0f} µs/turn")
    one, two = (statistics.median(rounds[name]) for name in variants)
    print(f"  one / two commits     {one / two:6.2f}x")


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-turn-") as directory:
        for sync in ("FULL", "NORMAL"):
            await figures(Path(directory), sync)


if __name__ == "__main__":
    asyncio.run(main())
