"""bot.cli: the deliverybot command and its check-config subcommand."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.store.pg_local_server import LocalPostgres, free_loopback_port

API_KEY = "sk_live_CLIkey0123456789abcdef"
BOT_TOKEN = "987654321:AAGcliSECRETtokenVALUE0123456789abcd"
SIGNING_SECRET = "whsec_CLIsigningSECRET0123456789"
SECRET_TOKEN = "cli-SECRET-token-0123456789"
EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.toml"

WEBHOOK_MODE = f"""
[partner]
base_url = "https://app.example.com/api/v1"
api_key_env = "CLI_TEST_API_KEY"

[telegram]
token = "{BOT_TOKEN}"
mode = "webhook"
secret_token_env = "CLI_TEST_SECRET_TOKEN"

[server]
public_base_url = "https://bot.example.com"

[webhooks]
enabled = true
signing_secret = "{SIGNING_SECRET}"
path = "/hooks/partner"

[operators]
chat_ids = [42]

[storage]
path = "/var/lib/deliverybot/deliverybot.sqlite3"
media_dir = "/var/lib/deliverybot/media"
"""


@pytest.fixture
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLI_TEST_API_KEY", API_KEY)
    monkeypatch.setenv("CLI_TEST_SECRET_TOKEN", SECRET_TOKEN)
    file = tmp_path / "bot.toml"
    file.write_text(WEBHOOK_MODE, encoding="utf-8")
    return file


def test_check_config_prints_the_settings_with_secrets_redacted(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", str(config_file)]) == 0

    out, err = capsys.readouterr()
    assert out.startswith(f"# {config_file}: valid. Effective settings, secrets redacted:\n")
    assert (
        '\napi_key = "sk_live_…(redacted)"  # from environment variable CLI_TEST_API_KEY\n' in out
    )
    assert '\ntoken = "***"  # from this file\n' in out
    assert '\nsecret_token = "***"  # from environment variable CLI_TEST_SECRET_TOKEN\n' in out
    assert '\nsigning_secret = "whsec_…(redacted)"  # from this file\n' in out
    assert "\nread_timeout = 20.0\n" in out
    assert out.endswith(
        "# Register this webhook endpoint in the dashboard: https://bot.example.com/hooks/partner\n"
    )
    assert err == ""
    for secret in (API_KEY, BOT_TOKEN, SIGNING_SECRET, SECRET_TOKEN):
        assert secret not in out + err


def test_check_config_warns_on_stderr_and_still_succeeds(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.write_text(WEBHOOK_MODE.replace("chat_ids = [42]", "chat_ids = []"))

    assert main(["check-config", str(config_file)]) == 0

    assert capsys.readouterr().err.splitlines() == [
        "warning: [operators] chat_ids: empty: nobody may use operator commands, and event "
        "summaries and agent notes go nowhere"
    ]


def test_check_config_lists_problems_on_stderr_and_exits_2(
    config_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CLI_TEST_API_KEY")
    config_file.write_text(WEBHOOK_MODE.replace('path = "/hooks/partner"', 'pth = "/hooks"'))

    assert main(["check-config", str(config_file)]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "[partner] api_key: environment variable CLI_TEST_API_KEY (named by api_key_env) is "
        "empty or not set",
        "[webhooks] pth: unknown key (did you mean path?)",
    ]
    assert BOT_TOKEN not in err and SIGNING_SECRET not in err


def test_check_config_reports_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", str(tmp_path / "absent.toml")]) == 2
    assert capsys.readouterr().err == f"{tmp_path / 'absent.toml'}: file not found\n"


def test_check_config_reports_toml_syntax_with_its_position(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.write_text('[partner]\nbase_url = "https://app.example.com/api/v1\n')

    assert main(["check-config", str(config_file)]) == 2
    assert capsys.readouterr().err == (
        f"{config_file}:2:43: invalid TOML: Illegal character '\\n'\n"
    )


def test_the_example_file_checks_when_its_variables_are_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DELIVERYBOT_PARTNER_API_KEY", API_KEY)
    monkeypatch.setenv("DELIVERYBOT_TELEGRAM_TOKEN", BOT_TOKEN)

    assert main(["check-config", str(EXAMPLE)]) == 0

    out, err = capsys.readouterr()
    assert "[relay.operators]" in out
    assert all(line.startswith("warning: ") for line in err.splitlines())
    assert API_KEY not in out + err and BOT_TOKEN not in out + err


def test_the_example_file_names_the_missing_variables(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DELIVERYBOT_PARTNER_API_KEY", raising=False)
    monkeypatch.delenv("DELIVERYBOT_TELEGRAM_TOKEN", raising=False)

    assert main(["check-config", str(EXAMPLE)]) == 2

    assert [line.split(" (named by")[0] for line in capsys.readouterr().err.splitlines()] == [
        "[partner] api_key: environment variable DELIVERYBOT_PARTNER_API_KEY",
        "[telegram] token: environment variable DELIVERYBOT_TELEGRAM_TOKEN",
    ]


@pytest.mark.parametrize(
    ("argv", "exit_code", "stream", "expected"),
    [
        ([], 2, "err", "the following arguments are required: COMMAND"),
        (["launch"], 2, "err", "invalid choice: 'launch'"),
        (["check-config"], 2, "err", "as PATH or --config FILE"),
        (["--help"], 0, "out", "check-config"),
        (["--version"], 0, "out", "deliverybot "),
    ],
)
def test_usage(
    argv: list[str],
    exit_code: int,
    stream: str,
    expected: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(argv) == exit_code
    captured = capsys.readouterr()
    assert expected in (captured.out if stream == "out" else captured.err)


def test_every_registered_command_has_a_handler() -> None:
    parser = build_parser()
    args = parser.parse_args(["check-config", "x.toml"])
    assert callable(args.run)
    assert args.path == Path("x.toml")


def test_python_dash_m_bot_runs_the_same_command(tmp_path: Path) -> None:
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [sys.executable, "-m", "bot", "check-config", str(tmp_path / "absent.toml")],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"{tmp_path / 'absent.toml'}: file not found\n"


def test_importing_the_bot_leaves_the_environment_alone() -> None:
    code = (
        "import os; before = dict(os.environ); "
        "import bot.cli, bot.demo, bot.runtime, bot.telegram.message_sender; "
        "print(dict(os.environ) == before)"
    )
    env = {name: value for name, value in os.environ.items() if name != "PTB_TIMEDELTA"}
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "True\n", "")


def test_run_opts_in_to_ptb_timedeltas_before_anything_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PTB_TIMEDELTA")
    bad = tmp_path / "bot.toml"
    bad.write_text('[partner]\nbase_url = "ftp://nowhere"\n')

    assert main(["run", "--config", str(bad)]) == 2
    assert os.environ["PTB_TIMEDELTA"] == "true"  # monkeypatch puts the session's value back


def test_sandbox_refuses_a_bad_scenario_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "scenario.toml"
    scenario.write_text("[org\n", encoding="utf-8")
    assert main(["sandbox", "--scenario", str(scenario)]) == 2
    assert "scenario.toml" in capsys.readouterr().err


def test_sandbox_only_listens_on_loopback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sandbox", "--host", "0.0.0.0", "--port", "0"]) == 2  # noqa: S104
    assert "loopback" in capsys.readouterr().err


def with_postgres(config_file: Path, dsn: str) -> Path:
    config_file.write_text(
        WEBHOOK_MODE + f'backend = "postgres"\n\n[storage.postgres]\ndsn = "{dsn}"\n',
        encoding="utf-8",
    )
    return config_file


def test_check_config_connect_reaches_the_database(
    config_file: Path, postgres_server: LocalPostgres, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = postgres_server.dsn().replace("deliverybot@", "deliverybot:unused-pw@")
    assert main(["check-config", "--connect", str(with_postgres(config_file, dsn))]) == 0
    out, err = capsys.readouterr()
    reached = f"# storage: connected to postgresql://127.0.0.1:{postgres_server.port}/postgres"
    assert reached + " (PostgreSQL " in out
    assert "unused-pw" not in out + err


def test_check_config_connect_fails_naming_the_key_and_not_the_password(
    config_file: Path, postgres_server: LocalPostgres, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = f"postgresql://nobody:pg-s3cret@127.0.0.1:{postgres_server.port}/postgres"
    assert main(["check-config", "--connect", str(with_postgres(config_file, dsn))]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("storage.postgres.dsn: cannot connect to postgresql://127.0.0.1:")
    assert "nobody" in err  # the server's own reason: no such role
    assert "pg-s3cret" not in out + err


def test_check_config_connect_with_sqlite_has_nothing_to_reach(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", "--connect", str(config_file)]) == 0
    assert "nothing to connect to" in capsys.readouterr().out


def test_check_config_takes_config_like_every_command(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", "--config", str(config_file)]) == 0
    assert capsys.readouterr().out.startswith(f"# {config_file}: valid.")
    assert main(["check-config", str(config_file)]) == 0  # the positional form still works
    assert capsys.readouterr().out.startswith(f"# {config_file}: valid.")

    for neither_or_both in ([], [str(config_file), "--config", str(config_file)]):
        assert main(["check-config", *neither_or_both]) == 2
        assert capsys.readouterr().err == (
            "check-config: give the configuration file once, as PATH or --config FILE\n"
        )


def _commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command of ``parser`` with no subcommands of its own (``customers block``...)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                inner = list(_commands(command, f"{prefix}{name} "))
                yield from inner or [(f"{prefix}{name}", command)]


def test_every_command_that_reads_a_config_takes_config() -> None:
    # The commands that read no configuration: the sandbox and the demo make their own.
    without = {"sandbox", "demo"}
    commands = dict(_commands(build_parser()))
    assert "check-config" in commands and "customers block" in commands
    for name, command in commands.items():
        options = {option for action in command._actions for option in action.option_strings}
        assert ("--config" in options) == (name not in without), name


AGENTS_ONLY = f"""
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "{API_KEY}"

[telegram]
listen_port = {{web_port}}

[[agents.channels]]
name = "shop"
key = "shop-agent-key-0123456789abcdef"

[storage]
path = "{{dir}}/bot.sqlite3"
media_dir = "{{dir}}/media"

[metrics]
enabled = true
listen_port = {{metrics_port}}
"""


@pytest.mark.parametrize("busy", ["[telegram]", "[metrics]"])
def test_run_names_the_busy_port_and_its_key(tmp_path: Path, busy: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ports = {"[telegram]": free_loopback_port(), "[metrics]": free_loopback_port()}
        ports[busy] = port
        config = tmp_path / "bot.toml"
        text = AGENTS_ONLY.format(
            dir=tmp_path, web_port=ports["[telegram]"], metrics_port=ports["[metrics]"]
        )
        config.write_text(text, encoding="utf-8")
        ran = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
            [sys.executable, "-m", "bot", "run", "--config", str(config)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert ran.returncode == 1, ran.stderr
    assert ran.stderr.splitlines()[-1] == (
        f"run: {busy} listen_port: port {port} on 127.0.0.1 is already in use (another "
        "program, or another deliverybot, listens there): stop it or choose another port"
    )
