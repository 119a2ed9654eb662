"""What the quick commands import: ``--help``, ``--version`` and ``check-config`` stay free of
the running bot's libraries, so an operator's edit-and-check loop stays quick.

Each case runs the command in a fresh interpreter and lists the heavy modules it left in
``sys.modules``: an import that comes back (a config module reaching for the Partner API
models, ``conversations`` or PTB at import) fails here, whatever the machine's speed. The
figures themselves are ``benchmarks/bench_startup.py``'s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.texts_section import DEFAULT_LOCALE
from conversations.texts.catalogue import DEFAULT_LOCALE as CATALOGUE_DEFAULT_LOCALE

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "config.example.toml"
EXAMPLE_ENV = {
    "DELIVERYBOT_PARTNER_API_KEY": "sk_live_startupImportsTestKey0123",
    "DELIVERYBOT_TELEGRAM_TOKEN": "7000000001:AAStartupImportsTestToken0123456789",
}
MINIMAL = """\
[partner]
base_url = "https://partner.example.com/api/v1"
api_key = "sk_live_startupImportsTestKey0123"

[telegram]
token = "7000000001:AAStartupImportsTestToken0123456789"
"""
WITH_OVERRIDES = MINIMAL + '\n[texts.en]\n"desk.cancelled" = "Delivery {ref} is off."\n'

# What the running bot loads and a configuration check does not need.
THE_RUNNING_BOT = (
    "telegram",  # PTB
    "httpx",
    "starlette",
    "uvicorn",
    "aiosqlite",
    "asyncpg",
    "mcp",
    "bot.store",
    "bot.partner.client",
    "bot.runtime",
)
# Also left out unless the file has [texts.en] or [texts.fr] overrides to check against the
# catalogue: ``conversations`` loads the flow engine, which uses the Partner API models and
# geopy's distances.
THE_FLOWS = ("conversations", "bot.partner.models", "asyncio", "geopy")
# Not even the configuration's models for --help and --version.
THE_CONFIGURATION = ("pydantic", "bot.config", "tomllib")

PROBE = """\
import contextlib, io, json, sys
from bot.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, set[str]]:
    """The exit code of ``deliverybot *argv`` in a fresh interpreter, and its loaded modules."""
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
    found = json.loads(result.stdout)
    return found["code"], set(found["modules"])


def present(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    """The ``packages`` (or any module under them) that are among ``modules``."""
    return [
        name
        for name in packages
        if any(module == name or module.startswith(name + ".") for module in modules)
    ]


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_load_no_configuration_and_nothing_of_the_bot(flag: str) -> None:
    code, modules = loaded([flag])
    assert code == 0
    assert present(modules, THE_CONFIGURATION + THE_FLOWS + THE_RUNNING_BOT) == []


def test_check_config_loads_only_the_configuration(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(MINIMAL, encoding="utf-8")
    code, modules = loaded(["check-config", str(config)])
    assert code == 0
    assert "bot.config.root" in modules  # the probe did run the check
    assert present(modules, THE_FLOWS + THE_RUNNING_BOT) == []


def test_checking_the_example_file_stays_as_light() -> None:
    # The example sets locale and default_phone_region, which load Babel and phonenumbers to
    # be checked: still nothing of the flows or the running bot.
    code, modules = loaded(["check-config", str(EXAMPLE)], env=EXAMPLE_ENV)
    assert code == 0
    assert {"babel", "phonenumbers"} <= modules
    assert present(modules, THE_FLOWS + THE_RUNNING_BOT) == []


def test_checking_text_overrides_loads_the_catalogue_but_not_the_running_bot(
    tmp_path: Path,
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(WITH_OVERRIDES, encoding="utf-8")
    code, modules = loaded(["check-config", str(config)])
    assert code == 0
    assert "conversations.texts.catalogue" in modules
    assert present(modules, THE_RUNNING_BOT) == []


def test_connect_on_sqlite_loads_no_store(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(MINIMAL, encoding="utf-8")
    code, modules = loaded(["check-config", "--connect", str(config)])
    assert code == 0
    assert present(modules, THE_FLOWS + THE_RUNNING_BOT) == []


def test_the_configurations_default_locale_is_the_catalogues() -> None:
    # texts_section writes the default out so that a file without [texts] does not import the
    # catalogue (and with it the flow engine); it must stay the same value.
    assert DEFAULT_LOCALE == CATALOGUE_DEFAULT_LOCALE
