"""Periods as people type them on a command line or in an operator chat: ``7d``, ``24h``,
``1.5d``.

One reading for every command that looks back over a period (``deliverybot report`` and
``audit``, operators' ``/report``), so the same text means the same time everywhere.
"""

from __future__ import annotations

import re

_PERIOD = re.compile(r"(\d+(?:\.\d+)?)([dh])")
_SECONDS = {"d": 86_400, "h": 3_600}
LONGEST_DAYS = 3_660
"""The longest period read, about ten years: a longer one reaches before any delivery, and past
a few hundred digits it is no longer a number a clock can subtract."""


def since_seconds(text: str) -> float:
    """``7d``, ``24h`` or ``1.5d`` as seconds; ValueError for anything else, zero and periods
    over ``LONGEST_DAYS`` included."""
    found = _PERIOD.fullmatch(text.strip())
    if found is None or float(found[1]) == 0:
        raise ValueError(f"not a period such as 7d or 24h: {text[:40]!r}")
    seconds = float(found[1]) * _SECONDS[found[2]]
    if seconds > LONGEST_DAYS * 86_400:
        raise ValueError(f"a period of at most {LONGEST_DAYS} days: {text[:40]!r}")
    return seconds
