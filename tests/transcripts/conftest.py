"""The transcript runner for pytest: each ``*.txt`` here is replayed against the whole stack in
process (the sandbox, the Partner client, the SQLite store in ``tmp_path``, the web app, the
relay and the chat service), exactly as ``deliverybot demo --script`` replays it, but on a fake
clock (no real waits for back-offs or rate limits), with predictable idempotency keys, and with
the photo files the transcripts name written into a scratch directory.
"""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.console.transcript import load_transcript, run_transcript
from bot.demo import DemoOptions, DemoStack, demo_setup
from conversations.flow import FlowRegistry
from conversations.flows import ERRAND, PICKUP_DELIVERY, RETURN_PARCEL, default_registry
from tests.support.clock import FakeClock

HERE = Path(__file__).parent
START = 1_800_000_000.0


def tiny_png(red: int = 255) -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, red, 0, 0]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def write_photo_files(directory: Path) -> Path:
    """The files transcripts name: photos of each type, and files that are not photos."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "parcel.png").write_bytes(tiny_png())
    (directory / "parcel-2.png").write_bytes(tiny_png(red=10))
    (directory / "receipt.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 64)
    (directory / "shoes.webp").write_bytes(b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 32)
    (directory / "notes.txt").write_text("not a photo\n")
    with (directory / "huge.jpg").open("wb") as handle:
        handle.write(b"\xff\xd8\xff\xe0")
        handle.truncate(5 * 1024 * 1024 + 1)
    return directory


Replay = Callable[..., Awaitable[None]]
# The entry menu the transcripts were written for: a flow shipped later (listed in the shipped
# menu) is registered but not offered here, so it changes no transcript; its own transcript
# starts it by name (``@flow <name>``).
TRANSCRIBED_MENU = (PICKUP_DELIVERY, ERRAND, RETURN_PARCEL)


@pytest.fixture
def replay(tmp_path: Path) -> Replay:
    """``await replay(path, registry=None)``: replay one transcript (with the shipped flows
    behind ``TRANSCRIBED_MENU``, or ``registry``); ``TranscriptMismatch`` at the first line
    that differs."""

    async def run(path: Path, *, registry: FlowRegistry | None = None) -> None:
        transcript = load_transcript(path)
        setup = demo_setup(transcript.setup, source=str(path), base_dir=path.parent)
        clock = FakeClock()
        keys = (f"demo-key-{n:04d}" for n in itertools.count(1))
        options = DemoOptions(
            scenario=setup.scenario,
            data_dir=tmp_path,
            stale=setup.stale,
            first_flow=setup.flow,
            clock=clock,
            sleep=clock.sleep,
            new_idempotency_key=lambda: next(keys),
            registry=registry if registry is not None else default_registry(menu=TRANSCRIBED_MENU),
            photo_dir=write_photo_files(tmp_path / "files"),
            language=setup.language,
        )
        async with DemoStack(options) as demo:
            await run_transcript(transcript, demo, screen=demo.screen.take())

    return run
