"""What a customer typed, made safe to keep: ``CustomerText`` for every string of an ``Answer``.

A chat client can send text no store can write: half an emoji (a lone UTF-16 surrogate such as
``\\ud83d``, left when a client cuts a message in the middle of a pair) cannot be encoded as
UTF-8, so the session's JSON could not be saved; control characters (NUL, escape ...) mean
nothing to a delivery and confuse the chats they are echoed to. Both are dropped on the way in,
so every step judges only what a person could have meant, and an answer that was nothing else
reads as empty: the step asks again in its usual words.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator

# Line breaks and tabs are layout a customer may use (an address on two lines).
_KEPT_CONTROLS = frozenset("\n\t")


def readable(text: str) -> str:
    """``text`` without lone surrogates and without control characters but newline and tab.

    A surrogate pair that arrived as two code points is joined into its character.
    """
    # UTF-16 round trip: pairs are joined, a lone half cannot be decoded and is dropped.
    whole = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "ignore")
    return "".join(
        char for char in whole if char in _KEPT_CONTROLS or unicodedata.category(char) != "Cc"
    )


CustomerText = Annotated[str, AfterValidator(readable)]
"""A ``str`` field holding what a customer sent, cleaned by ``readable``."""
