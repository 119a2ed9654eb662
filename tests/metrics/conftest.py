"""Metrics switched on for a test (``metrics_on``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.metrics import recording


@pytest.fixture
def metrics_on() -> Iterator[None]:
    """Recording on for the test, off again after."""
    recording.enable("test")
    yield
    recording.disable()
