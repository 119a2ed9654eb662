"""What the bot sends on WhatsApp, as values, and the Cloud API's limits on each.

A turn is drawn as a few of these (``bot.whatsapp`` draws, ``WhatsAppSend`` sends); each value
is valid by construction: a constructor refuses what the Cloud API would refuse (four reply
buttons, a title over 20 characters, eleven list rows), so a drawing that breaks a limit fails
in the bot's tests, never at Meta. Limits are Meta's, from the Cloud API reference
("Interactive messages", "Message templates", "Supported media types").

A document or an image carries its bytes: ``CloudSender`` uploads them (``POST
/{phone-number-id}/media``) and sends the message with the media id Meta returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

MAX_TEXT_LENGTH: Final = 4096
"""A text message's body."""
MAX_INTERACTIVE_BODY: Final = 1024
"""An interactive message's body (buttons, list, location request)."""
MAX_BUTTONS: Final = 3
"""Reply buttons on one message."""
MAX_BUTTON_TITLE: Final = 20
"""A reply button's title; also a list's button label."""
MAX_REPLY_ID: Final = 256
"""A reply button's or a list row's id, which comes back when it is tapped."""
MAX_LIST_ROWS: Final = 10
"""Rows in one list message, over all its sections."""
MAX_LIST_SECTIONS: Final = 10
MAX_ROW_TITLE: Final = 24
MAX_ROW_DESCRIPTION: Final = 72
MAX_SECTION_TITLE: Final = 24
MAX_HEADER_TEXT: Final = 60
MAX_FOOTER_TEXT: Final = 60
MAX_TEMPLATE_PARAMETER: Final = 1024  # a body parameter's text; no newlines, tabs or 4 spaces
MAX_CAPTION: Final = 1024
"""A document's or an image's caption."""
MAX_DOCUMENT_BYTES: Final = 100 * 1024 * 1024
MAX_IMAGE_BYTES: Final = 5 * 1024 * 1024
DOCUMENT_TYPES: Final = frozenset(
    {
        "text/plain",
        "application/pdf",
        "application/msword",
        "application/vnd.ms-excel",
        "application/vnd.ms-powerpoint",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    }
)
"""The document types Meta takes: no ``application/json`` (a JSON file goes as ``text/plain``
under its ``.json`` name: the name only picks the icon the customer's app shows)."""
IMAGE_TYPES: Final = frozenset({"image/jpeg", "image/png"})
"""The image types Meta takes (WebP is a sticker's type only)."""


def _at_most(what: str, text: str, limit: int, *, empty: bool = False) -> None:
    if not empty and not text:
        raise ValueError(f"{what} is empty")
    if len(text) > limit:
        raise ValueError(f"{what} is {len(text)} characters, over WhatsApp's {limit}")


@dataclass(frozen=True)
class TextMessage:
    """A plain text message (links previewed when ``preview_url``)."""

    body: str
    preview_url: bool = False

    def __post_init__(self) -> None:
        _at_most("a text message", self.body, MAX_TEXT_LENGTH)


@dataclass(frozen=True)
class ReplyButton:
    """One reply button: ``reply_id`` comes back in the customer's ``button_reply``."""

    reply_id: str
    title: str

    def __post_init__(self) -> None:
        _at_most("a button's id", self.reply_id, MAX_REPLY_ID)
        _at_most("a button's title", self.title, MAX_BUTTON_TITLE)


@dataclass(frozen=True)
class ButtonsMessage:
    """Body text with one to three reply buttons (titles unique, as Meta requires)."""

    body: str
    buttons: Sequence[ReplyButton]
    footer: str = ""

    def __post_init__(self) -> None:
        _at_most("an interactive body", self.body, MAX_INTERACTIVE_BODY)
        _at_most("a footer", self.footer, MAX_FOOTER_TEXT, empty=True)
        if not 1 <= len(self.buttons) <= MAX_BUTTONS:
            raise ValueError(f"{len(self.buttons)} reply buttons: WhatsApp takes 1 to 3")
        if len({b.title for b in self.buttons}) != len(self.buttons):
            raise ValueError("reply buttons' titles must differ")
        if len({b.reply_id for b in self.buttons}) != len(self.buttons):
            raise ValueError("reply buttons' ids must differ")


@dataclass(frozen=True)
class ListRow:
    """One row of a list: ``reply_id`` comes back in the customer's ``list_reply``."""

    reply_id: str
    title: str
    description: str = ""

    def __post_init__(self) -> None:
        _at_most("a row's id", self.reply_id, MAX_REPLY_ID)
        _at_most("a row's title", self.title, MAX_ROW_TITLE)
        _at_most("a row's description", self.description, MAX_ROW_DESCRIPTION, empty=True)


