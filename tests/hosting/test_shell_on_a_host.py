"""The shell door of a host: ``deliverybot customers``, ``audit``, ``staff`` and ``report``
take ``--business NAME`` on a host file and act on that business's store alone; without it,
or with a name the host does not have, they say which businesses there are and do nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.hosting.host_world import secret_of, token_of

HOST = """
[host]
businesses_dir = "businesses"

[server]
public_base_url = "https://host.example"

[storage]
path = "data/host.sqlite3"
media_dir = "media"
"""


def business(name: str, number: int) -> str:
    return f"""
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_{name}Key0123456789abcdef"

[telegram]
token = "{token_of(number)}"
mode = "webhook"
secret_token = "{secret_of(name)}"

[console]
enabled = true
"""


@pytest.fixture
def host_file(tmp_path: Path) -> Path:
    (tmp_path / "businesses").mkdir()
    for number, name in enumerate(("acme", "globex"), start=1):
        (tmp_path / "businesses" / f"{name}.toml").write_text(business(name, number))
    file = tmp_path / "host.toml"
    file.write_text(HOST)
    return file


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_shell_command_acts_on_the_business_it_names_only(
    host_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    acme = ("--config", str(host_file), "--business", "acme")
    globex = ("--config", str(host_file), "--business", "globex")
    code, _, err = run(capsys, "customers", "block", *acme, "1001", "--reason", "spam")
    assert (code, err) == (0, "")
    code, out, _ = run(capsys, "customers", "list", *acme)
    assert code == 0 and "telegram:1001" in out
    assert run(capsys, "customers", "list", *globex) == (0, "no customer is blocked\n", "")
    code, out, _ = run(capsys, "audit", *globex, "--since", "1h")
    assert code == 0 and "1001" not in out
    code, out, _ = run(capsys, "staff", "invite", *globex, "Bob", "--role", "dispatcher")
    assert code == 0 and "\nhttps://host.example/b/globex/console/signin/" in out
    assert (host_file.parent / "data" / "businesses" / "acme.sqlite3").exists()


def test_a_host_file_needs_a_business_it_has(
    host_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "customers", "list", "--config", str(host_file))
    assert (code, out) == (2, "")
    assert "name one with --business NAME (its businesses: acme, globex)" in err
    unknown = ("--config", str(host_file), "--business", "initech")
    code, _, err = run(capsys, "report", *unknown)
    assert code == 2 and "--business initech: no business of that name" in err
