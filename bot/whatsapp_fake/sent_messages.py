"""What the simulated Cloud API accepted from the business: each message as a customer sees it.

A test reads these instead of the request JSON: the text shown, the reply buttons or list rows
offered (their ids and titles, which a customer's tap sends back), a template's name and
parameters, a media id. ``raw`` keeps the accepted request body for whatever else a test needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

SentKind = Literal[
    "text",
    "buttons",
    "list",
    "location_request",
    "template",
    "image",
    "document",
    "audio",
    "video",
    "sticker",
    "location",
    "reaction",
]


@dataclass(frozen=True)
class Offered:
    """A reply button or list row the customer may tap: its id (sent back) and titles."""

    reply_id: str
    title: str
    description: str = ""


@dataclass(frozen=True)
class SentMessage:
    """One accepted message to ``wa_id``.

    ``text`` is what reads as the message's words: a text's body, an interactive message's
    body, a media caption, or a template's parameters joined by newlines. ``offered`` are the
    buttons or rows (in order), ``list_button`` the label that opens a list. A location's
    pin is ``latitude`` and ``longitude`` (degrees), with its ``place_name`` and ``address``.
    A document or an image sent by an uploaded ``media_id`` has the upload's ``file_size``
    (bytes), and a document its ``filename``, as the customer's phone shows them.
    """

    kind: SentKind
    wa_id: str
    text: str = ""
    offered: tuple[Offered, ...] = ()
    list_button: str = ""
    header: str = ""
    footer: str = ""
    template: str = ""
    language: str = ""
    parameters: tuple[str, ...] = ()
    media_id: str = ""
    filename: str = ""
    file_size: int | None = None
    link: str = ""
    reacted_to: str = ""
    emoji: str = ""
    replied_to: str = ""
    latitude: float | None = None
    longitude: float | None = None
    place_name: str = ""
    address: str = ""
    message_id: str = ""
    accepted_at: float = 0.0
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def titles(self) -> list[str]:
        """The titles of the buttons or rows offered, in order."""
        return [choice.title for choice in self.offered]

    def offered_titled(self, title: str) -> Offered:
        """The button or row titled ``title``; ``LookupError`` naming those offered."""
        for choice in self.offered:
            if choice.title == title:
                return choice
        raise LookupError(f"{title!r} is not offered; the message offers {self.titles()}")
