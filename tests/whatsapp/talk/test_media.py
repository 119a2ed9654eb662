"""A photo's download through pywa, on the Cloud API's media wire format, and its re-hosting.

The Graph API is a ``MockTransport`` that answers as Meta documents it ("Retrieve media URL":
``GET /{media-id}`` gives the URL, type, sha256 and size; the URL then gives the bytes, both
with the access token in the ``Authorization`` header only). Re-hosting stores the bytes in a
real SQLite store under an unguessable token, served under the bot's ``/media/``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from pywa_async.client import WhatsApp

from bot.chat_ref import WHATSAPP, ChatRef
from bot.store import Store
from bot.web.photo_keeping import Rehosted
from bot.whatsapp.inbound import Image
from bot.whatsapp.media import CloudMediaDownload, PhotoRefused, PhotoRehosting
from tests.ordering.conftest import BOT_HOST, JPEG

TOKEN = "EAAG-test-access-token"
GRAPH = "https://graph.example.test/v22.0"
LOOKASIDE = "https://lookaside.example.test/whatsapp_business/attachments/?mid=1"
CHAT = ChatRef(WHATSAPP, 2348031234567)


def _graph(files: dict[str, bytes], seen: list[httpx.Request]) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            return httpx.Response(401, json={"error": {"code": 190, "message": "bad token"}})
        if request.url.host == "lookaside.example.test":
            media_id = request.url.params["mid"]
            return httpx.Response(200, content=files[media_id])
        media_id = request.url.path.rsplit("/", 1)[-1]
        if media_id not in files:
            error = {"message": "Unsupported get request", "type": "GraphMethodException"}
            return httpx.Response(400, json={"error": {**error, "code": 100}})
        return httpx.Response(
            200,
            json={
                "messaging_product": "whatsapp",
                "url": LOOKASIDE.replace("mid=1", f"mid={media_id}"),
                "mime_type": "image/jpeg",
                "sha256": "e3b0c442",
                "file_size": len(files[media_id]),
                "id": media_id,
            },
        )

    return httpx.MockTransport(answer)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.connect(tmp_path / "bot.sqlite3")
    yield opened
    await opened.close()


async def _rehosting(
    files: dict[str, bytes], store: Store, seen: list[httpx.Request]
) -> PhotoRehosting:
    session = httpx.AsyncClient(transport=_graph(files, seen))
    wa = WhatsApp(
        phone_id="1234567890",
        token=TOKEN,
        session=session,
        api_version=22.0,
        server=None,
        verify_token=None,
        validate_updates=False,
    )
    session.base_url = httpx.URL(GRAPH)  # as bot.whatsapp.cloud_client points it
    return PhotoRehosting(
        CloudMediaDownload(wa), store, public_base_url=BOT_HOST, ttl_seconds=3600.0, max_bytes=1000
    )


async def test_a_photo_is_downloaded_by_its_media_id_and_rehosted(store: Store) -> None:
    seen: list[httpx.Request] = []
    rehosting = await _rehosting({"1001": JPEG}, store, seen)
    got = await rehosting.receive(Image("1001", "image/jpeg"), chat=CHAT, already=0)
    assert isinstance(got, Rehosted)
    assert got.url == f"{BOT_HOST}/media/{got.media.token}"
    kept = await store.media.get(got.media.token)
    assert kept is not None and kept.content_type == "image/jpeg" and kept.chat == CHAT
    assert kept.path.read_bytes() == JPEG
    assert [str(r.url) for r in seen] == [f"{GRAPH}/1001", LOOKASIDE.replace("mid=1", "mid=1001")]
    assert all(TOKEN not in str(r.url) for r in seen)  # the token rides in a header only


async def test_what_is_refused_and_why(store: Store) -> None:
    files = {"big": b"\xff\xd8\xff" + b"x" * 2000, "gif": b"GIF89a-not-ours"}
    seen: list[httpx.Request] = []
    rehosting = await _rehosting(files, store, seen)

    async def refused(image: Image, already: int = 0) -> str:
        got = await rehosting.receive(image, chat=CHAT, already=already)
        assert isinstance(got, PhotoRefused)
        return got.problem

    assert await refused(Image("big", "image/jpeg")) == "too_large"
    assert len(seen) == 1  # refused by its declared size, before the download
    assert await refused(Image("gif", "image/jpeg")) == "not_an_image"  # the bytes decide
    assert await refused(Image("gone", "image/jpeg")) == "download_failed"
    assert await refused(Image("1001", "video/mp4")) == "not_an_image"
    assert await refused(Image("1001", "image/jpeg"), already=6) == "too_many"
    nowhere = PhotoRehosting(
        CloudMediaDownload(rehosting._download._wa), store, public_base_url=None, ttl_seconds=1.0
    )  # type: ignore[attr-defined]
    got = await nowhere.receive(Image("1001", "image/jpeg"), chat=CHAT, already=0)
    assert got == PhotoRefused("no_public_host")
