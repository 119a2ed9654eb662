"""Local image files as package photos: checked, stored in ``store.media``, and turned into the
https URLs the Partner API downloads (``https://localhost/media/<token>`` in the demo, served by
the bot's own web app).

A photo is accepted by what its bytes are, not by its name: JPEG, PNG or WebP, recognised by
their magic numbers, at most 5 MB each (the spec's limit), at most six per message. What is
wrong with a file is said from the catalogue the caller passes (the typist's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.chat_ref import ChatRef
from bot.console.console_errors import ConsoleError
from bot.partner.models import MAX_IMAGE_BYTES, MAX_PACKAGE_IMAGES
from bot.store import Store
from bot.web.photo_keeping import image_type
from bot.web.web_app import media_url
from conversations.texts.catalogue import Catalogue

MEDIA_TTL_SECONDS = 7 * 24 * 3600  # long enough for a draft to be finished days later
_HEAD_BYTES = 12


@dataclass(frozen=True)
class CheckedPhoto:
    path: Path
    content_type: str


class PhotoProblem(ConsoleError):
    """Files that cannot be sent as photos; the message says which and why, one per line."""


def _check_one(catalogue: Catalogue, path: Path) -> CheckedPhoto | str:
    try:
        size = path.stat().st_size
        if not path.is_file():
            return catalogue.say("console.photo.not_a_file", path=path)
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError as exc:
        return catalogue.say("console.photo.unreadable", path=path, reason=exc.strerror or exc)
    if size == 0:
        return catalogue.say("console.photo.empty", path=path)
    if size > MAX_IMAGE_BYTES:
        megabytes = catalogue.number(size / 1_048_576, "0.0")
        return catalogue.say("console.photo.too_large", path=path, megabytes=megabytes)
    content_type = image_type(head)
    if content_type is None:
        return catalogue.say("console.photo.not_an_image", path=path)
    return CheckedPhoto(path, content_type)


def check_photos(catalogue: Catalogue, paths: Sequence[Path]) -> list[CheckedPhoto]:
    """Every file checked; ``PhotoProblem`` lists each one that cannot be sent, said from
    ``catalogue``."""
    if len(paths) > MAX_PACKAGE_IMAGES:
        raise PhotoProblem(
            catalogue.say("console.photo.too_many", maximum=MAX_PACKAGE_IMAGES, given=len(paths))
        )
    results = [_check_one(catalogue, path) for path in paths]
    problems = [r for r in results if isinstance(r, str)]
    if problems:
        raise PhotoProblem("\n".join(problems))
    return [r for r in results if isinstance(r, CheckedPhoto)]


async def host_photos(
    catalogue: Catalogue,
    paths: Sequence[Path],
    store: Store,
    *,
    chat: ChatRef,
    public_base_url: str,
) -> list[str]:
    """Check, store and return the public URL of each photo (``PhotoProblem``, said from
    ``catalogue``, when one fails)."""
    checked = await asyncio.to_thread(check_photos, catalogue, paths)
    expires = store.clock() + MEDIA_TTL_SECONDS
    urls = []
    for photo in checked:
        stored = await store.media.put(
            photo.path, content_type=photo.content_type, chat=chat, expires_at=expires
        )
        urls.append(media_url(public_base_url, stored.token))
    return urls
