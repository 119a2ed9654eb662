"""WhatsApp's limits kept before each send (``WhatsAppPacing``), in virtual time: a customer's
burst then one message every 6 s, 80 a second for the number, the holds a refusal asks for,
and on PostgreSQL the same windows for two instances, apart from Telegram's."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.chat_ref import TELEGRAM, WHATSAPP, ChatRef
from bot.store import Store
from bot.store.pg_database import PgDatabase
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_send_limits import WHATSAPP_LEDGER, PgSendBudget
from bot.store.send_limits import SpanLimit
from bot.whatsapp.pacing import CUSTOMER_BURST, PAIR_RATE_SECONDS, WhatsAppPacing
from tests.store.pg_instances import pg_instances
from tests.telegram_adapter.test_limits_across_instances import VirtualTime

Log = list[tuple[float, ChatRef]]
ALICE = ChatRef(WHATSAPP, 2348012345678)
CUSTOMERS = [ChatRef(WHATSAPP, 2348020000000 + n) for n in range(40)]


def most_within(times: list[float], seconds: float) -> int:
    """The most of ``times`` within any ``seconds`` (a window as Meta counts it)."""
    ordered = sorted(times)
    return max(
        (sum(1 for t in ordered[i:] if t < start + seconds) for i, start in enumerate(ordered)),
        default=0,
    )


def paced(time: VirtualTime, budget: PgSendBudget | None = None) -> WhatsAppPacing:
    if budget is None:
        return WhatsAppPacing(clock=time.clock, sleep=time.sleep)
    return WhatsAppPacing(clock=time.clock, sleep=time.sleep, budget=budget)


def sends(
    pacing: WhatsAppPacing, time: VirtualTime, log: Log
) -> Callable[[ChatRef, int], Coroutine[Any, Any, None]]:
    async def to(chat: ChatRef, count: int) -> None:
        for _ in range(count):
            await pacing.acquire(chat)
            log.append((time.now, chat))

    return to


def at(log: Log, chat: ChatRef | None = None) -> list[float]:
    return [when for when, to in log if chat is None or to == chat]


async def test_a_customer_gets_a_burst_then_one_message_every_six_seconds() -> None:
    time, log = VirtualTime(), Log()
    to = sends(paced(time), time, log)
    await time.run([to(ALICE, CUSTOMER_BURST + 3)])

    times = at(log)
    assert times[:CUSTOMER_BURST] == [1000.0] * CUSTOMER_BURST
    window = CUSTOMER_BURST * PAIR_RATE_SECONDS
    assert times[CUSTOMER_BURST] >= 1000.0 + window
    assert most_within(times, window) <= CUSTOMER_BURST


async def test_the_number_sends_at_most_80_a_second_and_each_customer_keeps_their_pace() -> None:
    time, log = VirtualTime(), Log()
    to = sends(paced(time), time, log)
    many = [ChatRef(WHATSAPP, 2348030000000 + n) for n in range(300)]
    await time.run([to(chat, 1) for chat in many] + [to(ALICE, 10)])

    assert len(log) == 310
    assert most_within(at(log), 1.0) <= 80
    assert most_within(at(log, ALICE), CUSTOMER_BURST * PAIR_RATE_SECONDS) <= CUSTOMER_BURST
    others = [when for when, chat in log if chat != ALICE]
    assert max(others) - 1000.0 < 4.0  # paced, not starved: Alice's wait holds nobody back


async def test_a_refused_pair_rate_holds_that_customer_and_a_refused_throughput_every_one() -> None:
    time = VirtualTime()
    pacing = paced(time)
    bob = CUSTOMERS[0]
    assert await pacing.hold_customer(ALICE) == pacing.limits.customer_hold
    assert pacing.held_for(ALICE) == pacing.limits.customer_hold
    assert pacing.held_for(bob) == 0.0
    assert await pacing.hold_number() == pacing.limits.number_hold
    assert await pacing.hold_number(api_limit=True) == pacing.limits.api_hold
    assert pacing.held_for(bob) == pacing.limits.api_hold
    assert pacing.send_delay(bob) == pytest.approx(pacing.limits.api_hold)


def test_only_whatsapp_customers_are_paced_here() -> None:
    pacing = WhatsAppPacing()
    with pytest.raises(ValueError, match="not a WhatsApp"):
        pacing.send_delay(ChatRef(TELEGRAM, 42))


@pytest.fixture
async def instances(postgres_server: LocalPostgres, tmp_path: Path) -> AsyncIterator[list[Store]]:
    async with pg_instances(postgres_server, tmp_path / "media") as stores:
        yield stores


def budget(store: Store, time: VirtualTime) -> PgSendBudget:
    db = store._db
    assert isinstance(db, PgDatabase)
    return PgSendBudget(db, clock=time.clock, ledger=WHATSAPP_LEDGER)


async def test_two_instances_share_the_customers_and_the_numbers_windows(
    instances: list[Store],
) -> None:
    time, log = VirtualTime(), Log()
    both = [sends(paced(time, budget(store, time)), time, log) for store in instances]
    work = []
    for to in both:
        work += [to(ALICE, CUSTOMER_BURST + 2)] + [to(chat, 1) for chat in CUSTOMERS]
    await time.run(work)

    assert len(log) == 2 * (CUSTOMER_BURST + 2 + len(CUSTOMERS))
    # Each instance alone would send Alice its own burst at once: together they keep one.
    window = CUSTOMER_BURST * PAIR_RATE_SECONDS
    assert most_within(at(log, ALICE), window) <= CUSTOMER_BURST
    assert most_within(at(log), 1.0) <= 80


async def test_whatsapps_ledger_is_apart_from_telegrams(instances: list[Store]) -> None:
    store = instances[0]
    time = VirtualTime()
    db = store._db
    assert isinstance(db, PgDatabase) and isinstance(store.whatsapp_send_budget, PgSendBudget)
    telegram, whatsapp = PgSendBudget(db, clock=time.clock), budget(store, time)
    overall, chat = SpanLimit(1, 1.0), (SpanLimit(1, 1.0),)
    # The same id in both messengers, each overall window of one: neither waits for the other.
    assert await telegram.try_send(ALICE.id, overall, chat, 60.0) == 0.0
    assert await whatsapp.try_send(ALICE.id, overall, chat, 60.0) == 0.0
    assert await whatsapp.try_send(CUSTOMERS[0].id, overall, chat, 60.0) == pytest.approx(1.0)
