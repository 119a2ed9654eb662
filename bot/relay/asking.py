"""A relay message that asks something: its ``Choice``-s, drawn as buttons by a channel that
has them (``AskingChannel``: Telegram) and as the words to type by any other (the console).

A choice carries what answers it (``data``: the words a customer may type, which are also a
button's callback data) and the line saying so in the customer's language (``typed``, composed
with the message, since the send happens outside the customer's turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.chat_ref import ChatRef


@dataclass(frozen=True)
class Choice:
    """One answer to a question the relay sends."""

    label: str  # the button's words: "Keep the order"
    data: str  # what answers it, typed or tapped: "quote keep 3F2A9C1E" (at most 64 bytes)


@dataclass(frozen=True)
class Asking:
    """The question part of a relay message: its choices, and the line that tells how to
    answer them by typing (said where there are no buttons)."""

    choices: tuple[Choice, ...]
    typed: str


@runtime_checkable
class AskingChannel(Protocol):
    """A relay ``Channel`` that draws a message's choices as buttons under it."""

    async def ask(self, chat: ChatRef, text: str, asking: Asking) -> int | None:
        """Send ``text`` with ``asking``'s choices as buttons (or, for a chat of a channel
        without them, with its ``typed`` line); errors as ``Channel.send``'s."""
        ...


def typed_text(text: str, asking: Asking) -> str:
    """``text`` for a channel without buttons: the typed answers' line after it."""
    return f"{text}\n{asking.typed}"
