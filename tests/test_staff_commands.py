"""``deliverybot staff invite|list|signout`` over the config's SQLite store: a link printed that
opens one session, the members listed without a token, a member signed out everywhere, and
clear refusals (console off, a bad name, an unknown or ambiguous one) that change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from bot.chat_ref import UserRef
from bot.cli import main
from bot.config import load_config
from bot.staff.staff_door import SIGN_IN_PATH, SignedIn, StaffDoor
from bot.store import LinkRefusal, Store
from tests.support.words import say

T = TypeVar("T")
PUBLIC = "https://bot.example.com"
CONFIG = f"""
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_STAFFkey0123456789abcdef"

[telegram]
token = "987654321:AAGstaffSECRETtokenVALUE0123456789abc"
mode = "polling"

[server]
public_base_url = "{PUBLIC}"

[storage]
path = "bot.sqlite3"

[console]
enabled = true
"""


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    file = tmp_path / "bot.toml"
    file.write_text(CONFIG, encoding="utf-8")
    return file


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _on_the_store(config_file: Path, work: Callable[[StaffDoor, Store], Awaitable[T]]) -> T:
    """Run ``work(door, store)`` on the config's store, as the bot would."""
    config = load_config(config_file)

    async def go() -> T:
        async with Store.open(config.storage.path) as store:
            door = StaffDoor(store, config.console, PUBLIC, clock=store.clock)
            return await work(door, store)

    return asyncio.run(go())


def test_an_invited_member_signs_in_once_is_listed_and_signed_out_everywhere(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ("--config", str(config_file))
    assert run(capsys, "staff", "list", *config) == (0, say("staff.none") + "\n", "")

    code, out, err = run(capsys, "staff", "invite", *config, " Bola Ahmed ", "--role", "dispatcher")
    assert (code, err) == (0, "")
    link = out.rstrip("\n").rsplit("\n", 1)[-1]
    assert link.startswith(PUBLIC + SIGN_IN_PATH)
    role = say("staff.role.dispatcher")
    assert out == say("staff.invited", name="Bola Ahmed", role=role, minutes=10, link=link) + "\n"
    token = link.removeprefix(PUBLIC + SIGN_IN_PATH)

    async def sign_in(door: StaffDoor, store: Store) -> object:
        return await door.sign_in(token)

    signed = _on_the_store(config_file, sign_in)
    assert isinstance(signed, SignedIn) and signed.member.role == "dispatcher"

    code, out, _ = run(capsys, "staff", "list", *config)
    assert code == 0 and token not in out
    (line,) = out.splitlines()
    assert line.startswith(f"#{signed.member.id}  Bola Ahmed  {role}  ")
    assert say("staff.never_seen") not in line

    code, out, _ = run(capsys, "staff", "signout", *config, "bola ahmed")
    assert (code, out) == (0, say("staff.signed_out", name="Bola Ahmed") + "\n")

    async def session(door: StaffDoor, store: Store) -> object:
        return await door.session(signed.session.token)

    assert _on_the_store(config_file, session) is None

    async def trail(door: StaffDoor, store: Store) -> list[tuple[str, str, str]]:
        return [(e.actor, e.action, e.outcome) for e in await store.audit.since(0)]

    member = f"staff:{signed.member.id}"
    assert _on_the_store(config_file, trail) == [
        ("shell", "console_link", "issued"),
        (member, "console_signin", "done"),
        ("shell", "console_signout", "done"),
    ]


def test_a_name_two_members_share_is_named_by_its_number(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ("--config", str(config_file))

    async def two_adas(door: StaffDoor, store: Store) -> tuple[list[int], str]:
        await door.invite("Ada", "viewer")
        operator = await door.link_for(UserRef("telegram", 1900), "Ada")
        unused = operator.removeprefix(PUBLIC + SIGN_IN_PATH)
        return [member.id for member in await store.staff.members()], unused

    (invited, operator), unused = _on_the_store(config_file, two_adas)

    code, out, err = run(capsys, "staff", "signout", *config, "Ada")
    numbers = f"#{invited}, #{operator}"
    assert (code, out) == (2, "")
    assert err == say("staff.several_named", count=2, name="Ada", numbers=numbers) + "\n"

    code, out, _ = run(capsys, "staff", "signout", *config, f"#{operator}")
    assert (code, out) == (0, say("staff.signed_out", name="Ada") + "\n")

    async def redeem(door: StaffDoor, store: Store) -> object:
        return await door.sign_in(unused)

    assert _on_the_store(config_file, redeem) is LinkRefusal.UNKNOWN  # dropped by the sign-out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("invite", "Line\nbreak", "--role", "admin"), say("staff.bad_name")),
        (("invite", "   ", "--role", "admin"), say("staff.bad_name")),
        (("signout", "Nobody"), say("staff.no_member", name="Nobody")),
        (("signout", "#99"), say("staff.no_member", name="#99")),
    ],
)
def test_a_bad_request_is_refused_in_words_and_changes_nothing(
    config_file: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    action, *rest = argv
    assert run(capsys, "staff", action, "--config", str(config_file), *rest) == (2, "", said + "\n")
    assert run(capsys, "staff", "list", "--config", str(config_file))[1] == say("staff.none") + "\n"


def test_invite_with_the_console_off_says_so(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.write_text(CONFIG.replace("enabled = true", "enabled = false"), encoding="utf-8")
    code, out, err = run(
        capsys, "staff", "invite", "--config", str(config_file), "Bola", "--role", "admin"
    )
    assert (code, out, err) == (2, "", say("staff.console_off") + "\n")


def test_an_unknown_role_is_a_usage_error(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "staff", "invite", "--config", str(config_file), "Bola", "--role", "boss"
    )
    assert code == 2 and "invalid choice: 'boss'" in err
