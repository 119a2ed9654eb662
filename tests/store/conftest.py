"""Fixtures for the store tests: a hand-moved clock and a real SQLite file in tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.clocks import Clock
from bot.store import Store

START = 1_700_000_000.0


class FakeClock:
    """The store's clock; only ``advance`` moves it."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def clock(fake_clock: FakeClock) -> Clock:
    """What the store reads the time from."""
    return fake_clock


@pytest.fixture
def advance(fake_clock: FakeClock) -> Callable[[float], None]:
    """Move the store's clock forward by some seconds."""
    return fake_clock.advance


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    async with Store.open(db_path, clock=clock, synchronous="NORMAL") as opened:
        yield opened
