"""Several instances on one PostgreSQL database: what they coordinate through the database.

Each test opens two ``Store``s on one database (two instances, two holders) with one shared
fake clock: inbox claims and their leases, send claims, chat locks, the shared rate budget,
photos served by either instance.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.chat_ref import TELEGRAM, ChatRef
from bot.partner.shared_request_limiter import SharedRequestLimiter, key_fingerprint
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import SendKey, Store
from bot.store.inbox import DEFAULT_LEASE_SECONDS
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_rate_budget import IN_USE_RECHECK, PgRateBudget
from tests.support.clock import FakeClock
from tests.support.store_fixture import empty_postgres_database

Pair = tuple[Store, Store]


@pytest.fixture
async def two(
    postgres_server: LocalPostgres, tmp_path: Path, fake_clock: FakeClock
) -> AsyncIterator[Pair]:
    dsn = await empty_postgres_database(postgres_server)
    media = tmp_path / "shared-media"
    kinds = SHIPPED_CHANNEL_KINDS  # the channels whose chats the tests lock
    first = await Store.connect_postgres(dsn, media_dir=media, clock=fake_clock, channels=kinds)
    second = await Store.connect_postgres(dsn, media_dir=media, clock=fake_clock, channels=kinds)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def add_events(store: Store, *events: tuple[str, str, int]) -> None:
    for event_id, delivery_id, created in events:
        added = await store.inbox.add(event_id, delivery_id, "status", created, b"{}")
        assert added


async def test_an_event_is_claimed_by_one_instance_until_its_lease_runs_out(
    two: Pair, fake_clock: FakeClock
) -> None:
    a, b = two
    await add_events(a, ("e1", "d1", 100), ("e2", "d2", 101))
    assert [e.event_id for e in await a.inbox.claim_batch(a.holder)] == ["e1", "e2"]
    assert await b.inbox.claim_batch(b.holder) == []
    # The holder renews its own lease by claiming again.
    assert [e.event_id for e in await a.inbox.claim_batch(a.holder)] == ["e1", "e2"]
    assert await a.inbox.mark_processed("e1")
    fake_clock.advance(DEFAULT_LEASE_SECONDS + 1)  # a died mid-send: b takes over what is left
    assert [e.event_id for e in await b.inbox.claim_batch(b.holder)] == ["e2"]
    assert await a.inbox.claim_batch(a.holder) == []


async def test_a_delivery_being_relayed_by_one_instance_is_left_whole_to_it(two: Pair) -> None:
    a, b = two
    await add_events(a, ("e1", "d1", 100), ("e2", "d1", 102), ("e3", "d2", 101))
    assert [e.event_id for e in await a.inbox.claim_batch(a.holder, limit=1)] == ["e1"]
    # e2 is d1's too: relaying it beside e1 could reorder d1's messages.
    assert [e.event_id for e in await b.inbox.claim_batch(b.holder)] == ["e3"]


async def test_concurrent_claims_never_hand_one_event_to_two_instances(two: Pair) -> None:
    a, b = two
    await add_events(a, *((f"e{i}", f"d{i}", 100 + i) for i in range(60)))
    # Ten relays (holders) on two connection pools, all claiming at once.
    claims = await asyncio.gather(
        *(
            store.inbox.claim_batch(f"{store.holder}-{n}", limit=7)
            for store in (a, b)
            for n in range(5)
        )
    )
    handed = [event.event_id for batch in claims for event in batch]
    assert len(handed) == len(set(handed)) == 60


async def test_a_live_instances_send_claim_is_respected_a_dead_ones_taken_over(
    two: Pair, fake_clock: FakeClock
) -> None:
    a, b = two
    key = SendKey("e1", ChatRef("telegram", 10), "status")
    assert await a.sent.claim(key)
    assert not await b.sent.claim(key)
    fake_clock.advance(DEFAULT_LEASE_SECONDS + 1)
    assert await b.sent.claim(key)
    assert await b.sent.mark_sent(key, 77)
    assert not await a.sent.claim(key)


async def test_a_photo_stored_by_one_instance_is_served_by_the_other(two: Pair) -> None:
    a, b = two
    photo = await a.media.put(
        b"\xff\xd8photo",
        content_type="image/jpeg",
        chat=ChatRef("telegram", 5),
        expires_at=a.clock() + 60,
    )
    served = await b.media.get(photo.token)
    assert served is not None and served.path.read_bytes() == b"\xff\xd8photo"
    assert await b.media.purge_expired(now=a.clock() + 61) == 1
    assert await a.media.get(photo.token) is None


async def waiting_advisory_locks(store: Store) -> int:
    row = await store._db.fetch_one(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    )
    assert row is not None
    return int(row[0])


async def test_one_chat_is_held_by_one_instance_at_a_time_in_order(two: Pair) -> None:
    a, b = two
    assert a.chat_locks is not None and b.chat_locks is not None
    order: list[str] = []
    b_waits = asyncio.Event()

    async def in_b() -> None:
        assert b.chat_locks is not None
        b_waits.set()
        async with b.chat_locks.hold(ChatRef(TELEGRAM, 42)):
            order.append("b")

    async with a.chat_locks.hold(ChatRef(TELEGRAM, 42)):
        task = asyncio.create_task(in_b())
        await b_waits.wait()
        # No event crosses processes: watch the server until b's lock request queues.
        for _ in range(500):
            if await waiting_advisory_locks(a):
                break
            await asyncio.sleep(0.01)
        assert await waiting_advisory_locks(a) == 1
        async with b.chat_locks.hold(ChatRef(TELEGRAM, 43)):  # another chat is not held up
            order.append("b-other-chat")
        order.append("a")
    await task
    assert order == ["b-other-chat", "a", "b"]


async def test_the_task_holding_a_chat_holds_it_again_without_waiting_for_itself(
    two: Pair,
) -> None:
    a, b = two
    assert a.chat_locks is not None and b.chat_locks is not None
    # A second hold would take another pooled connection, whose session waits for the first's.
    async with (
        asyncio.timeout(5),
        a.chat_locks.hold(ChatRef(TELEGRAM, 42)),
        a.chat_locks.hold(ChatRef(TELEGRAM, 42)),
    ):
        assert await waiting_advisory_locks(a) == 0
    async with asyncio.timeout(5), b.chat_locks.hold(ChatRef(TELEGRAM, 42)):  # and it was let go of
        pass


async def test_the_rate_budget_is_shared_by_the_instances(two: Pair) -> None:
    a, b = two
    assert a.rate_budget is not None and b.rate_budget is not None
    key = key_fingerprint("sk_test_key")
    granted = []
    for store in (a, b, a):
        assert store.rate_budget is not None
        wait, ticket = await store.rate_budget.try_start(key, 3, 60.0)
        assert wait == 0 and ticket is not None
        granted.append((store.rate_budget, ticket))
    assert len({ticket for _, ticket in granted}) == 3
    # All three still wait for their answers, which may come any moment: ask again soon.
    assert await b.rate_budget.try_start(key, 3, 60.0) == (IN_USE_RECHECK, None)
    for budget, ticket in granted:
        await budget.finish(key, ticket)
    wait, ticket = await b.rate_budget.try_start(key, 3, 60.0)
    assert 59.0 < wait <= 60.0 and ticket is None  # a window after the first answer
    wait, ticket = await b.rate_budget.try_start(key_fingerprint("another key"), 3, 60.0)
    assert wait == 0 and ticket is not None


async def test_a_start_never_finished_is_freed_after_the_in_flight_limit(two: Pair) -> None:
    a, _ = two
    assert a.rate_budget is not None
    key = key_fingerprint("sk_test_key")
    _, ticket = await a.rate_budget.try_start(key, 1, 60.0)
    assert ticket is not None
    # Its instance died mid-request: the row keeps its ticket, IN_FLIGHT_LIMIT ahead of then.
    later = PgRateBudget(a._db, clock=lambda: ticket + 1.0)  # type: ignore[arg-type]
    wait, _ = await later.try_start(key, 1, 60.0)
    assert wait == pytest.approx(59.0)  # counted as answered at its ticket


async def test_a_429_in_one_instance_holds_back_the_other(two: Pair) -> None:
    a, b = two
    assert a.rate_budget is not None and b.rate_budget is not None
    key = key_fingerprint("sk_test_key")
    await a.rate_budget.block_for(key, 30.0)
    wait, ticket = await b.rate_budget.try_start(key, None, 60.0)
    assert 29.0 < wait <= 30.0 and ticket is None


async def test_shared_limiters_wait_for_the_budget_the_other_instance_used(two: Pair) -> None:
    a, b = two
    assert a.rate_budget is not None and b.rate_budget is not None
    waits: list[float] = []

    class Stop(Exception):
        pass

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        raise Stop

    key = key_fingerprint("sk_test_key")
    first = SharedRequestLimiter(a.rate_budget, key, 2, sleep=sleep)
    second = SharedRequestLimiter(b.rate_budget, key, 2, sleep=sleep)
    async with first.request(), second.request():
        pass
    await first.settle()
    await second.settle()
    with pytest.raises(Stop):
        await first.acquire()  # its own log has room; the shared budget has none
    assert len(waits) == 1 and 59.0 < waits[0] <= 60.0


async def test_the_wait_a_customer_is_told_counts_what_the_other_instance_used(
    two: Pair,
) -> None:
    a, b = two
    assert a.rate_budget is not None and b.rate_budget is not None
    key = key_fingerprint("sk_test_key")
    here = SharedRequestLimiter(a.rate_budget, key, 2)
    there = SharedRequestLimiter(b.rate_budget, key, 2)
    await there.acquire()
    assert await here.expected_wait() == 0.0  # one start left in the shared window
    # ... which goes to whoever is ahead in line (the status poller leaves it to customers).
    assert 59.0 < await a.rate_budget.wait_time(key, 2, 60.0, ahead=1) <= 60.0
    assert here.wait_time() == 0.0 and 59.0 < await here.expected_wait(ahead=1) <= 60.0
    await there.acquire()
    assert here.wait_time() == 0.0  # its own log is empty: it alone would say nothing
    assert 59.0 < await here.expected_wait() <= 60.0
    # A 429 one instance saw is a wait for the other's customers too.
    other_key = key_fingerprint("another key")
    await b.rate_budget.block_for(other_key, 30.0)
    assert 29.0 < await SharedRequestLimiter(a.rate_budget, other_key, 2).expected_wait() <= 30.0


async def test_a_holder_renews_its_leases_while_a_long_batch_is_relayed(
    two: Pair, fake_clock: FakeClock
) -> None:
    a, b = two
    await add_events(a, ("e1", "d1", 100), ("e2", "d2", 101))
    assert len(await a.inbox.claim_batch(a.holder)) == 2
    fake_clock.advance(DEFAULT_LEASE_SECONDS * 0.75)
    assert await a.inbox.renew_leases(a.holder) == 2
    fake_clock.advance(DEFAULT_LEASE_SECONDS * 0.75)
    assert await b.inbox.claim_batch(b.holder) == []
    fake_clock.advance(DEFAULT_LEASE_SECONDS * 0.5)
    assert len(await b.inbox.claim_batch(b.holder)) == 2


async def test_a_chat_cleared_through_one_instance_is_not_blocked_in_the_other(two: Pair) -> None:
    a, b = two
    await a.blocked.mark(ChatRef("telegram", 42))
    assert await b.blocked.is_blocked(ChatRef("telegram", 42))
    assert await b.blocked.clear(ChatRef("telegram", 42))  # the user wrote again, through b
    assert not await a.blocked.is_blocked(ChatRef("telegram", 42))
    assert not await a.blocked.clear(ChatRef("telegram", 42))


async def test_one_instance_leads_the_status_poller_until_it_stops(two: Pair) -> None:
    a, b = two
    assert a.leadership is not None and b.leadership is not None
    assert await a.leadership.leads()
    assert await a.leadership.leads()  # and goes on leading
    assert not await b.leadership.leads()
    # The leader's lock is no other job's: both instances still claim relay work.
    await add_events(a, ("e1", "d1", 100), ("e2", "d2", 101))
    async with asyncio.timeout(5):
        assert len(await a.inbox.claim_batch(a.holder, limit=1)) == 1
        assert len(await b.inbox.claim_batch(b.holder)) == 1
    await a.leadership.close()  # a stops (or its connection is gone)
    assert await b.leadership.leads()
    assert not await a.leadership.leads()  # closed, it never leads again


async def test_two_businesses_on_one_database_each_lead_under_their_own_namespace(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    # Two instances of one business share the default namespace: one leads. Another business
    # on the same database, with its own [storage.postgres] lock_namespace, leads its own jobs.
    dsn = await postgres_server.create_database("two_businesses")
    first = await Store.connect_postgres(dsn, media_dir=tmp_path / "first")
    second = await Store.connect_postgres(dsn, media_dir=tmp_path / "second")
    other = await Store.connect_postgres(dsn, media_dir=tmp_path / "other", lock_namespace=7)
    try:
        leading = [await store.leadership.leads() for store in (first, second, other)]
    finally:
        for store in (first, second, other):
            await store.close()
    assert leading == [True, False, True]


async def test_a_leader_whose_connection_broke_says_so_and_another_takes_over(
    two: Pair,
) -> None:
    a, b = two
    assert a.leadership is not None and b.leadership is not None
    assert await a.leadership.leads()
    leader_pid = a.leadership._connection.get_server_pid()
    # The server ends a's session, and says so once it has gone (waiting up to 5 s).
    await b._db.execute("SELECT pg_terminate_backend(?, 5000)", (leader_pid,))
    assert await b.leadership.leads()  # the lock went with the session: b takes it
    assert not await a.leadership.leads()  # a's next round does not go on leading
    assert not await a.leadership.leads()


async def test_the_sessions_holding_locks_are_dropped_soon_when_their_instance_vanishes(
    two: Pair,
) -> None:
    # A vanished holder is noticed by the server's TCP keepalives within about 25 s, not the
    # system's two hours (which would stop that chat, or the jobs one instance runs, as long).
    a, _ = two
    assert a.leadership is not None and a.chat_locks is not None
    assert await a.leadership.leads()
    async with a.chat_locks.hold(ChatRef(TELEGRAM, 42)):
        pass
    sessions = [a.leadership._connection, a.chat_locks._sessions._shared]
    async with (
        a.chat_locks._sessions.pool.acquire() as waiting
    ):  # where a turn waits for a busy chat
        sessions.append(waiting)
        for session in sessions:
            assert await session.fetchval("SHOW tcp_keepalives_idle") == "10"
            assert await session.fetchval("SHOW tcp_keepalives_count") == "3"


async def test_a_hand_off_link_opened_on_one_instance_is_known_on_the_other(two: Pair) -> None:
    a, b = two
    await a.otp_invitations.open(ChatRef("telegram", 7), "token-of-the-link", ttl=60)
    assert await b.otp_invitations.token_for(ChatRef("telegram", 7)) == "token-of-the-link"
    await b.otp_invitations.close(ChatRef("telegram", 7))  # the receiver's contact, answered by b
    assert await a.otp_invitations.token_for(ChatRef("telegram", 7)) is None


async def test_an_operator_alert_is_sent_once_a_while_by_all_instances_together(
    two: Pair, fake_clock: FakeClock
) -> None:
    a, b = two
    taken = await asyncio.gather(
        a.operator_alerts.take("Photos refused", repeat_after=900),
        b.operator_alerts.take("Photos refused", repeat_after=900),
    )
    assert sorted(taken) == [False, True]  # raised on both at once: sent by one
    assert await b.operator_alerts.take("Another alert", repeat_after=900)
    fake_clock.advance(899)
    assert not await a.operator_alerts.take("Photos refused", repeat_after=900)
    fake_clock.advance(1)
    assert await b.operator_alerts.take("Photos refused", repeat_after=900)
    assert await a.operator_alerts.prune(fake_clock() - 1) == 1  # "Another alert"
