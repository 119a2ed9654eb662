"""What arrives from WhatsApp, as values: a customer's message, or a status of one of ours.

``POST /whatsapp``'s payload (``entry[].changes[].value`` with ``messages``, ``contacts`` and
``statuses``) is read into these by the receiving route; the conversation and the status
handling never see its JSON. A message the bot cannot take (a sticker, a reaction, a voice
note) is an ``Unsupported`` with WhatsApp's type name, so the customer can be told politely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class Text:
    """A typed message."""

    body: str = field(repr=False)  # the customer's words


@dataclass(frozen=True)
class ButtonReply:
    """A tapped reply button: the ``reply_id`` the bot gave it, and its title."""

    reply_id: str
    title: str


@dataclass(frozen=True)
class ListReply:
    """A chosen list row: the ``reply_id`` the bot gave it, and its title."""

    reply_id: str
    title: str


@dataclass(frozen=True)
class Location:
    """A shared pin (from the location request or the attach menu)."""

    latitude: float
    longitude: float
    name: str = ""
    address: str = ""


@dataclass(frozen=True)
class SharedContact:
    """A shared contact card: its phone numbers (``wa_id`` when the contact is on WhatsApp)
    and the name shown on it."""

    name: str
    phones: Sequence[str]
    wa_ids: Sequence[str] = ()


@dataclass(frozen=True)
class Image:
    """A photo: its media id (downloaded through the Cloud API's media URL), type, caption."""

    media_id: str
    mime_type: str
    sha256: str = ""
    caption: str = field(default="", repr=False)


@dataclass(frozen=True)
class Unsupported:
    """A message of a type the bot does not take (``sticker``, ``reaction``, ``audio`` ...)."""

    type: str


Content = Text | ButtonReply | ListReply | Location | SharedContact | Image | Unsupported


@dataclass(frozen=True)
class InboundMessage:
    """One customer message: WhatsApp's id for it (``wamid.…``), the sender's number
    (``wa_id``, digits), their profile name, when they sent it (Unix seconds) and what it is.
    ``replied_to`` is the id of the bot's message it answers, when WhatsApp says."""

    message_id: str
    wa_id: str
    profile_name: str
    timestamp: int
    content: Content
    replied_to: str = ""


StatusName = Literal["sent", "delivered", "read", "failed"]


@dataclass(frozen=True)
class StatusError:
    """One of a ``failed`` status's errors: Meta's code (131047, 131026 ...) and its title."""

    code: int
    title: str


@dataclass(frozen=True)
class StatusUpdate:
    """What became of a message the bot sent: its id, the recipient's number, the status,
    when (Unix seconds), and for ``failed`` the errors."""

    message_id: str
    recipient: str
    status: StatusName
    timestamp: int
    errors: Sequence[StatusError] = ()
