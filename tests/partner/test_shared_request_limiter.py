"""``SharedRequestLimiter`` over a budget that answers as told: when a start counts locally."""

from __future__ import annotations

import asyncio

import pytest

from bot.partner.shared_request_limiter import SharedRequestLimiter
from tests.support.clock import FakeClock


class Budget:
    """A shared budget that holds back the first ``held`` asks for ``seconds`` each, and
    fails the first ``failing_finishes`` finishes."""

    def __init__(self, held: int, seconds: float, failing_finishes: int = 0) -> None:
        self.held = held
        self.seconds = seconds
        self.asked: list[float] = []
        self.granted = 0
        self.finished: list[float] = []
        self.failing_finishes = failing_finishes

    async def try_start(
        self, key_id: str, limit: int | None, window: float
    ) -> tuple[float, float | None]:
        self.asked.append(window)
        if self.held:
            self.held -= 1
            return self.seconds, None
        self.granted += 1
        return 0.0, float(self.granted)

    async def finish(self, key_id: str, ticket: float) -> None:
        if self.failing_finishes:
            self.failing_finishes -= 1
            raise ConnectionError("the database blinked")
        self.finished.append(ticket)

    async def block_for(self, key_id: str, seconds: float) -> None:
        raise AssertionError("no 429 here")

    async def wait_time(self, key_id: str, limit: int | None, window: float, ahead: int) -> float:
        return 0.0


async def test_a_start_the_shared_budget_held_back_counts_from_when_it_went_out() -> None:
    clock = FakeClock(0.0)
    limiter = SharedRequestLimiter(Budget(1, 10.0), "key", 2, clock=clock, sleep=clock.sleep)
    for _ in range(2):  # asked at 0, held back by the other instances' starts until 10
        async with limiter.request():
            pass
    assert clock.now == 10.0
    # Both went out at 10, so this process's own log frees its next start at 70, not 60.
    assert limiter.wait_time() == 60.0


async def test_a_released_slot_is_released_in_the_shared_budget_too() -> None:
    clock = FakeClock(0.0)
    budget = Budget(0, 0.0)
    limiter = SharedRequestLimiter(budget, "key", 2, clock=clock, sleep=clock.sleep)
    first = await limiter.acquire()
    second = await limiter.acquire()
    assert (first.ticket, second.ticket) == (1.0, 2.0)
    limiter.release(second)
    limiter.release(second)  # once is enough
    await asyncio.sleep(0)  # the budget is told in a task of its own
    assert budget.finished == [2.0]


@pytest.mark.parametrize(
    ("failures", "heard", "paused"),
    [(2, [1.0], 2.5), (3, [], 2.5)],
    ids=["heard at the third try", "never heard: given up, logged"],
)
async def test_a_release_the_budget_missed_is_told_again(
    caplog: pytest.LogCaptureFixture, failures: int, heard: list[float], paused: float
) -> None:
    clock = FakeClock(0.0)
    budget = Budget(0, 0.0, failing_finishes=failures)
    limiter = SharedRequestLimiter(budget, "key", 2, clock=clock, sleep=clock.sleep)
    async with limiter.request():
        pass
    await limiter.settle()
    assert budget.finished == heard
    assert clock.now == paused  # 0.5 s, then 2 s between the tries
    given_up = "could not tell the shared request budget" in caplog.text
    assert given_up == (not heard)
