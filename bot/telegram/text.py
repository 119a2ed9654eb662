"""Text for ``parse_mode=HTML``: escaped, and split under Telegram's length limit.

Telegram counts a message's length in UTF-16 code units of the text *after* parsing, so an
emoji counts twice and "&amp;" once; pieces are cut at line ends where possible.
"""

from __future__ import annotations

import html
from typing import Final

MAX_TEXT_LENGTH: Final = 4096


def escape(text: str) -> str:
    """``text`` as literal characters under ``parse_mode=HTML``."""
    return html.escape(text, quote=False)


def split(text: str, limit: int = MAX_TEXT_LENGTH) -> list[str]:
    """``text`` in pieces of at most ``limit`` UTF-16 units, cut at line ends where possible.

    Blank text gives no pieces (Telegram refuses empty messages).
    """
    stripped = text.strip()
    if 2 * len(stripped) <= limit:  # fits whatever it holds: no character counts more than 2
        return [stripped] if stripped else []
    pieces: list[str] = []
    current = ""
    for line in text.strip().splitlines(keepends=True):
        while utf16_length(line) > limit:
            head = _prefix_within(line, limit)
            pieces += [current, head] if current else [head]
            current, line = "", line[len(head) :]
        if utf16_length(current) + utf16_length(line) > limit:
            pieces.append(current)
            current = ""
        current += line
    pieces.append(current)
    return [piece.strip() for piece in pieces if piece.strip()]


def utf16_length(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _prefix_within(text: str, limit: int) -> str:
    units = 0
    for position, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            return text[:position]
    return text
