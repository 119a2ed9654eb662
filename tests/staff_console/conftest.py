"""The console's read models run on both backends: ``store`` is parametrized here as in
``tests/store``, and the store's clock is one the tests move. The browser tests' Chromium is
one per process (``console_browser``): its fixtures are here, so every module shares it."""

from __future__ import annotations

import pytest

from bot.clocks import Clock
from tests.staff_console.console_browser import _shared_chromium, browser
from tests.support.clock import FakeClock

__all__ = ["_shared_chromium", "browser"]  # the browser tests' fixtures

START = 1_800_000_000.0  # 2027-01-15 08:00 UTC


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
