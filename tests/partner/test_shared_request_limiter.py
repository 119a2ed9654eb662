"""``SharedRequestLimiter`` over a budget that answers as told: when a start counts locally."""

from __future__ import annotations

from bot.partner.shared_request_limiter import SharedRequestLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


class Budget:
    """A shared budget that holds back the first ``held`` asks for ``seconds`` each."""

    def __init__(self, held: int, seconds: float) -> None:
        self.held = held
        self.seconds = seconds
        self.asked: list[float] = []

    async def try_start(self, key_id: str, limit: int | None, window: float) -> float:
        self.asked.append(window)
        if self.held:
            self.held -= 1
            return self.seconds
        return 0.0

    async def block_for(self, key_id: str, seconds: float) -> None:
        raise AssertionError("no 429 here")

    async def wait_time(self, key_id: str, limit: int | None, window: float, ahead: int) -> float:
        return 0.0


async def test_a_start_the_shared_budget_held_back_counts_from_when_it_went_out() -> None:
    clock = Clock()
    limiter = SharedRequestLimiter(Budget(1, 10.0), "key", 2, clock=clock, sleep=clock.sleep)
    await limiter.acquire()  # asked at 0, held back by the other instances' starts until 10
    await limiter.acquire()
    assert clock.now == 10.0
    # Both went out at 10, so this process's own log frees its next start at 70, not 60.
    assert limiter.wait_time() == 60.0
