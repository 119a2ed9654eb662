"""``[channels.<name>]``: a channel's own table, its keys checked by the channel as it starts;
check-config names its keys and never shows their values, and the table counts as a channel
that takes orders."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import load_config
from tests.test_config import DROP, ENV, write

NO_TELEGRAM = {
    "telegram": DROP,
    "server.public_base_url": "https://bot.example.com",
    "operators.chat_ids": ["whatsapp:1"],
}


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():  # the secrets the base file names
        monkeypatch.setenv(name, value)


def test_a_channel_s_table_is_a_channel_that_takes_orders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = {"channels.whatsapp": {"phone_id": "1234", "token": "wa-secret-token-value"}}
    path = write(tmp_path, {**NO_TELEGRAM, **table})
    config = load_config(path)
    assert config.channels == {"whatsapp": {"phone_id": "1234", "token": "wa-secret-token-value"}}

    assert main(["check-config", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "[channels.whatsapp]\n# keys: phone_id, token (checked by the channel when the bot "
        "starts; not shown)" in out
    )
    assert "wa-secret-token-value" not in out


def test_a_table_needs_a_channel_s_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {**NO_TELEGRAM, "channels.WhatsApp": {"phone_id": "1234"}})
    assert main(["check-config", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "[channels.WhatsApp]: is not a channel's name: [a-z][a-z0-9_-]{0,31} expected"
    ]
