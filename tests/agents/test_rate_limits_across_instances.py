"""Two instances on one PostgreSQL database share each agent channel's ``requests_per_minute``.

Each instance's ``RateLimits`` takes from its store's request buckets; both ask for a request
every second for two minutes on one fake clock. Together they are granted what one channel's
bucket allows (its capacity, then one every ``60 / requests_per_minute`` s), not twice that;
each with its own bucket, they would be.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.agents.channel_keys import RateLimits
from bot.settings import AgentChannel
from bot.store import Store
from bot.store.pg_database import PgDatabase
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_send_limits import PgRequestBuckets
from bot.store.send_limits import LocalBuckets
from tests.store.conftest import START
from tests.store.pg_instances import pg_instances
from tests.support.clock import FakeClock

SHOP = AgentChannel("shop", "0" * 64, requests_per_minute=6)
SECONDS = 120


@pytest.fixture
async def instances(postgres_server: LocalPostgres, tmp_path: Path) -> AsyncIterator[list[Store]]:
    async with pg_instances(postgres_server, tmp_path / "media") as stores:
        yield stores


async def granted(limits: list[RateLimits], clock: FakeClock) -> int:
    """Requests granted to ``limits`` asking in turn every second for SECONDS."""
    count = 0
    for _ in range(SECONDS):
        for one in limits:
            count += await one.take(SHOP) is None
        clock.advance(1.0)
    return count


async def test_two_instances_together_get_one_channels_requests(instances: list[Store]) -> None:
    clock = FakeClock(START)
    dbs = [store._db for store in instances]
    assert all(isinstance(db, PgDatabase) for db in dbs)
    limits = [RateLimits(PgRequestBuckets(db, clock=clock)) for db in dbs]  # type: ignore[arg-type]
    shared = await granted(limits, clock)
    # What one process's bucket grants the same asks: its 6, then about one every 10 s.
    one_clock = FakeClock(START)
    one = RateLimits(LocalBuckets(one_clock))
    assert shared == await granted([one, one], one_clock)
    assert 6 + SECONDS // 10 - 2 <= shared <= 6 + SECONDS // 10
    # Each with its own bucket, the two would have been granted about twice as many.
    own_clock = FakeClock(START)
    own = [RateLimits(LocalBuckets(own_clock)) for _ in range(2)]
    assert await granted(own, own_clock) >= 2 * shared - 2
