"""GET /media/{token}: stored photos served with their type and cache rules; nothing else."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.store import Store

JPEG = b"\xff\xd8\xff\xe0" + b"parcel-photo" * 100
PNG = b"\x89PNG\r\n\x1a\n" + b"label" * 50


async def test_a_stored_photo_is_served_with_its_type_and_private_caching(
    client: httpx.AsyncClient, store: Store, clock: Any
) -> None:
    media = await store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 7), expires_at=clock() + 3600
    )

    response = await client.get(f"/media/{media.token}")

    assert response.status_code == 200
    assert response.content == JPEG
    assert response.headers["content-type"] == "image/jpeg"
    assert response.headers["cache-control"] == "private, max-age=3600"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "content-disposition" not in response.headers


async def test_caching_never_outlives_a_photo_nor_a_day(
    client: httpx.AsyncClient, store: Store, clock: Any
) -> None:
    soon = await store.media.put(
        PNG, content_type="image/png", chat=ChatRef("telegram", 7), expires_at=clock() + 90
    )
    later = await store.media.put(
        PNG, content_type="image/png", chat=ChatRef("telegram", 7), expires_at=clock() + 30 * 86_400
    )

    soon_answer = await client.get(f"/media/{soon.token}")
    later_answer = await client.get(f"/media/{later.token}")

    assert soon_answer.headers["cache-control"] == "private, max-age=90"
    assert later_answer.headers["cache-control"] == "private, max-age=86400"


async def test_unknown_and_expired_tokens_get_the_same_404(
    client: httpx.AsyncClient, store: Store, clock: Any
) -> None:
    media = await store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 7), expires_at=clock() + 60
    )
    clock.now += 61

    expired = await client.get(f"/media/{media.token}")
    unknown = await client.get("/media/" + "A" * 43)

    assert expired.status_code == unknown.status_code == 404
    assert expired.content == unknown.content
    assert expired.headers.get("content-type") == unknown.headers.get("content-type")


async def test_a_deleted_photo_is_gone(client: httpx.AsyncClient, store: Store, clock: Any) -> None:
    media = await store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 7), expires_at=clock() + 60
    )
    await store.media.delete(media.token)

    assert (await client.get(f"/media/{media.token}")).status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/media",
        "/media/",
        "/media/short",
        "/media/..%2F..%2Fbot.db",
        "/media/" + "A" * 43 + "/extra",
        "/media/" + "%00" * 43,
    ],
)
async def test_no_listing_no_directories_no_strange_tokens(
    client: httpx.AsyncClient, store: Store, clock: Any, path: str
) -> None:
    await store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 7), expires_at=clock() + 60
    )

    response = await client.get(path)

    assert response.status_code == 404
    assert JPEG not in response.content


async def test_media_is_read_only(client: httpx.AsyncClient, store: Store, clock: Any) -> None:
    media = await store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 7), expires_at=clock() + 60
    )

    assert (await client.post(f"/media/{media.token}", content=b"x")).status_code == 405
    assert (await client.delete(f"/media/{media.token}")).status_code == 405
    assert (await client.get(f"/media/{media.token}")).content == JPEG
