"""The send limits instances keep together (``bot.store.send_limits``, ``pg_send_limits``).

Telegram's send budget: two ``Store``s on one PostgreSQL database (two instances) on one fake
clock count every send in the same windows and share holds (of a chat, or of every chat);
SQLite's grants every send (its process's ``RateLimiter`` is the whole limit). Agent
channels' request buckets: the same contract on both backends, and on PostgreSQL one bucket
for both instances.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.pg_database import PgDatabase
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_send_limits import EVERY_CHAT, PgRequestBuckets, PgSendBudget
from bot.store.send_limits import SpanLimit
from tests.store.pg_instances import pg_instances
from tests.support.clock import FakeClock

OVERALL = SpanLimit(4, 1.0)
PRIVATE = (SpanLimit(2, 3.0),)
GROUP = (SpanLimit(3, 60.0), SpanLimit(2, 9.0))
KEEP = 60.0
ALICE, BOB, CAROL, GROUP_CHAT = 1001, 1002, 1003, -100200


def database(store: Store) -> PgDatabase:
    db = store._db
    assert isinstance(db, PgDatabase)
    return db


@pytest.fixture
async def instances(
    postgres_server: LocalPostgres, tmp_path: Path, fake_clock: FakeClock
) -> AsyncIterator[list[Store]]:
    async with pg_instances(postgres_server, tmp_path / "media", clock=fake_clock) as stores:
        yield stores


Budgets = tuple[PgSendBudget, PgSendBudget, Store]


@pytest.fixture
def two(instances: list[Store], fake_clock: FakeClock) -> Budgets:
    """Each instance's send budget on the fake clock, and the first instance's store."""
    first, second = instances
    a = PgSendBudget(database(first), clock=fake_clock)
    return a, PgSendBudget(database(second), clock=fake_clock), first


async def send(budget: PgSendBudget, chat_id: int) -> float:
    chat = GROUP if chat_id < 0 else PRIVATE
    return await budget.try_send(chat_id, OVERALL, chat, KEEP)


async def test_the_overall_window_counts_both_instances_sends(
    two: Budgets, fake_clock: FakeClock
) -> None:
    a, b, _ = two
    assert [await send(a, ALICE), await send(b, BOB)] == [0.0, 0.0]
    fake_clock.advance(0.25)
    assert [await send(a, CAROL), await send(b, GROUP_CHAT)] == [0.0, 0.0]
    fake_clock.advance(0.25)
    # Four sends in the last second, two from each: the fifth waits for the first to age out.
    assert await send(a, 1004) == pytest.approx(0.5)
    fake_clock.advance(0.5)
    assert await send(b, 1004) == 0.0


async def test_a_chats_windows_count_both_instances_sends(
    two: Budgets, fake_clock: FakeClock
) -> None:
    a, b, _ = two
    assert await send(a, ALICE) == 0.0
    fake_clock.advance(1.0)
    assert await send(b, ALICE) == 0.0
    fake_clock.advance(1.0)
    assert await send(a, ALICE) == pytest.approx(1.0)  # 2 in any 3 s: the first's 3 s end
    assert await send(b, BOB) == 0.0  # another chat has its own window
    fake_clock.advance(1.0)
    assert await send(b, ALICE) == 0.0


async def test_a_group_is_kept_to_every_one_of_its_windows(
    two: Budgets, fake_clock: FakeClock
) -> None:
    a, b, _ = two
    assert [await send(a, GROUP_CHAT), await send(b, GROUP_CHAT)] == [0.0, 0.0]
    assert await send(a, GROUP_CHAT) == pytest.approx(9.0)  # the burst: 2 in any 9 s
    fake_clock.advance(9.0)
    assert await send(b, GROUP_CHAT) == 0.0
    fake_clock.advance(9.0)
    assert await send(a, GROUP_CHAT) == pytest.approx(42.0)  # 3 in any 60 s


async def test_a_hold_from_one_instance_holds_that_chat_in_the_other(
    two: Budgets, fake_clock: FakeClock
) -> None:
    a, b, _ = two
    await a.hold(ALICE, 30.0)
    await b.hold(ALICE, 10.0)  # a shorter hold never shortens a longer one
    assert await send(b, ALICE) == pytest.approx(30.0)
    assert await send(b, BOB) == 0.0
    fake_clock.advance(30.0)
    assert await send(b, ALICE) == 0.0


async def test_sends_older_than_the_longest_window_are_forgotten(
    two: Budgets, fake_clock: FakeClock
) -> None:
    a, _, store = two
    for chat_id in (ALICE, BOB, GROUP_CHAT):
        assert await send(a, chat_id) == 0.0
    fake_clock.advance(KEEP)
    assert await send(a, CAROL) == 0.0
    rows = await database(store).fetch_all("SELECT chat_id FROM telegram_sends")
    assert [int(row[0]) for row in rows] == [CAROL]


async def test_sqlite_grants_every_send_its_process_limiter_lines_up(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "bot.db") as store:
        for _ in range(10):
            assert await store.send_budget.try_send(ALICE, OVERALL, PRIVATE, KEEP) == 0.0
        await store.send_budget.hold(ALICE, 30.0)
        assert await store.send_budget.try_send(ALICE, OVERALL, PRIVATE, KEEP) == 0.0


async def test_a_channels_bucket_gives_its_requests_then_refills_evenly(
    store: Store, fake_clock: FakeClock
) -> None:
    buckets = store.request_buckets
    assert [await buckets.take("shop", 2, 60.0) for _ in range(2)] == [None, None]
    wait = await buckets.take("shop", 2, 60.0)
    # On PostgreSQL the store's bucket keeps the database server's clock, which moves on.
    assert wait is not None and 29.0 < wait <= 30.0
    assert await buckets.take("another", 2, 60.0) is None


async def test_two_instances_take_from_one_bucket_per_channel(
    instances: list[Store], fake_clock: FakeClock
) -> None:
    a, b = (PgRequestBuckets(database(store), clock=fake_clock) for store in instances)
    taken = [await bucket.take("shop", 6, 60.0) for bucket in (a, b, a, b, a, b)]
    assert taken == [None] * 6
    assert await a.take("shop", 6, 60.0) == pytest.approx(10.0)
    assert await b.take("shop", 6, 60.0) == pytest.approx(10.0)
    fake_clock.advance(10.0)
    assert await b.take("shop", 6, 60.0) is None
    assert await a.take("shop", 6, 60.0) == pytest.approx(10.0)


async def test_a_hold_of_every_chat_from_one_instance_holds_every_chat_in_the_other(
    two: Budgets, fake_clock: FakeClock
) -> None:
    a, b, _ = two
    await a.hold(ALICE, 30.0)
    await a.hold_every_chat(5.0)
    assert await send(b, BOB) == pytest.approx(5.0)
    assert await send(b, GROUP_CHAT) == pytest.approx(5.0)
    assert await send(b, ALICE) == pytest.approx(30.0)  # a chat's longer hold still counts
    fake_clock.advance(5.0)
    assert [await send(b, BOB), await send(a, GROUP_CHAT)] == [0.0, 0.0]
    assert await send(a, ALICE) == pytest.approx(25.0)


async def test_no_chat_can_be_held_under_the_every_chat_row(two: Budgets) -> None:
    a, _, _ = two
    with pytest.raises(ValueError, match="hold_every_chat"):
        await a.hold(EVERY_CHAT, 5.0)
