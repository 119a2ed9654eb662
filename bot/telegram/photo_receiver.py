"""Package photos: fetched from Telegram through PTB, checked, and re-hosted by the bot.

A Telegram file URL carries the bot token, so it is never handed to anyone, logged or built
here: PTB downloads the bytes (``File.download_to_memory``), the store keeps them under an
unguessable token, and the service gets ``{public_base_url}/media/<token>``, served by the
bot's own web app until the photo expires. (PTB's ``File`` shows that URL in its repr: never
log one.)

A photo is checked by its bytes, not by what the client claims: JPEG, PNG or WebP, at most
5 MB (refused before the download when Telegram already says it is larger), at most 6 to an
order. Photos sent "as a file" (documents) are taken too when they are such images.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Final, Literal

from telegram import Bot, Message
from telegram.error import TelegramError

from bot.chat_ref import TELEGRAM, ChatRef
from bot.store import Store
from bot.web.photo_keeping import IMAGE_TYPES, Rehosted, image_type, keep_photo
from conversations.texts.catalogue import Catalogue

MAX_PHOTO_BYTES: Final = 5 * 1024 * 1024
MAX_PHOTOS: Final = 6

log = logging.getLogger(__name__)

PhotoProblem = Literal["no_public_host", "too_many", "not_an_image", "too_large", "download_failed"]


@dataclass(frozen=True)
class IncomingPhoto:
    """A picture in a message: the largest size of a photo, or an image sent as a document.

    ``declared_type`` is the document's MIME type as the client sent it (None for photos,
    which Telegram re-encodes as JPEG, and when the client sent none); a declared type other
    than an image's is refused at once, and otherwise the bytes decide.
    """

    file_id: str
    file_size: int | None
    declared_type: str | None = None

    @classmethod
    def from_message(cls, message: Message) -> IncomingPhoto | None:
        """The picture ``message`` carries, or None when it carries none."""
        if message.photo:
            largest = max(message.photo, key=lambda s: (s.width * s.height, s.file_size or 0))
            return cls(largest.file_id, largest.file_size)
        document = message.document
        if document is not None:
            return cls(document.file_id, document.file_size, document.mime_type)
        return None


@dataclass(frozen=True)
class PhotoRefused:
    """The photo was not taken because of ``problem``; ``said`` tells the customer why (an
    order takes at most ``max_photos``)."""

    problem: PhotoProblem
    max_photos: int = MAX_PHOTOS

    def said(self, catalogue: Catalogue) -> str:
        """Why the photo was not taken, in ``catalogue``'s words (the customer's)."""
        values = {"max_photos": self.max_photos, "megabytes": MAX_PHOTO_BYTES // (1024 * 1024)}
        return catalogue.say(f"telegram.photo.{self.problem}", **values)


def refusal(problem: PhotoProblem, *, max_photos: int = MAX_PHOTOS) -> PhotoRefused:
    """The refusal for ``problem``."""
    return PhotoRefused(problem, max_photos)


class PhotoReceiver:
    """Re-hosts customers' photos: ``await receiver.receive(photo, chat_id=..., already=n)``.

    ``public_base_url`` is the bot's https host, or a plain http loopback host for local tests
    (None when it has none: every photo is then refused with ``no_public_host``, before
    anything is downloaded). Photos expire
    ``ttl_seconds`` after they arrive, by the store's clock.
    """

    def __init__(
        self,
        bot: Bot,
        store: Store,
        *,
        public_base_url: str | None,
        ttl_seconds: float,
        max_bytes: int = MAX_PHOTO_BYTES,
        max_photos: int = MAX_PHOTOS,
    ) -> None:
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        self._bot = bot
        self._store = store
        self.public_base_url = public_base_url
        self.ttl_seconds = ttl_seconds
        self.max_bytes = max_bytes
        self.max_photos = max_photos

    @property
    def available(self) -> bool:
        """Whether photos can be taken at all (the bot has a public host)."""
        return self.public_base_url is not None

    async def receive(
        self, photo: IncomingPhoto, *, chat_id: int, already: int = 0
    ) -> Rehosted | PhotoRefused:
        """Download, check and store ``photo`` for ``chat_id``'s order, which has ``already``
        photos; never raises for anything Telegram or the customer did."""
        if self.public_base_url is None:
            return refusal("no_public_host")
        if already >= self.max_photos:
            return refusal("too_many", max_photos=self.max_photos)
        if photo.declared_type is not None and photo.declared_type not in IMAGE_TYPES:
            return refusal("not_an_image")
        if photo.file_size is not None and photo.file_size > self.max_bytes:
            return refusal("too_large")
        data = await self._download(photo, chat_id)
        if isinstance(data, PhotoRefused):
            return data
        content_type = image_type(data)
        if content_type is None:
            return refusal("not_an_image")
        return await keep_photo(
            self._store,
            data,
            content_type,
            chat=ChatRef(TELEGRAM, chat_id),
            public_base_url=self.public_base_url,
            ttl_seconds=self.ttl_seconds,
        )

    async def _download(self, photo: IncomingPhoto, chat_id: int) -> bytes | PhotoRefused:
        try:
            file = await self._bot.get_file(photo.file_id)
            if file.file_size is not None and file.file_size > self.max_bytes:
                return refusal("too_large")
            buffer = io.BytesIO()
            await file.download_to_memory(buffer)
        except (TelegramError, RuntimeError) as error:
            # Only the error's type: PTB's network errors may quote the file URL, token included.
            log.warning(
                "photo download for chat %s failed: %s",
                ChatRef(TELEGRAM, chat_id).for_log,
                type(error).__name__,
            )
            return refusal("download_failed")
        data = buffer.getvalue()
        if len(data) > self.max_bytes:
            return refusal("too_large")
        return data
