"""``[server] drain_seconds`` (or its old place, ``[telegram]``): 3 s by default, 0 turns the
drain off, at most 30 s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.config import load_config
from tests.test_config import ENV, write


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():  # the secrets the base file names
        monkeypatch.setenv(name, value)


def test_the_drain_lasts_3_seconds_unless_set(tmp_path: Path) -> None:
    assert load_config(write(tmp_path)).server.drain_seconds == 3.0
    assert load_config(write(tmp_path, {"server.drain_seconds": 0})).server.drain_seconds == 0
    # An older file's, in its old place: still read.
    assert load_config(write(tmp_path, {"telegram.drain_seconds": 0})).server.drain_seconds == 0


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (-1, "must be greater than or equal to 0"),
        (31, "must be less than or equal to 30"),
        ("3s", "must be a valid number (got a string)"),
    ],
)
def test_a_bad_drain_is_one_problem_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: Any, problem: str
) -> None:
    exit_code = main(["check-config", str(write(tmp_path, {"telegram.drain_seconds": value}))])

    assert (exit_code, capsys.readouterr().err.splitlines()) == (
        2,
        [f"[telegram] drain_seconds: {problem}"],
    )
