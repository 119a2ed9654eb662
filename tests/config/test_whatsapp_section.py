"""``[whatsapp]``: off when absent; on, every key checked and named with what is wrong, its
secrets from the environment and never shown, the public host required, and check-config
printing the callback URL to type into the Meta app."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Config, ConfigError, load_config
from bot.config.redaction import render_redacted

TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"
PUBLIC = 'public_base_url = "https://bot.example.com"\n'
ACCESS = "EAAGaccesstokenvalue0123456789"
SECRET = "0123456789abcdef0123456789abcdef"
VERIFY = "verify-token-chosen"
ENV = {"WA_ACCESS": ACCESS, "WA_SECRET": SECRET, "WA_VERIFY": VERIFY}
ON = (
    'phone_number_id = "106540352242922"\naccess_token_env = "WA_ACCESS"\n'
    'app_secret_env = "WA_SECRET"\nverify_token_env = "WA_VERIFY"\n'
)


def _write(tmp_path: Path, whatsapp: str, *, server: str = PUBLIC, telegram: bool = True) -> Path:
    text = (
        '[partner]\nbase_url = "https://app.example.com/api/v1"\napi_key = "sk_live_x0123456789"\n'
        + (f'[telegram]\ntoken = "{TOKEN}"\n' if telegram else "")
        + f"[server]\n{server}[operators]\nchat_ids = [-100500]\n[whatsapp]\n{whatsapp}\n"
    )
    file = tmp_path / "config.toml"
    file.write_text(text, encoding="utf-8")
    return file


def _config(tmp_path: Path, whatsapp: str, **kwargs: object) -> Config:
    return load_config(_write(tmp_path, whatsapp, **kwargs), environ=ENV)  # type: ignore[arg-type]


def _problems(tmp_path: Path, whatsapp: str, **kwargs: object) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        _config(tmp_path, whatsapp, **kwargs)
    return raised.value.problems


def test_absent_it_is_off_with_the_default_templates(tmp_path: Path) -> None:
    whatsapp = _config(tmp_path, "").whatsapp
    assert not whatsapp.configured
    assert (whatsapp.templates.news.name, whatsapp.templates.reply.name) == (
        "delivery_update",
        "support_reply",
    )


def test_on_its_secrets_come_from_the_environment_and_are_shown_redacted(tmp_path: Path) -> None:
    config = _config(tmp_path, ON)
    assert config.whatsapp.configured
    assert config.whatsapp.app_secret is not None
    assert config.whatsapp.app_secret.get_secret_value() == SECRET
    assert config.whatsapp_webhook_url() == "https://bot.example.com/whatsapp"
    shown = render_redacted(config)
    assert 'app_secret = "***"  # from environment variable WA_SECRET' in shown
    for secret in ENV.values():
        assert secret not in shown


def test_whatsapp_alone_takes_orders(tmp_path: Path) -> None:
    alone = _config(tmp_path, ON, telegram=False)
    assert alone.whatsapp.configured
    assert alone.warnings()[0].startswith(
        "[telegram] token: not set: orders come only through WhatsApp and [[agents.channels]];"
    )
    assert any("no channel takes orders" in p for p in _problems(tmp_path, "", telegram=False))


def test_on_without_a_public_host_is_refused_naming_the_key(tmp_path: Path) -> None:
    assert _problems(tmp_path, ON, server="") == [
        "[whatsapp] phone_number_id: needs [server] public_base_url: Meta posts the customers' "
        "messages to its https host at /whatsapp"
    ]


@pytest.mark.parametrize(
    ("whatsapp", "problem"),
    [
        (
            'phone_number_id = "106540352242922"',
            "[whatsapp] access_token: required when phone_number_id is set: set access_token_env",
        ),
        (
            'phone_number_id = "+234 800"',
            "[whatsapp] phone_number_id: must be the number's id from the Meta app's",
        ),
        (
            ON.replace('"WA_SECRET"', '"WA_NONE"'),
            "[whatsapp] app_secret: environment variable WA_NONE",
        ),
        (ON + f'access_token = "{ACCESS}"', "[whatsapp] access_token: give either access_token or"),
        (
            ON.replace('app_secret_env = "WA_SECRET"', 'app_secret = "not-hex"'),
            "[whatsapp] app_secret: must be the app secret from the Meta app's Settings > Basic",
        ),
        (
            ON.replace('verify_token_env = "WA_VERIFY"', 'verify_token = "short"'),
            "[whatsapp] verify_token: must be 8 to 256 characters",
        ),
        (
            ON + 'graph_api_version = "21"',
            "[whatsapp] graph_api_version: must be a Graph API version",
        ),
        (
            ON + 'graph_api_base_url = "http://graph.example.com"',
            "[whatsapp] graph_api_base_url: plain http only for",
        ),
        (
            ON + '[whatsapp.templates.news]\nname = "Delivery Update"',
            "[whatsapp.templates.news] name: must be the template's name as submitted",
        ),
        (
            ON + '[whatsapp.templates.reply]\nlanguages = ["english"]',
            "[whatsapp.templates.reply] languages: 'english' is not a language code",
        ),
        (ON + "mystery = 1", "[whatsapp] mystery: "),
    ],
)
def test_a_bad_value_is_a_line_naming_its_key(tmp_path: Path, whatsapp: str, problem: str) -> None:
    lines = _problems(tmp_path, whatsapp)
    assert any(line.startswith(problem) for line in lines), lines
    for line in lines:
        assert line.startswith("[whatsapp"), line
        for secret in ENV.values():
            assert secret not in line


def test_warnings_name_a_secret_set_for_no_number_and_a_local_graph_api(tmp_path: Path) -> None:
    unused = _config(tmp_path, f'verify_token = "{VERIFY}"')
    assert "[whatsapp] verify_token: ignored while phone_number_id is not set" in " ".join(
        unused.warnings()
    )
    local = _config(tmp_path, ON + 'graph_api_base_url = "http://127.0.0.1:8081"')
    assert any(
        w.startswith("[whatsapp] graph_api_base_url: a loopback host") for w in local.warnings()
    )


def test_check_config_prints_the_callback_url_and_no_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    assert main(["check-config", str(_write(tmp_path, ON))]) == 0
    out = capsys.readouterr().out
    assert "Meta app's WhatsApp webhook: https://bot.example.com/whatsapp" in out
    for secret in ENV.values():
        assert secret not in out
