"""RelayTuning: the back-off curve and the limits it refuses."""

from __future__ import annotations

import pytest

from bot.relay import RelayTuning


def test_the_delay_doubles_up_to_the_cap() -> None:
    tuning = RelayTuning(retry_base_seconds=1, retry_cap_seconds=300)

    assert [tuning.retry_delay(n) for n in (1, 2, 3, 9, 10, 1000)] == [1, 2, 4, 256, 300, 300]


@pytest.mark.parametrize(
    "options",
    [
        {"batch_size": 0},
        {"retry_base_seconds": 0},
        {"retry_base_seconds": 10, "retry_cap_seconds": 5},
        {"link_attempts": 0},
        {"link_attempts": 5, "max_attempts": 4},
        {"max_in_flight": 0},
        {"coalesce_chars": 0},
    ],
)
def test_nonsense_is_refused(options: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RelayTuning(**options)  # type: ignore[arg-type]
