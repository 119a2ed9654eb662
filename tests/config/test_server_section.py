"""``[server]``: the web server's keys, and the older files that write them under ``[telegram]``:
still read, noted by ``check-config`` with the old key and the new one, never both at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.config import load_config
from bot.config.server_section import MOVED_FROM_TELEGRAM
from tests.test_config import DROP, ENV, write

OLD_PLACE = {
    "server": DROP,
    "telegram.public_base_url": "https://old.example.com",
    "telegram.listen_host": "10.0.0.11",
    "telegram.listen_port": 9000,
    "telegram.drain_seconds": 0,
}


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():  # the secrets the base file names
        monkeypatch.setenv(name, value)


def test_the_server_keys_have_their_defaults(tmp_path: Path) -> None:
    server = load_config(
        write(tmp_path, {"server": DROP, "telegram.mode": "polling", "webhooks.enabled": False})
    ).server
    assert (server.listen_host, server.listen_port, server.drain_seconds) == (
        "127.0.0.1",
        8080,
        3.0,
    )
    assert server.public_base_url is None


def test_keys_in_their_old_place_still_work_and_are_noted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, OLD_PLACE)
    server = load_config(path).server
    assert (
        server.public_base_url,
        server.listen_host,
        server.listen_port,
        server.drain_seconds,
    ) == (
        "https://old.example.com",
        "10.0.0.11",
        9000,
        0,
    )

    assert main(["check-config", str(path)]) == 0
    out, err = capsys.readouterr()
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert notes == [
        f"note: [telegram] {key} is [server] {key} now: the old place still works; move it "
        "under [server] when you next edit the file"
        for key in MOVED_FROM_TELEGRAM
    ]
    # The effective settings show them where they belong now, and only there.
    assert '[server]\nlisten_host = "10.0.0.11"\nlisten_port = 9000' in out
    telegram = out.split("[telegram]\n")[1].split("\n\n")[0]
    assert not [key for key in MOVED_FROM_TELEGRAM if key in telegram]


def test_a_file_in_the_old_place_dumps_each_key_once_under_server(tmp_path: Path) -> None:
    # What the bot dumps (a test's stack config, a support bundle) must validate again: a web
    # server key dumped in both places would be refused as written twice.
    dumped = json.loads(load_config(write(tmp_path, OLD_PLACE)).model_dump_json())
    assert not [key for key in MOVED_FROM_TELEGRAM if key in dumped["telegram"]]
    assert (dumped["server"]["listen_host"], dumped["server"]["listen_port"]) == ("10.0.0.11", 9000)


def test_a_file_in_the_new_place_gets_no_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", str(write(tmp_path))]) == 0
    assert "note:" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("override", "problem"),
    [
        (
            {"telegram.listen_port": 9000, "server.listen_port": 9001},
            "[telegram] listen_port: is [server] listen_port too (its old place): keep [server] "
            "listen_port only",
        ),
        (
            {"telegram.listen_port": 0},
            "[telegram] listen_port: must be greater than or equal to 1",
        ),
        ({"server.listen_port": 0}, "[server] listen_port: must be greater than or equal to 1"),
        (
            {"server.drain_seconds": "3s"},
            "[server] drain_seconds: must be a valid number (got a string)",
        ),
        (
            {"server": DROP, "telegram.public_base_url": "http://bot.example.com"},
            "[telegram] public_base_url: must be an https URL (plain http only for 127.0.0.1 or "
            "localhost, for local tests)",
        ),
    ],
)
def test_a_bad_value_names_the_key_where_it_was_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], override: dict[str, Any], problem: str
) -> None:
    assert main(["check-config", str(write(tmp_path, override))]) == 2
    assert capsys.readouterr().err.splitlines() == [problem]


def test_the_port_taken_by_metrics_is_named_where_the_file_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    override = {"telegram.listen_port": 9100, "metrics.enabled": True, "metrics.listen_port": 9100}
    assert main(["check-config", str(write(tmp_path, override))]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "[metrics] listen_port: is [telegram] listen_host:listen_port, where the web app listens; "
        "choose another port, or leave listen_port out to serve /metrics on the web app"
    ]
