"""Photo files: recognised by their bytes, limited in size and number, hosted in store.media."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.chat_ref import CONSOLE, ChatRef
from bot.console.photo_files import PhotoProblem, check_photos, host_photos
from bot.store import Store
from bot.web.photo_keeping import image_type
from tests.support.words import SHIPPED

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16
WEBP = b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 8


@pytest.mark.parametrize(
    ("head", "content_type"),
    [
        (PNG, "image/png"),
        (JPEG, "image/jpeg"),
        (WEBP, "image/webp"),
        (b"GIF89a" + b"\x00" * 10, None),
        (b"RIFF\x10\x00\x00\x00WAVEfmt ", None),
        (b"%PDF-1.7", None),
        (b"", None),
    ],
)
def test_types_are_recognised_by_their_bytes(head: bytes, content_type: str | None) -> None:
    assert image_type(head[:12]) == content_type


def test_problems_name_each_file(tmp_path: Path) -> None:
    (tmp_path / "ok.png").write_bytes(PNG)
    (tmp_path / "empty.jpg").write_bytes(b"")
    (tmp_path / "doc.jpg").write_bytes(b"%PDF-1.7 not really a photo")
    big = tmp_path / "big.jpg"
    with big.open("wb") as handle:
        handle.write(JPEG)
        handle.truncate(5 * 1024 * 1024 + 1)
    with pytest.raises(PhotoProblem) as raised:
        check_photos(
            SHIPPED, [tmp_path / name for name in ("ok.png", "empty.jpg", "doc.jpg", "big.jpg")]
        )
    lines = str(raised.value).splitlines()
    assert len(lines) == 3
    assert "empty.jpg: the file is empty" in lines[0]
    assert "doc.jpg: not a JPEG, PNG or WebP image" in lines[1]
    assert "big.jpg: 5.0 MB is over the 5 MB limit" in lines[2]


def test_exactly_five_megabytes_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "edge.jpg"
    with path.open("wb") as handle:
        handle.write(JPEG)
        handle.truncate(5 * 1024 * 1024)
    assert [p.content_type for p in check_photos(SHIPPED, [path])] == ["image/jpeg"]


def test_at_most_six_at_a_time(tmp_path: Path) -> None:
    paths = []
    for n in range(7):
        paths.append(tmp_path / f"{n}.png")
        paths[-1].write_bytes(PNG)
    with pytest.raises(PhotoProblem, match="At most 6"):
        check_photos(SHIPPED, paths)


async def test_hosted_photos_get_unguessable_urls(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    (tmp_path / "b.webp").write_bytes(WEBP)
    async with Store.open(tmp_path / "bot.sqlite3") as store:
        urls = await host_photos(
            SHIPPED,
            [tmp_path / "a.png", tmp_path / "b.webp"],
            store,
            chat=ChatRef(CONSOLE, 5),
            public_base_url="https://localhost/",
        )
        tokens = [url.removeprefix("https://localhost/media/") for url in urls]
        assert all(len(token) >= 40 and "/" not in token for token in tokens)
        stored = [await store.media.get(token) for token in tokens]
        assert [m.content_type for m in stored if m] == ["image/png", "image/webp"]
        assert all(m is not None and m.chat.id == 5 for m in stored)


async def test_nothing_is_stored_when_one_file_fails(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    (tmp_path / "b.txt").write_text("text")
    async with Store.open(tmp_path / "bot.sqlite3") as store:
        with pytest.raises(PhotoProblem):
            await host_photos(
                SHIPPED,
                [tmp_path / "a.png", tmp_path / "b.txt"],
                store,
                chat=ChatRef(CONSOLE, 5),
                public_base_url="https://localhost",
            )
        assert not any(store.media_dir.iterdir())
