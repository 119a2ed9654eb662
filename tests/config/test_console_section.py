"""``[console]``: off by default; on, it needs the public host; links and sessions within their
bounds; admins and dispatchers are operators' own accounts, each in one role. Every refusal is
one line naming its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.chat_ref import UserRef
from bot.config import Config, ConfigError, load_config
from bot.settings import CoreSettings

TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"
PUBLIC = 'public_base_url = "https://bot.example.com"\n'


def _config(tmp_path: Path, console: str, *, server: str = PUBLIC) -> Config:
    text = (
        '[partner]\nbase_url = "https://app.example.com/api/v1"\napi_key = "sk_live_x0123456789"\n'
        f'[telegram]\ntoken = "{TOKEN}"\n[server]\n{server}[operators]\nchat_ids = [-100500]\n'
        f"[console]\n{console}\n"
    )
    file = tmp_path / "config.toml"
    file.write_text(text, encoding="utf-8")
    return load_config(file)


def _problems(tmp_path: Path, console: str, *, server: str = PUBLIC) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        _config(tmp_path, console, server=server)
    return raised.value.problems


def test_off_by_default_with_the_documented_times(tmp_path: Path) -> None:
    console = _config(tmp_path, "", server="").console
    assert not console.enabled
    assert (console.link_minutes, console.idle_minutes, console.session_hours) == (10, 30, 12)
    assert CoreSettings.from_config(_config(tmp_path, "")).console == console


def test_roles_come_from_the_accounts_listed_any_other_operator_is_a_viewer(
    tmp_path: Path,
) -> None:
    config = _config(
        tmp_path, 'enabled = true\nadmins = ["telegram:1900"]\ndispatchers = [1901, "telegram:7"]'
    )
    console = config.console
    assert console.role_of(UserRef("telegram", 1900)) == "admin"
    assert console.role_of(UserRef("telegram", 1901)) == "dispatcher"
    assert console.role_of(UserRef("telegram", 7)) == "dispatcher"
    assert console.role_of(UserRef("telegram", 1902)) == "viewer"
    assert console.role_of(UserRef("console", 1900)) == "viewer"  # another channel's account


def test_on_without_a_public_host_is_refused_naming_the_key(tmp_path: Path) -> None:
    assert _problems(tmp_path, "enabled = true", server="") == [
        "[console] enabled: needs [server] public_base_url: the console and its sign-in links "
        "are served on the bot's public https host"
    ]


@pytest.mark.parametrize(
    ("console", "problem"),
    [
        ("link_minutes = 0", "[console] link_minutes: must be greater than or equal to 1"),
        ("link_minutes = 61", "[console] link_minutes: must be less than or equal to 60"),
        ("idle_minutes = 0", "[console] idle_minutes: must be greater than or equal to 1"),
        ("session_hours = 0", "[console] session_hours: must be greater than or equal to 1"),
        (
            'admins = ["telegram:-100500"]',
            "[console] admins[0]: -100500 is a group's id: name the person's account",
        ),
        ('admins = [1900, "telegram:1900"]', "[console] admins[1]: listed twice"),
        ('dispatchers = ["nobody"]', "[console] dispatchers[0]: 'nobody' is not a chat"),
        (
            'admins = [1900]\ndispatchers = ["telegram:1900"]',
            "[console] dispatchers[0]: telegram:1900 is in admins too",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_its_key(tmp_path: Path, console: str, problem: str) -> None:
    (line,) = _problems(tmp_path, f"enabled = true\n{console}")
    assert line.startswith(problem), line