@dataclass(frozen=True)
class ListSection:
    """A titled group of rows (the title may be empty when the list has one section)."""

    title: str
    rows: Sequence[ListRow]

    def __post_init__(self) -> None:
        _at_most("a section's title", self.title, MAX_SECTION_TITLE, empty=True)
        if not self.rows:
            raise ValueError("a list section has no rows")


@dataclass(frozen=True)
class ListMessage:
    """Body text and a button (``button``) that opens up to ten rows in sections."""

    body: str
    button: str
    sections: Sequence[ListSection]
    footer: str = ""

    def __post_init__(self) -> None:
        _at_most("an interactive body", self.body, MAX_INTERACTIVE_BODY)
        _at_most("a list's button", self.button, MAX_BUTTON_TITLE)
        _at_most("a footer", self.footer, MAX_FOOTER_TEXT, empty=True)
        if not 1 <= len(self.sections) <= MAX_LIST_SECTIONS:
            raise ValueError(f"{len(self.sections)} list sections: WhatsApp takes 1 to 10")
        rows = [row for section in self.sections for row in section.rows]
        if len(rows) > MAX_LIST_ROWS:
            raise ValueError(f"{len(rows)} list rows: WhatsApp takes at most {MAX_LIST_ROWS}")
        if len({row.reply_id for row in rows}) != len(rows):
            raise ValueError("list rows' ids must differ")
        if len(self.sections) > 1 and not all(s.title for s in self.sections):
            raise ValueError("a list with several sections needs a title on each")


@dataclass(frozen=True)
class LocationRequest:
    """Body text with WhatsApp's "Send location" button: the answer is a location message."""

    body: str

    def __post_init__(self) -> None:
        _at_most("an interactive body", self.body, MAX_INTERACTIVE_BODY)


@dataclass(frozen=True)
class LocationMessage:
    """A pin on a map in the chat: where (degrees), and the place's name and address lines
    shown under it (the rider on the map: the rider, and the sentence about them)."""

    latitude: float
    longitude: float
    name: str = ""
    address: str = ""

    def __post_init__(self) -> None:
        if not -90 <= self.latitude <= 90 or not -180 <= self.longitude <= 180:
            raise ValueError(f"({self.latitude}, {self.longitude}) is not a place on Earth")


@dataclass(frozen=True)
class TemplateMessage:
    """An approved message template, the only message allowed outside the customer-service
    window: its ``name``, ``language`` code and body parameters, in order."""

    name: str
    language: str
    parameters: Sequence[str] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        _at_most("a template's name", self.name, 512)
        for number, text in enumerate(self.parameters, start=1):
            _at_most(f"template parameter {{{{{number}}}}}", text, MAX_TEMPLATE_PARAMETER)
            if "\n" in text or "\t" in text or "    " in text:
                raise ValueError(
                    f"template parameter {{{{{number}}}}}: no newlines, tabs or four spaces"
                )


@dataclass(frozen=True)
class DocumentMessage:
    """A file the customer downloads: its bytes, its ``filename`` (with the extension the
    customer's app picks an icon by), one of Meta's ``DOCUMENT_TYPES``, and a caption."""

    content: bytes = field(repr=False)
    filename: str
    mime_type: str
    caption: str = ""

    def __post_init__(self) -> None:
        _media("a document", self.content, self.mime_type, DOCUMENT_TYPES, MAX_DOCUMENT_BYTES)
        if not self.filename.strip():
            raise ValueError("a document has no file name")
        _at_most("a caption", self.caption, MAX_CAPTION, empty=True)


@dataclass(frozen=True)
class ImageMessage:
    """A picture shown in the chat: its bytes, one of ``IMAGE_TYPES``, and a caption."""

    content: bytes = field(repr=False)
    mime_type: str
    caption: str = ""

    def __post_init__(self) -> None:
        _media("an image", self.content, self.mime_type, IMAGE_TYPES, MAX_IMAGE_BYTES)
        _at_most("a caption", self.caption, MAX_CAPTION, empty=True)


def _media(what: str, content: bytes, mime_type: str, types: frozenset[str], limit: int) -> None:
    if mime_type not in types:
        raise ValueError(f"{what} of type {mime_type!r}: WhatsApp takes {sorted(types)}")
    if not content:
        raise ValueError(f"{what} is empty")
    if len(content) > limit:
        raise ValueError(f"{what} is {len(content)} bytes, over WhatsApp's {limit}")


MediaMessage = DocumentMessage | ImageMessage
"""A message whose file is uploaded first."""

Outgoing = (
    TextMessage
    | ButtonsMessage
    | ListMessage
    | LocationRequest
    | LocationMessage
    | TemplateMessage
    | DocumentMessage
    | ImageMessage
)
"""One message the bot sends on WhatsApp."""
