"""Values parsed from an agent's JSON that the bot could not keep: checked at both doors.

Python's JSON parsers take a lone UTF-16 surrogate (``"\\ud83d"``, half an emoji) into a ``str``
that cannot be encoded as UTF-8, so no store could write it and no answer could carry it back;
and ``NaN``/``Infinity`` are numbers no JSON document may hold. Both are refused where they
arrive, with a reason, instead of failing wherever they are first written.
"""

from __future__ import annotations

import math

UNREADABLE_TEXT = (
    "text must be valid Unicode: a lone surrogate (half of a UTF-16 pair) cannot be kept"
)
NOT_FINITE = "numbers must be finite: NaN and Infinity are not JSON"


def readable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def unkeepable(value: object) -> str | None:
    """Why ``value`` (parsed JSON: keys and values, at any depth) cannot be kept, or None."""
    pending = [value]  # a stack, not recursion: the nesting is the sender's to choose
    while pending:
        item = pending.pop()
        if isinstance(item, str) and not readable(item):
            return UNREADABLE_TEXT
        if isinstance(item, float) and not math.isfinite(item):
            return NOT_FINITE
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return None
