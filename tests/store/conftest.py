"""Fixtures for the store tests: a hand-moved clock, and the store on each backend.

``store`` (``tests.support.store_fixture``) is parametrized here: every test that takes it runs
once on a real SQLite file in tmp_path and once on the session's throwaway PostgreSQL server
(``postgres_server``), so the repositories' contract is one suite for both.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from bot.clocks import Clock
from tests.support.clock import FakeClock
from tests.support.store_fixture import STORE_FILE

START = 1_700_000_000.0

# What each backend raises for a broken constraint and for a missing table.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
MISSING_TABLE_ERRORS = (sqlite3.OperationalError, asyncpg.UndefinedTableError)


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(START)


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
    """The SQLite file ``store`` opens, for a test that opens it again."""
    return tmp_path / STORE_FILE


@pytest.fixture(params=["sqlite", "postgres"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Which database the ``store`` of this test runs on."""
    return str(request.param)


@pytest.fixture
def store_clock(clock: Clock) -> Clock:
    return clock
