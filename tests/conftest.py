"""Settings every test shares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


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
