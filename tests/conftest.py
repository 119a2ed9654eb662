"""Settings every test shares."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store.pg_local_server import LocalPostgres

# Fixtures every folder shares, defined once in tests/support: ``store`` on either backend,
# ``restore_logging`` for a test that configures the process's logging.
pytest_plugins = ("tests.support.store_fixture", "tests.support.logging_state")


@pytest.fixture(autouse=True, scope="session")
def _ptb_timedelta() -> Iterator[None]:
    """PTB as ``deliverybot run`` sets it up: durations as ``timedelta`` (``PTB_TIMEDELTA``).

    Without the opt-in python-telegram-bot 22 warns on every read of a duration, and its own
    ``RetryAfter`` reads one when it is built, so under filterwarnings=error a 429 would raise
    the warning instead. PTB reads the variable on each access, so setting it here is in time.
    Tests of a process that did not opt in delete it with ``monkeypatch``.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PTB_TIMEDELTA", "true")
        yield


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[LocalPostgres]:
    """One throwaway PostgreSQL server for the whole session (``initdb`` + ``pg_ctl`` on a
    temporary directory and a free loopback port; as the ``postgres`` user when run as root).

    When it cannot start, every test that needs it errors with the reason: the PostgreSQL
    tests fail loudly rather than being skipped (``make test`` installs the server).
    """
    base = Path(tempfile.mkdtemp(prefix="deliverybot-pg-"))
    try:
        server = LocalPostgres.start(base)
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        raise
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)
