"""Fixtures for the demo tests: a DemoStack on a fake clock in tmp_path, and script files."""

from __future__ import annotations

import struct
import zlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.demo import DemoOptions, DemoStack
from bot.demo.transports import set_path
from bot.sandbox import default_scenario_data, parse_scenario
from tests.support.clock import FakeClock


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
        + chunk(b"IEND", b"")
    )


MakeStack = Callable[..., DemoStack]


@pytest.fixture
def photo_dir(tmp_path: Path) -> Path:
    files = tmp_path / "files"
    files.mkdir()
    (files / "parcel.png").write_bytes(tiny_png())
    return files


@pytest.fixture
async def make_stack(tmp_path: Path, photo_dir: Path) -> AsyncIterator[MakeStack]:
    """``await make_stack(**{"capabilities.pod.enabled": False})`` started, closed after."""
    stacks: list[DemoStack] = []

    async def make(**settings: Any) -> DemoStack:
        data = default_scenario_data()
        for key, value in settings.items():
            set_path(data, key, value)
        clock = FakeClock()
        stack = DemoStack(
            DemoOptions(
                scenario=parse_scenario(data),
                data_dir=tmp_path,
                clock=clock,
                sleep=clock.sleep,
                photo_dir=photo_dir,
            )
        )
        await stack.start()
        stacks.append(stack)
        stack.screen.take()  # the greeting
        return stack

    yield make  # type: ignore[misc]
    for stack in stacks:
        await stack.aclose()


# The default scenario's pickup & delivery, typed line by line up to the summary.
TO_SUMMARY = [
    "1", "location 6.5095 3.3711 Ozone Cinema, Yaba", "1",
    "contact 08031234567 Ada Obi", "Bola Ahmed", "08022223333",
    "Shoes", "1", "parcel.png",
]  # fmt: skip
