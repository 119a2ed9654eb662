"""An option named the way people type it: its label or id in any case, accents ignored, or
the start of it when no other option starts the same way.

Every text channel (Telegram's typed replies, the console, the agents' text answers) reaches
the engine with the same ``TextAnswer``, so this is the one place typed words become a tap.
A question that also takes free text (a place, a room) only matches whole labels: "12" typed
for a room is the room 12, not the first option starting with "1".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from conversations.dialog import Option

MIN_PREFIX = 2  # one letter names too many options to be meant


def plain(text: str) -> str:
    """``text`` compared as people type it: case, accents and runs of spaces ignored."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split()).strip(" .!?")


def option_named(typed: str, options: Sequence[Option], *, prefixes: bool) -> Option | None:
    """The one option ``typed`` names, or None (no option, or several alike).

    A whole label or id wins; with ``prefixes``, then an option whose label (or id) starts
    with ``typed``, then one with a word of its label starting so, each only when unique.
    """
    said = plain(typed)
    if not said:
        return None
    for option in options:
        if said in (plain(option.id), plain(option.label)):
            return option
    if not prefixes or len(said) < MIN_PREFIX:
        return None
    starts = [o for o in options if plain(o.label).startswith(said) or plain(o.id).startswith(said)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        return None
    words = [o for o in options if any(w.startswith(said) for w in plain(o.label).split())]
    return words[0] if len(words) == 1 else None
