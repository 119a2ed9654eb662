"""``[metrics]`` and ``[logging]``: defaults, and one problem line per mistake, naming the key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.config import Config, ConfigError, load_config
from bot.runtime.logs import configured_secrets

TOKEN = "scrape-TOKEN-0123456789abcdef"
BASE = """
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_TESTapiKEY0123456789abcdef"

[telegram]
token = "123456789:AAHsecretTOKENvalue0123456789abcdefg"
"""


def _load(tmp_path: Path, extra: str, environ: dict[str, str] | None = None) -> Config:
    path = tmp_path / "bot.toml"
    path.write_text(BASE + extra, encoding="utf-8")
    return load_config(path, environ=environ or {})


def _problems(tmp_path: Path, extra: str) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        _load(tmp_path, extra)
    return raised.value.problems


def test_metrics_are_off_and_logs_are_text_at_info_by_default(tmp_path: Path) -> None:
    config = _load(tmp_path, "")
    assert config.metrics.enabled is False
    assert config.metrics.path == "/metrics"
    assert config.metrics.own_address is False
    assert (config.logging.level, config.logging.format) == ("INFO", "text")


def test_a_token_from_the_environment_guards_the_web_apps_metrics(tmp_path: Path) -> None:
    extra = '[metrics]\nenabled = true\ntoken_env = "SCRAPE_TOKEN"\npath = "/internal/metrics"\n'
    config = _load(tmp_path, extra, environ={"SCRAPE_TOKEN": TOKEN})
    assert config.metrics.token is not None
    assert config.metrics.token.get_secret_value() == TOKEN
    assert TOKEN in configured_secrets(config)  # masked in every log line


def test_an_address_of_their_own_needs_no_token(tmp_path: Path) -> None:
    config = _load(tmp_path, "[metrics]\nenabled = true\nlisten_port = 9464\n")
    assert config.metrics.own_address
    assert config.metrics.token is None


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            "[metrics]\nenabled = true\n",
            "[metrics] token: required when enabled = true, unless listen_port serves /metrics on "
            "an address of its own: set token_env to the name of an environment variable "
            "holding it (or token in the file)",
        ),
        (
            '[metrics]\nenabled = true\ntoken = "short"\n',
            "[metrics] token: must be 16 to 256 characters of A-Z, a-z, 0-9, _ and - "
            "(e.g. openssl rand -hex 24)",
        ),
        (
            f'[metrics]\nenabled = true\ntoken = "{TOKEN}"\npath = "/health"\n',
            "[metrics] path: /health is a route of the bot's web app; choose another path",
        ),
        (
            f'[metrics]\nenabled = true\ntoken = "{TOKEN}"\npath = "/hooks/partner"\n',
            "[metrics] path: is [webhooks] path too; choose another path",
        ),
        (
            "[metrics]\nenabled = true\nlisten_port = 8080\n",
            "[metrics] listen_port: is [server] listen_host:listen_port, where the web app "
            "listens; choose another port, or leave listen_port out to serve /metrics on the "
            "web app",
        ),
        ("[metrics]\nport = 9464\n", "[metrics] port: unknown key"),
        (
            '[logging]\nlevel = "verbose"\n',
            '[logging] level: must be "DEBUG", "INFO", "WARNING" or "ERROR"',
        ),
        ('[logging]\nformat = "xml"\n', '[logging] format: must be "text" or "json"'),
    ],
)
def test_each_mistake_is_one_line_naming_its_key(tmp_path: Path, extra: str, problem: str) -> None:
    problems = _problems(tmp_path, extra)
    assert len(problems) == 1
    assert problems[0].startswith(problem), problems[0]
    assert TOKEN not in problems[0]


def test_check_config_shows_the_sections_and_never_the_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.toml"
    extra: Any = f'[metrics]\nenabled = true\ntoken = "{TOKEN}"\n\n[logging]\nformat = "json"\n'
    path.write_text(BASE + extra, encoding="utf-8")

    assert main(["check-config", str(path)]) == 0

    out = capsys.readouterr().out
    assert '[metrics]\nenabled = true\npath = "/metrics"\ntoken = "***"  # from this file' in out
    assert '[logging]\nlevel = "INFO"\nformat = "json"' in out
    assert TOKEN not in out
