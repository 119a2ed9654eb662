"""The heap left after start-up is frozen, so full collections skip it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.runtime.heap import freeze_start_up_heap


@pytest.fixture
def unfrozen_after() -> Iterator[None]:
    yield
    gc.unfreeze()  # the rest of the test session collects as before


class Made:
    """An object the collector tracks (an instance of a plain class always is)."""


def test_start_up_objects_are_frozen_and_later_ones_are_not(unfrozen_after: None) -> None:
    kept = [Made() for _ in range(1000)]
    frozen = freeze_start_up_heap()
    assert frozen >= len(kept)
    later = Made()
    tracked = {id(item) for item in gc.get_objects()}
    assert id(later) in tracked  # still walked by the collector
    assert not tracked & {id(item) for item in kept}  # skipped: in the permanent generation
