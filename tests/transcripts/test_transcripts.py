"""Every transcript in this directory, replayed against the in-process stack."""

from __future__ import annotations

from pathlib import Path

import pytest

TRANSCRIPTS = sorted(Path(__file__).parent.glob("*.txt"))


def test_there_are_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 20


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda path: path.stem)
async def test_transcript(replay, path: Path) -> None:
    await replay(path)
