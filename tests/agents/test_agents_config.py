"""``[agents]`` in the TOML file: channels, their keys (hash, environment, file) and webhooks."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import ConfigError, key_hash, load_config
from bot.settings import CoreSettings
from tests.test_config import DROP, ENV, write

KEY = "shop-key-0123456789abcdef0123"
HOOK_SECRET = "hook-secret-0123456789abcdef01"
VOICE_KEY = "voice-key-0123456789abcdef012"
TWO_CHANNELS = f"""
[[agents.channels]]
name = "shop"
key_env = "SHOP_KEY"
webhook_url = "https://shop.example/events"
webhook_secret = "{HOOK_SECRET}"
requests_per_minute = 30

[[agents.channels]]
name = "voice"
key_sha256 = "{key_hash(VOICE_KEY)}"
"""


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)


def with_agents(tmp_path: Path, text: str) -> Path:
    file = write(tmp_path)
    file.write_text(file.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")
    return file


def test_no_agents_table_means_no_channels(tmp_path: Path) -> None:
    config = load_config(write(tmp_path))
    assert config.agents.configured == []
    assert CoreSettings.from_config(config).agents is None


def test_channels_with_a_hash_an_environment_key_and_a_webhook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHOP_KEY", KEY)
    file = with_agents(
        tmp_path,
        TWO_CHANNELS,
    )
    config = load_config(file)
    settings = CoreSettings.from_config(config).agents
    assert settings is not None
    assert [(c.name, c.key_sha256, c.requests_per_minute) for c in settings.channels] == [
        ("shop", key_hash(KEY), 30),
        ("voice", key_hash("voice-key-0123456789abcdef012"), 120),
    ]
    assert settings.hooks["shop"].url == "https://shop.example/events"
    assert KEY not in repr(config) and HOOK_SECRET not in repr(settings.hooks)


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ('name = "Shop App"\nkey = "' + KEY + '"', "[agents] channels[0][name]: must be 1 to 40"),
        ('name = "shop"', "give exactly one of key_sha256, key_env or key"),
        ('name = "shop"\nkey = "short"', "must be 24 to 128 characters"),
        ('name = "shop"\nkey_sha256 = "abc"', "must be 64 lower-case hex digits"),
        (
            'name = "shop"\nkey = "' + KEY + '"\nwebhook_url = "http://shop.example/e"',
            "[webhook_url]: must be https",
        ),
        (
            'name = "shop"\nkey = "' + KEY + '"\nwebhook_url = "https://shop.example/e"',
            "[webhook_secret]: required when webhook_url is set",
        ),
    ],
)
def test_a_bad_channel_is_named_by_its_key(tmp_path: Path, table: str, problem: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(with_agents(tmp_path, f"[[agents.channels]]\n{table}\n"))
    assert any(problem in line for line in raised.value.problems), raised.value.problems
    assert all(KEY not in line for line in raised.value.problems)


def test_two_channels_may_not_share_a_name_or_a_key(tmp_path: Path) -> None:
    table = f'[[agents.channels]]\nname = "shop"\nkey = "{KEY}"\n'
    with pytest.raises(ConfigError) as raised:
        load_config(with_agents(tmp_path, table + "\n" + table))
    lines = "\n".join(raised.value.problems)
    assert "another channel has this name" in lines
    assert "another channel has the same key" in lines


def test_agent_channels_alone_need_no_telegram_token(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        {
            "telegram.token_env": DROP,
            "telegram.secret_token_env": DROP,
            "telegram.mode": "polling",
            "telegram.listen_port": 8090,
            "webhooks.enabled": False,
            "webhooks.signing_secret": DROP,
            "operators.chat_ids": [42],
        },
    )
    file.write_text(
        file.read_text(encoding="utf-8")
        + f'\n[[agents.channels]]\nname = "shop"\nkey_sha256 = "{key_hash(KEY)}"\n',
        encoding="utf-8",
    )
    config = load_config(file)
    assert not config.has_telegram and config.telegram.listen_port == 8090
    warnings = config.warnings()
    assert warnings[0].startswith("[telegram] token: not set: orders come only through")
    assert "keep OTP via webhook only switched off" in warnings[1]
    assert "[operators] chat_ids: Telegram chats, not reached" in warnings[2]


def test_webhook_mode_still_needs_the_token_with_agent_channels(tmp_path: Path) -> None:
    file = with_agents(tmp_path, f'[[agents.channels]]\nname = "shop"\nkey = "{KEY}"\n')
    text = file.read_text(encoding="utf-8").replace('token_env = "TEST_BOT_TOKEN"\n', "", 1)
    file.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(file)
    assert raised.value.problems[0].startswith('[telegram] token: required when mode = "webhook"')


def test_check_config_prints_the_channels_as_toml_with_the_keys_redacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SHOP_KEY", KEY)
    file = with_agents(
        tmp_path,
        TWO_CHANNELS,
    )
    assert main(["check-config", str(file)]) == 0
    printed = capsys.readouterr().out
    assert KEY not in printed and HOOK_SECRET not in printed
    assert "SecretStr" not in printed and "name='shop'" not in printed
    channels = tomllib.loads(printed)["agents"]["channels"]
    assert [channel["name"] for channel in channels] == ["shop", "voice"]
    assert channels[0]["key"] == channels[0]["webhook_secret"] == "***"
    assert channels[1]["key_sha256"] == key_hash("voice-key-0123456789abcdef012")
    assert '\nkey = "***"  # from environment variable SHOP_KEY' in printed
