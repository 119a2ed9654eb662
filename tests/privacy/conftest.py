"""Fixtures for the retention tests: a hand-moved clock, and the store on each backend.

``store`` (``tests.support.store_fixture``) runs each test once on a real SQLite file and once
on the session's throwaway PostgreSQL server, reading ``fake_clock``.
"""

from __future__ import annotations

import pytest

from bot.clocks import Clock
from tests.support.clock import FakeClock

START = 1_700_000_000.0


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture(params=["sqlite", "postgres"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Which database the ``store`` of this test runs on."""
    return str(request.param)


@pytest.fixture
def store_clock(fake_clock: FakeClock) -> Clock:
    return fake_clock
