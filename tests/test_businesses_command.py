"""``deliverybot businesses add|remove|list|check`` and ``check-config`` on a host file: the
directory changed only by whole files, every problem naming its file and key, no secret shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.config.host_texts import business_secrets, business_text, make_host


@pytest.fixture
def host(tmp_path: Path) -> Path:
    return make_host(tmp_path / "host", {"shop": business_text(1, whatsapp=True)})


def business_file(tmp_path: Path, n: int, name: str = "cafe", **shared: str) -> Path:
    file = tmp_path / f"{name}.toml"
    file.write_text(business_text(n, **shared), encoding="utf-8")
    return file


def test_add_copies_a_checked_file_in_and_says_a_second_add_is_a_change(
    host: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = business_file(tmp_path, 2)
    target = host.parent / "businesses" / "cafe.toml"
    assert main(["businesses", "--config", str(host), "add", str(file)]) == 0
    assert target.read_bytes() == file.read_bytes()
    assert capsys.readouterr().out.startswith(f"added cafe: {target}")
    assert main(["businesses", "add", "--config", str(host), str(file)]) == 0  # either place
    assert capsys.readouterr().out.startswith(f"cafe: unchanged ({target} already holds")
    file.write_text(business_text(2).replace("[1002]", "[5]"), encoding="utf-8")
    assert main(["businesses", "--config", str(host), "add", str(file)]) == 0
    assert capsys.readouterr().out.startswith(f"changed cafe: {target} replaced")
    assert "[5]" in target.read_text(encoding="utf-8")
    no_scratch_left = sorted(path.name for path in target.parent.iterdir())
    assert no_scratch_left == ["cafe.toml", "shop.toml"]


def test_add_takes_the_name_given(host: Path, tmp_path: Path) -> None:
    file = business_file(tmp_path, 2, name="draft")
    assert main(["businesses", "--config", str(host), "add", "--name", "corner", str(file)]) == 0
    assert (host.parent / "businesses" / "corner.toml").is_file()


def test_add_refuses_a_secret_another_business_has_naming_both_files_and_not_the_secret(
    host: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api_key = business_secrets(1)["api_key"]
    file = business_file(tmp_path, 2, api_key=api_key)
    assert main(["businesses", "--config", str(host), "add", str(file)]) == 2
    shop = host.parent / "businesses" / "shop.toml"
    captured = capsys.readouterr()
    assert captured.err == (
        f"{file}: [partner] api_key: the same as {shop}'s [partner] api_key: each business "
        "has its own Partner API key (compared by hash; not shown)\n"
    )
    assert api_key not in captured.out + captured.err
    assert not (host.parent / "businesses" / "cafe.toml").exists()


def test_add_refuses_a_broken_file_and_a_bad_name(
    host: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "cafe.toml"
    file.write_text(business_text(2) + '\n[logging]\nlevel = "DEBUG"\n', encoding="utf-8")
    assert main(["businesses", "--config", str(host), "add", "--name", "Cafe_1", str(file)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{file}: 'Cafe_1' is not a business name: 1 to 40 characters of a-z, 0-9 and -, "
        "starting with a-z (no _)",
        f"{file}: [logging]: set by the host file (host.toml), not a business file",
    ]
    assert sorted(path.name for path in (host.parent / "businesses").iterdir()) == ["shop.toml"]


def test_a_change_is_checked_against_the_others_but_not_its_own_old_file(
    host: Path, tmp_path: Path
) -> None:
    # The new shop.toml keeps its own token: no duplicate with the file it replaces.
    file = tmp_path / "shop.toml"
    file.write_text(business_text(1).replace("[1001]", "[6]"), encoding="utf-8")
    assert main(["businesses", "--config", str(host), "add", str(file)]) == 0


def test_remove_keeps_the_file_under_removed_and_refuses_an_unknown_name(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = host.parent / "businesses"
    assert main(["businesses", "--config", str(host), "remove", "shop"]) == 0
    (kept,) = (directory / ".removed").iterdir()
    assert kept.name.startswith("shop.") and kept.name.endswith("Z.toml")
    assert "[whatsapp]" in kept.read_text(encoding="utf-8")
    assert not (directory / "shop.toml").exists()
    assert capsys.readouterr().out.startswith(f"removed shop: its file is kept as {kept}")
    for name in ("shop", "../host", ".removed"):
        assert main(["businesses", "--config", str(host), "remove", name]) == 2
        assert f"no business {name!r} in {directory}" in capsys.readouterr().err


def test_list_says_each_business_its_channels_and_why_one_is_refused(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = host.parent / "businesses" / "cafe.toml"
    broken.write_text(business_text(2).replace("api_key", "apikey"), encoding="utf-8")
    assert main(["businesses", "--config", str(host), "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(row["name"], row["ok"], row["channels"]) for row in rows] == [
        ("cafe", False, []),
        ("shop", True, ["telegram", "whatsapp", "agents:shop"]),
    ]
    assert f"{broken}: [partner] apikey: unknown key (did you mean api_key?)" in rows[0]["problems"]
    assert main(["businesses", "--config", str(host), "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"cafe  {broken}  -  refused"
    assert out[-1] == f"shop  {broken.with_name('shop.toml')}  telegram, whatsapp, agents:shop  ok"


def test_check_config_on_a_host_checks_every_business_and_prints_their_addresses(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", str(host)]) == 0
    captured = capsys.readouterr()
    assert "[host]\nbusinesses_dir = " in captured.out
    assert "# 1 businesses in " in captured.out and ": 1 ready, 0 refused" in captured.out
    assert "register this webhook endpoint in its dashboard: " in captured.out
    assert "https://host.example.com/b/shop/hooks/partner" in captured.out
    assert "its Meta app's WhatsApp callback URL: https://host.example.com/b/shop/whatsapp" in (
        captured.out
    )
    for secret in business_secrets(1).values():
        assert secret not in captured.out + captured.err
    assert main(["businesses", "--config", str(host), "check"]) == 0
    assert capsys.readouterr().out == captured.out


def test_check_config_exits_1_naming_each_broken_business_and_2_for_a_broken_host(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cafe = host.parent / "businesses" / "cafe.toml"
    cafe.write_text(business_text(2, token=business_secrets(1)["token"]), encoding="utf-8")
    assert main(["check-config", str(host)]) == 1
    problems = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert [line.split(": the same as")[0] for line in problems] == [
        f"{cafe}: [telegram] token",
        f"{cafe.with_name('shop.toml')}: [telegram] token",
    ]
    host.write_text(host.read_text(encoding="utf-8") + "\n[partner]\n", encoding="utf-8")
    assert main(["check-config", str(host)]) == 2
    assert capsys.readouterr().err.startswith(f"{host}: [partner]: belongs in a business file")


def test_the_command_needs_a_host_file_given_once(
    host: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["businesses", "list"]) == 2
    assert "give the host file once, as --config FILE" in capsys.readouterr().err
    single = tmp_path / "bot.toml"
    single.write_text(
        business_text(3) + '\n[server]\npublic_base_url = "https://bot.example.com"\n',
        encoding="utf-8",
    )
    assert main(["businesses", "--config", str(single), "list"]) == 2
    assert "is a single-business file (no [host] table)" in capsys.readouterr().err
