"""Many business stores on one PostgreSQL database through one ``PgHost``: what a borrowed
connection's ``search_path`` costs, and how many connections the server sees.

On a throwaway local server, over loopback TCP:

1. the round trip of ``SET search_path`` (what a store on a host pays when it borrows a
   connection that last searched another business's schema) beside a ``SELECT 1`` round
   trip, and a prepared lookup by key run in one schema after another (re-planned each
   time: PostgreSQL re-plans a statement whose search path changed) beside the same lookup
   in one schema; median of many, in microseconds;
2. ``--businesses`` business stores (50 by default) opened on one host, each in its own
   schema, lock namespace and owner, each saving a session, holding a chat lock and asking
   for its jobs' leadership; then the client connections ``pg_stat_activity`` counts, against
   the host's bound and against what the stores would open alone. Opening a store migrates a
   new schema: that DDL is most of the run's time (about a quarter to half a second each).

Run: ``.venv/bin/python benchmarks/bench_pg_host.py [--businesses 1000]``. Prints figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import asyncpg

from bot.chat_ref import TELEGRAM, ChatRef
from bot.store import Store
from bot.store.pg_host import PgHost
from bot.store.pg_local_server import LocalPostgres
from bot.telegram.telegram_kind import TELEGRAM_KIND

ROUNDS = 3000
CHAT = ChatRef(TELEGRAM, 4242)
# A table keyed as the store's sessions are, for a lookup by key.
_SESSIONS = """CREATE TABLE sessions (
    channel TEXT NOT NULL, chat_id BIGINT NOT NULL, data TEXT, PRIMARY KEY (channel, chat_id))"""
_LOOKUP = "SELECT data FROM sessions WHERE channel = $1 AND chat_id = $2"


def micros(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e6:7.1f} µs"


async def round_trips(dsn: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        for schema in ("b_x", "b_y"):
            await conn.execute(f"CREATE SCHEMA {schema}; SET search_path TO {schema}")
            await conn.execute(_SESSIONS)
        await conn.execute("SET search_path TO b_x")
        statement = await conn.prepare(_LOOKUP)
        timed: dict[str, list[float]] = {
            "SELECT 1": [],
            "SET": [],
            "same": [],
            "switch": [],
        }
        for turn in range(ROUNDS):
            start = time.perf_counter()
            await conn.fetchval("SELECT 1")
            timed["SELECT 1"].append(time.perf_counter() - start)
            start = time.perf_counter()
            await conn.execute(f"SET search_path TO {'b_y' if turn % 2 else 'b_x'}")
            timed["SET"].append(time.perf_counter() - start)
        await conn.execute("SET search_path TO b_x")
        for _ in range(ROUNDS):
            start = time.perf_counter()
            await statement.fetchval(TELEGRAM, 1)
            timed["same"].append(time.perf_counter() - start)
        for turn in range(ROUNDS):
            await conn.execute(f"SET search_path TO {'b_y' if turn % 2 else 'b_x'}")
            start = time.perf_counter()
            await statement.fetchval(TELEGRAM, 1)
            timed["switch"].append(time.perf_counter() - start)
    finally:
        await conn.close()
    print(f"round trip SELECT 1:                    {micros(timed['SELECT 1'])}")
    print(f"SET search_path (a borrow's switch):    {micros(timed['SET'])}")
    print(f"prepared lookup, same schema:           {micros(timed['same'])}")
    print(f"prepared lookup, schema just switched:  {micros(timed['switch'])}")


async def many_stores(dsn: str, businesses: int, media: Path) -> None:
    host = await PgHost.connect(dsn, pool_size=10)
    started = time.perf_counter()
    stores: list[Store] = []
    try:
        for number in range(businesses):
            stores.append(
                await Store.connect_postgres(
                    dsn,
                    media_dir=media / f"b{number}",
                    lock_namespace=1000 + number,
                    channels=(TELEGRAM_KIND,),
                    db_schema=f"b_{number}",
                    business=f"business-{number}",
                    host=host,
                )
            )
        opened = time.perf_counter() - started

        async def work(number: int, store: Store) -> None:
            await store.sessions.save(CHAT, 4242, f'{{"business": {number}}}')
            async with store.chat_locks.hold(CHAT):
                record = await store.sessions.get(CHAT)
                assert record is not None and record.data == f'{{"business": {number}}}'
            await store.leadership.leads()

        started = time.perf_counter()
        await asyncio.gather(*(work(n, store) for n, store in enumerate(stores)))
        worked = time.perf_counter() - started
        conn = await asyncpg.connect(dsn)
        try:
            seen = await conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
            )
        finally:
            await conn.close()
    finally:
        for store in stores:
            await store.close()
        await host.close()
    # Alone, a store opens its pool (at least 1 of up to 10), its chat locks' pool (the same),
    # the shared lock connection once a chat is held and the leadership connection.
    print(f"{businesses} business stores opened (migrating each schema) in {opened:.1f} s")
    print(f"each: a session saved, read under its chat lock, leadership asked: {worked:.2f} s")
    print(
        f"client connections: {seen} (host's bound {host.most_connections}; "
        f"alone the stores would open at least {businesses * 4})"
    )


async def main(businesses: int) -> None:
    base = Path(tempfile.mkdtemp(prefix="bench-pg-host-"))
    server = LocalPostgres.start(base)  # its directory is handed to the server's user
    try:
        await round_trips(await server.create_database("round_trips"))
        media = Path(tempfile.mkdtemp(prefix="bench-pg-host-media-"))
        try:
            await many_stores(await server.create_database("host"), businesses, media)
        finally:
            shutil.rmtree(media, ignore_errors=True)
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--businesses", type=int, default=50)
    asyncio.run(main(parser.parse_args().businesses))
