"""Photos fetched through PTB from the fake Bot API, checked by their bytes, and re-hosted."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import telegram
from telegram import Update

from bot.store import Store
from bot.telegram.photo_receiver import (
    MAX_PHOTO_BYTES,
    IncomingPhoto,
    PhotoReceiver,
    PhotoRefused,
    image_type,
)
from bot.web.photo_keeping import Rehosted
from tests.fakes import FakeTelegram
from tests.support.words import SHIPPED

from .conftest import ALICE, STORE_NOW

PUBLIC = "https://bot.example.com"
TTL = 48 * 3600.0
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 512
WEBP = b"RIFF\x00\x10\x00\x00WEBPVP8 " + b"\x00" * 512


@pytest.fixture
def receiver(bot: telegram.Bot, store: Store) -> PhotoReceiver:
    return PhotoReceiver(bot, store, public_base_url=PUBLIC, ttl_seconds=TTL)


def photo_in(update: dict[str, Any]) -> IncomingPhoto:
    message = Update.de_json(update, None).message
    assert message is not None
    incoming = IncomingPhoto.from_message(message)
    assert incoming is not None
    return incoming


def document(tg: FakeTelegram, data: bytes, mime_type: str | None) -> IncomingPhoto:
    stored = tg.register_file(data, suffix=".bin")
    return IncomingPhoto(stored.file_id, None, mime_type)


async def test_the_largest_size_is_downloaded_stored_and_served_by_the_bots_host(
    tg: FakeTelegram, receiver: PhotoReceiver, store: Store
) -> None:
    small, large = JPEG[:300], JPEG
    result = await receiver.receive(
        photo_in(tg.updates.photo(ALICE, [small, large])), chat_id=ALICE.id
    )
    assert isinstance(result, Rehosted)
    assert [d.data for d in tg.downloads] == [large]
    media = result.media
    assert result.url == f"{PUBLIC}/media/{media.token}"
    assert (media.content_type, media.size, media.chat.id) == ("image/jpeg", len(large), ALICE.id)
    assert media.expires_at == STORE_NOW + TTL
    assert media.path.read_bytes() == large
    assert await store.media.get(media.token) == media
    assert tg.token not in result.url and tg.token not in repr(result)


@pytest.mark.parametrize(
    ("data", "content_type"), [(PNG, "image/png"), (WEBP, "image/webp"), (JPEG, "image/jpeg")]
)
async def test_images_sent_as_files_are_taken_by_their_bytes(
    tg: FakeTelegram, receiver: PhotoReceiver, data: bytes, content_type: str
) -> None:
    result = await receiver.receive(document(tg, data, None), chat_id=ALICE.id)
    assert isinstance(result, Rehosted) and result.media.content_type == content_type


async def test_bytes_that_are_no_image_are_refused_whatever_the_client_claims(
    tg: FakeTelegram, receiver: PhotoReceiver, store: Store
) -> None:
    result = await receiver.receive(document(tg, b"%PDF-1.7 ...", "image/jpeg"), chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "not_an_image"
    assert not list(store.media_dir.iterdir())


async def test_a_file_declared_as_something_else_is_refused_without_downloading(
    tg: FakeTelegram, receiver: PhotoReceiver
) -> None:
    result = await receiver.receive(document(tg, PNG, "application/pdf"), chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "not_an_image"
    assert tg.calls("getFile") == []


async def test_a_photo_telegram_says_is_too_large_is_refused_before_downloading(
    tg: FakeTelegram, bot: telegram.Bot, store: Store
) -> None:
    receiver = PhotoReceiver(bot, store, public_base_url=PUBLIC, ttl_seconds=TTL, max_bytes=1000)
    result = await receiver.receive(photo_in(tg.updates.photo(ALICE, JPEG)), chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "too_large"
    assert "5 MB" in result.said(SHIPPED)
    assert tg.calls("getFile") == []


async def test_a_size_getfile_reports_is_checked_before_downloading(
    tg: FakeTelegram, bot: telegram.Bot, store: Store
) -> None:
    receiver = PhotoReceiver(bot, store, public_base_url=PUBLIC, ttl_seconds=TTL, max_bytes=1000)
    result = await receiver.receive(document(tg, JPEG, "image/jpeg"), chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "too_large"
    assert len(tg.calls("getFile")) == 1 and tg.downloads == []


class _SizeBlindBot(telegram.Bot):
    """getFile without file_size, as Telegram may answer: only the bytes can tell."""

    async def get_file(self, *args: Any, **kwargs: Any) -> telegram.File:
        known = await super().get_file(*args, **kwargs)
        blind = telegram.File(known.file_id, known.file_unique_id, file_path=known.file_path)
        blind.set_bot(self)
        return blind


async def test_the_downloaded_bytes_are_checked_when_no_size_was_known(
    tg: FakeTelegram, store: Store
) -> None:
    async with _SizeBlindBot(
        tg.token, base_url=tg.api_base_url, base_file_url=tg.file_base_url
    ) as bot:
        receiver = PhotoReceiver(
            bot, store, public_base_url=PUBLIC, ttl_seconds=TTL, max_bytes=len(JPEG) - 1
        )
        result = await receiver.receive(document(tg, JPEG, None), chat_id=ALICE.id)
        assert isinstance(result, PhotoRefused) and result.problem == "too_large"
        assert [d.data for d in tg.downloads] == [JPEG]
        assert not list(store.media_dir.iterdir())


async def test_five_megabytes_is_the_default_limit() -> None:
    assert MAX_PHOTO_BYTES == 5 * 1024 * 1024


async def test_an_order_takes_at_most_six(tg: FakeTelegram, receiver: PhotoReceiver) -> None:
    incoming = photo_in(tg.updates.photo(ALICE, JPEG))
    assert isinstance(await receiver.receive(incoming, chat_id=ALICE.id, already=5), Rehosted)
    result = await receiver.receive(incoming, chat_id=ALICE.id, already=6)
    assert isinstance(result, PhotoRefused) and result.problem == "too_many"
    assert "6 photos" in result.said(SHIPPED)
    assert len(tg.calls("getFile")) == 1


async def test_without_a_public_host_photos_are_refused_plainly(
    tg: FakeTelegram, bot: telegram.Bot, store: Store
) -> None:
    receiver = PhotoReceiver(bot, store, public_base_url=None, ttl_seconds=TTL)
    assert not receiver.available
    result = await receiver.receive(photo_in(tg.updates.photo(ALICE, JPEG)), chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "no_public_host"
    assert "public https host" in result.said(SHIPPED) and "ask the business" in result.said(
        SHIPPED
    )
    assert tg.calls("getFile") == []


async def test_a_failed_download_is_a_refusal_and_the_log_has_no_token(
    tg: FakeTelegram, receiver: PhotoReceiver, caplog: pytest.LogCaptureFixture
) -> None:
    incoming = photo_in(tg.updates.photo(ALICE, JPEG))
    tg.fail_next("getFile", error_code=400, description="Bad Request: wrong file_id")
    with caplog.at_level(logging.DEBUG, logger="bot.telegram"):
        result = await receiver.receive(incoming, chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "download_failed"
    # httpx itself logs request URLs (token included) at INFO: the CLI must quiet it.
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("bot."))
    assert "BadRequest" in ours
    assert tg.token.split(":")[1] not in ours


async def test_a_file_gone_from_the_file_server_is_a_refusal(
    tg: FakeTelegram, receiver: PhotoReceiver
) -> None:
    result = await receiver.receive(IncomingPhoto("no-such-file", None), chat_id=ALICE.id)
    assert isinstance(result, PhotoRefused) and result.problem == "download_failed"


def test_magic_numbers() -> None:
    assert image_type(JPEG) == "image/jpeg"
    assert image_type(PNG) == "image/png"
    assert image_type(WEBP) == "image/webp"
    assert image_type(b"RIFF\x00\x00\x00\x00WAVE") is None
    assert image_type(b"GIF89a") is None
    assert image_type(b"") is None


def test_the_ttl_must_be_positive(bot: telegram.Bot, store: Store) -> None:
    with pytest.raises(ValueError):
        PhotoReceiver(bot, store, public_base_url=PUBLIC, ttl_seconds=0)
