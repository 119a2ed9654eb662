"""Reading the bot's metrics back in tests."""

from __future__ import annotations

from bot.metrics import families


def sample(name: str, **labels: str) -> float:
    """A sample's current value (0 when the series does not exist yet). The registry is the
    process's: tests compare values before and after, never absolute counts."""
    return families.REGISTRY.get_sample_value(name, labels) or 0.0
