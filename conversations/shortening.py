"""Text made to fit a limit without hiding the part that tells it apart.

A saved place's address is composed as ``{name} — {address} — {unit}`` (the spec's service
location), and its end is what matters most: two rooms of one hostel differ only there. So a
composed address loses the middle of its address first, then its name, and keeps the unit
whole: ``Moremi Hall — University of Lago… — B012``. Any other text is cut at its end. Used for
the request's address limit, "Keep: ..." labels and Telegram's button labels alike.
"""

from __future__ import annotations

SEPARATOR = " — "  # between the parts of a composed address
ELLIPSIS = "…"
_TRIMMED = " ,;:-—"  # not left dangling before the ellipsis


def shorten(text: str, limit: int) -> str:
    """``text``, whitespace collapsed, in at most ``limit`` characters (see the module)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    parts = text.split(SEPARATOR)
    if len(parts) >= 3:
        head, middle, tail = parts[0], SEPARATOR.join(parts[1:-1]), parts[-1]
        room = limit - len(head) - len(tail) - 2 * len(SEPARATOR)
        if room >= 1:
            return SEPARATOR.join((head, cut_end(middle, room), tail))
        room = limit - len(tail) - len(SEPARATOR)
        if room >= 1:
            return f"{cut_end(head, room)}{SEPARATOR}{tail}"
    return cut_end(text, limit)


def cut_end(text: str, limit: int) -> str:
    """``text`` cut at its end to at most ``limit`` characters, an ellipsis saying so."""
    if len(text) <= limit:
        return text
    if limit < 1:
        return ""
    return text[: limit - 1].rstrip(_TRIMMED) + ELLIPSIS
