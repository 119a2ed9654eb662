""" "My data" as the file a customer receives, the same in every chat: its name, its bytes,
the photos sent with it, and whether there is anything to send at all.

Each channel hands the customer ``export_file`` as a document named ``export_file_name``
(``my-data-2024-05-01.json``); a channel that attaches the photo files still kept sends at
most ``MAX_ATTACHED_PHOTOS`` of them (``attached_photos``): the document lists every photo
with its digest, so a longer list loses no information, only attachments.

``kept_nothing`` tells the channel to say so instead of sending an empty file. It leaves out
what the request itself left behind while it is being answered (the message in the update
inbox, the time of their last message that opens WhatsApp's reply window): with nothing else,
the bot keeps nothing about them beyond this very request.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from bot.store import CustomerExport

MAX_ATTACHED_PHOTOS: Final = 10
"""Photo files sent with the document at most (an order takes a few; a chat is not flooded)."""

_ABOUT: Final = frozenset({"customer", "exported_at", "chats"})
_THIS_REQUEST: Final = frozenset({"chat", "messages_not_handled_yet", "last_message_at"})


def export_file_name(exported_at: float) -> str:
    """The document's name: ``my-data-<UTC date>.json``."""
    return f"my-data-{datetime.fromtimestamp(exported_at, UTC).date().isoformat()}.json"


def export_bytes(exported: CustomerExport) -> bytes:
    """The document as UTF-8 JSON, indented for reading (names and addresses as written)."""
    return json.dumps(exported.document, ensure_ascii=False, indent=2, sort_keys=False).encode()


async def export_file(exported: CustomerExport) -> bytes:
    """``export_bytes`` on a thread: indented JSON is written by the json module's Python
    encoder, over a second for a customer with ten thousand deliveries (22 MB), which on the
    event loop would hold every other chat's reply that long."""
    return await asyncio.to_thread(export_bytes, exported)


def kept_nothing(exported: CustomerExport) -> bool:
    """Whether the export holds nothing about the customer but this request (see above)."""
    document = exported.document
    if any(_holds(value) for key, value in document.items() if key not in _ABOUT):
        return False
    return not any(
        _holds(value)
        for chat in document.get("chats") or ()
        for key, value in chat.items()
        if key not in _THIS_REQUEST
    )


def attached_photos(exported: CustomerExport, media_dir: Path) -> list[Path]:
    """The photo files to send with the document: at most ``MAX_ATTACHED_PHOTOS``, each in
    ``media_dir``."""
    return [media_dir / name for name in exported.photo_files[:MAX_ATTACHED_PHOTOS]]


def _holds(value: Any) -> bool:
    """Whether a section's value keeps something (a count of nothing keeps nothing)."""
    return value not in (None, 0, "", [], {})
