"""The throwaway server the PostgreSQL tests start: found, or a loud error saying what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import pg_local_server
from bot.store.pg_local_server import LocalPostgres, LocalPostgresError, find_bin_dir


def test_missing_server_binaries_are_an_error_that_says_how_to_get_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("PG_BIN_DIR", raising=False)
    monkeypatch.setattr(pg_local_server, "SEARCHED_BIN_DIRS", (tmp_path / "nothing",))
    with pytest.raises(LocalPostgresError, match=r"install the postgresql package"):
        LocalPostgres.start(tmp_path / "server")


def test_pg_bin_dir_names_the_binaries_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for program in ("initdb", "pg_ctl"):
        (tmp_path / program).write_text("#!/bin/sh\n")
    monkeypatch.setenv("PG_BIN_DIR", str(tmp_path))
    assert find_bin_dir() == tmp_path


def test_the_session_server_answers_on_loopback(postgres_server: LocalPostgres) -> None:
    assert (
        postgres_server.dsn("x") == f"postgresql://deliverybot@127.0.0.1:{postgres_server.port}/x"
    )
    assert (postgres_server.data_dir / "PG_VERSION").is_file()
