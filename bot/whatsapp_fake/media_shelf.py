"""The media the simulated Cloud API holds: what the business uploaded, and customers' photos.

Meta keeps an uploaded file under a numeric media id; ``GET /{media_id}`` tells its URL, type,
size and SHA-256, and the URL (with the access token) gives the bytes. A customer's photo
arrives the same way: a test puts its bytes here and the persona sends the id in an ``image``
message, which the bot downloads through the same two calls.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StoredMedia:
    """One file: its id, bytes, MIME type, and SHA-256 (hex, as Meta gives it)."""

    media_id: str
    content: bytes = field(repr=False)
    mime_type: str
    sha256: str


class MediaShelf:
    """The files by media id (ids are numeric strings, as Meta's are)."""

    def __init__(self, first_id: int = 1_000_000_000_000_001) -> None:
        self._ids = itertools.count(first_id)
        self._files: dict[str, StoredMedia] = {}

    def put(self, content: bytes, mime_type: str) -> StoredMedia:
        """Keep ``content`` under a new media id."""
        media = StoredMedia(
            str(next(self._ids)), content, mime_type, hashlib.sha256(content).hexdigest()
        )
        self._files[media.media_id] = media
        return media

    def get(self, media_id: str) -> StoredMedia | None:
        """The file under ``media_id``, None when there is none."""
        return self._files.get(media_id)

    def __contains__(self, media_id: object) -> bool:
        return media_id in self._files
