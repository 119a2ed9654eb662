"""A customer's photo on WhatsApp: downloaded from the Cloud API's media URL, checked, and
re-hosted by the bot, as Telegram photos are (``bot.telegram.photo_receiver``).

A WhatsApp message carries a media id, not the picture. pywa asks the Graph API for the media's
URL (``GET /{media-id}``: the URL, its type and size; valid for five minutes) and downloads it
with the access token in the session's header (``CloudMediaDownload``); neither the URL nor the
token is logged or handed on. The store keeps the bytes under an unguessable token, and the
service gets ``{public_base_url}/media/<token>``, served by the bot's web app until the photo
expires.

A photo is checked by its bytes, not by what WhatsApp says of it: JPEG, PNG or WebP, at most
5 MB (refused before the download when the Graph API already says it is larger), at most 6 to
an order. Several photos sent one after another are each an answer to the photo question,
which adds them up until the customer taps "Done" (the engine's photo step): WhatsApp has no
album to wait for.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol

import httpx

from bot.chat_ref import ChatRef
from bot.store import Store
from bot.web.photo_keeping import IMAGE_TYPES, Rehosted, image_type, keep_photo
from bot.whatsapp.inbound import Image
from conversations.texts.catalogue import Catalogue

if TYPE_CHECKING:
    from pywa_async.client import WhatsApp

MAX_PHOTO_BYTES: Final = 5 * 1024 * 1024
MAX_PHOTOS: Final = 6

log = logging.getLogger(__name__)

PhotoProblem = Literal["no_public_host", "too_many", "not_an_image", "too_large", "download_failed"]


@dataclass(frozen=True)
class PhotoRefused:
    """The photo was not taken because of ``problem``."""

    problem: PhotoProblem
    max_photos: int = MAX_PHOTOS

    def said(self, catalogue: Catalogue) -> str:
        """Why the photo was not taken, in ``catalogue``'s words (the customer's)."""
        values = {"max_photos": self.max_photos, "megabytes": MAX_PHOTO_BYTES // (1024 * 1024)}
        return catalogue.say(f"whatsapp.photo.{self.problem}", **values)


class MediaDownload(Protocol):
    """Fetches a customer's media by its WhatsApp media id."""

    async def download(self, media_id: str, *, max_bytes: int) -> bytes | PhotoRefused:
        """The media's bytes, or why not (``too_large``, ``download_failed``); never raises
        for anything the Cloud API or the network did."""
        ...


class WhatsAppMedia(Protocol):
    """Takes a customer's photo for their order (``PhotoRehosting``)."""

    async def receive(
        self, image: Image, *, chat: ChatRef, already: int
    ) -> Rehosted | PhotoRefused:
        """Download, check and keep ``image`` for ``chat``'s order, which has ``already``
        photos."""
        ...


class CloudMediaDownload:
    """Media downloaded through pywa's client ``wa`` (``bot.whatsapp.cloud_client``)."""

    def __init__(self, wa: WhatsApp) -> None:
        self._wa = wa

    async def download(self, media_id: str, *, max_bytes: int) -> bytes | PhotoRefused:
        from pywa.errors import WhatsAppError  # pywa only where WhatsApp runs

        try:
            found = await self._wa.get_media_url(media_id)
            if found.file_size is not None and found.file_size > max_bytes:
                return PhotoRefused("too_large")
            data = await self._wa.get_media_bytes(found.url)
        except (WhatsAppError, httpx.HTTPError, KeyError, ValueError) as error:
            # Only the error's type: the media URL must not reach a log line.
            log.warning("media %s not downloaded: %s", media_id, type(error).__name__)
            return PhotoRefused("download_failed")
        return PhotoRefused("too_large") if len(data) > max_bytes else data


class PhotoRehosting:
    """Re-hosts customers' photos (``WhatsAppMedia``) in ``store``'s media files.

    ``public_base_url`` is the bot's https host (None: every photo is refused with
    ``no_public_host``, before anything is downloaded); photos expire ``ttl_seconds`` after
    they arrive, by the store's clock.
    """

    def __init__(
        self,
        download: MediaDownload,
        store: Store,
        *,
        public_base_url: str | None,
        ttl_seconds: float,
        max_bytes: int = MAX_PHOTO_BYTES,
        max_photos: int = MAX_PHOTOS,
    ) -> None:
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        self._download = download
        self._store = store
        self.public_base_url = public_base_url
        self.ttl_seconds = ttl_seconds
        self.max_bytes = max_bytes
        self.max_photos = max_photos

    async def receive(
        self, image: Image, *, chat: ChatRef, already: int
    ) -> Rehosted | PhotoRefused:
        """Download, check and store ``image`` for ``chat``'s order, which has ``already``
        photos; never raises for anything WhatsApp or the customer did."""
        if self.public_base_url is None:
            return PhotoRefused("no_public_host")
        if already >= self.max_photos:
            return PhotoRefused("too_many", self.max_photos)
        if image.mime_type and image.mime_type not in IMAGE_TYPES:
            return PhotoRefused("not_an_image")
        data = await self._download.download(image.media_id, max_bytes=self.max_bytes)
        if isinstance(data, PhotoRefused):
            return data
        content_type = image_type(data)
        if content_type is None:
            return PhotoRefused("not_an_image")
        return await keep_photo(
            self._store,
            data,
            content_type,
            chat=chat,
            public_base_url=self.public_base_url,
            ttl_seconds=self.ttl_seconds,
        )
