"""Customers' photos kept by the bot for the Partner API, whichever channel they came by.

The service takes JPEG, PNG or WebP ``packageImages`` by URL. A channel (Telegram, WhatsApp,
the console, an agent's upload) gets a photo's bytes its own way; what it keeps is judged by
the bytes' magic numbers (``image_type``), never by what the client says, and stored under an
unguessable token (``keep_photo``) that the bot's own ``/media/<token>`` serves until it
expires.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef
from bot.store import MediaFile, Store
from bot.web.web_app import media_url

IMAGE_TYPES: Final = frozenset({"image/jpeg", "image/png", "image/webp"})
"""The image types the service takes (a declared type outside them is refused at once)."""


def image_type(data: bytes) -> str | None:
    """The MIME type of JPEG, PNG or WebP bytes (their first 12 are enough), judged by their
    magic numbers; else None."""
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


@dataclass(frozen=True)
class Rehosted:
    """The photo is stored; ``url`` is what goes into ``packageImages``."""

    url: str
    media: MediaFile


async def keep_photo(
    store: Store,
    data: bytes,
    content_type: str,
    *,
    chat: ChatRef,
    public_base_url: str,
    ttl_seconds: float,
) -> Rehosted:
    """Store ``data`` for ``chat``'s order until ``ttl_seconds`` from now (the store's clock);
    its URL on the bot's host."""
    media = await store.media.put(
        data, content_type=content_type, chat=chat, expires_at=store.clock() + ttl_seconds
    )
    return Rehosted(media_url(public_base_url, media.token), media)
