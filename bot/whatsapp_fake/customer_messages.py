"""A customer's messages as Meta pushes them (``value.messages[]``), one builder per kind.

Each builder gives the kind's part (``type`` and the object of that name); the fake adds
``from``, ``id``, ``timestamp`` and, for a tap on a button or row, ``context`` (the message
tapped). Kinds the bot may not take are here too (a sticker, a reaction, a voice note, and
Meta's ``unsupported`` with its error), since customers send them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.whatsapp_fake.media_shelf import StoredMedia


def text(body: str) -> dict[str, Any]:
    """A typed message."""
    return {"type": "text", "text": {"body": body}}


def button_reply(reply_id: str, title: str) -> dict[str, Any]:
    """A tap on a reply button."""
    return {
        "type": "interactive",
        "interactive": {"type": "button_reply", "button_reply": {"id": reply_id, "title": title}},
    }


def list_reply(reply_id: str, title: str, description: str = "") -> dict[str, Any]:
    """A chosen list row (``description`` only when the row has one, as Meta sends it)."""
    reply = {"id": reply_id, "title": title}
    if description:
        reply["description"] = description
    return {"type": "interactive", "interactive": {"type": "list_reply", "list_reply": reply}}


def location(
    latitude: float, longitude: float, name: str = "", address: str = ""
) -> dict[str, Any]:
    """A shared pin; ``name`` and ``address`` when the customer picked a place."""
    pin: dict[str, Any] = {"latitude": latitude, "longitude": longitude}
    if name:
        pin["name"] = name
    if address:
        pin["address"] = address
    return {"type": "location", "location": pin}


def contact(
    formatted_name: str, phones: Sequence[str], wa_ids: Sequence[str] = ()
) -> dict[str, Any]:
    """A shared contact card; ``wa_ids[i]`` is ``phones[i]``'s WhatsApp id when on WhatsApp."""
    first, _, last = formatted_name.partition(" ")
    name: dict[str, str] = {"formatted_name": formatted_name, "first_name": first}
    if last:
        name["last_name"] = last
    entries: list[dict[str, str]] = []
    for index, phone in enumerate(phones):
        entry = {"phone": phone, "type": "CELL"}
        if index < len(wa_ids) and wa_ids[index]:
            entry["wa_id"] = wa_ids[index]
        entries.append(entry)
    return {"type": "contacts", "contacts": [{"name": name, "phones": entries}]}


def image(media: StoredMedia, caption: str = "") -> dict[str, Any]:
    """A photo whose bytes the fake holds (``FakeCloudApi.put_media``)."""
    part: dict[str, Any] = {
        "id": media.media_id,
        "mime_type": media.mime_type,
        "sha256": media.sha256,
    }
    if caption:
        part["caption"] = caption
    return {"type": "image", "image": part}


def sticker(media: StoredMedia) -> dict[str, Any]:
    """A sticker (the bot does not take one)."""
    part = {"id": media.media_id, "mime_type": media.mime_type, "sha256": media.sha256}
    return {"type": "sticker", "sticker": {**part, "animated": False}}


def voice_note(media: StoredMedia) -> dict[str, Any]:
    """A recorded voice note (``audio`` with ``voice``; the bot does not take one)."""
    part = {"id": media.media_id, "mime_type": media.mime_type, "sha256": media.sha256}
    return {"type": "audio", "audio": {**part, "voice": True}}


def reaction(message_id: str, emoji: str) -> dict[str, Any]:
    """An emoji reaction to ``message_id`` (the bot does not take one)."""
    return {"type": "reaction", "reaction": {"message_id": message_id, "emoji": emoji}}


def unsupported() -> dict[str, Any]:
    """What Meta pushes for a message its API cannot carry (a poll, a view-once photo)."""
    error = {
        "code": 131051,
        "title": "Message type unknown",
        "message": "Message type unknown",
        "error_data": {"details": "Message type is currently not supported."},
    }
    return {"type": "unsupported", "errors": [error]}
