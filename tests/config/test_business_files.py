"""A business file completed by its host's tables: the derivations per business name, the host's
keys refused in a business file, and everything else working as in a single-business file."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config
from bot.config.business_files import (
    business_config,
    business_name_problem,
    lock_namespace_for,
    schema_for,
)
from bot.config.host_loading import load_host
from bot.config.storage import DEFAULT_LOCK_NAMESPACE, RATE_BUDGET_LOCK_NAMESPACE
from tests.config.host_texts import (
    HOST_TEXT,
    POSTGRES_TABLES,
    business_secrets,
    business_text,
    make_host,
)

ROOT = Path(__file__).resolve().parents[2]
HOST_ONLY = ("server", "storage", "metrics", "logging")


def load_business(root: Path, name: str, text: str, host_text: str = HOST_TEXT) -> Config:
    host = load_host(make_host(root, {name: text}, host_text=host_text))
    file = root / "businesses" / f"{name}.toml"
    return business_config(host, name, file.read_bytes(), file, base_dir=file.parent)


def test_sqlite_paths_and_the_public_host_are_derived_per_business(tmp_path: Path) -> None:
    config = load_business(tmp_path, "corner-shop", business_text(1))
    assert config.server.public_base_url == "https://host.example.com/b/corner-shop"
    assert config.storage.path == tmp_path / "data" / "businesses" / "corner-shop.sqlite3"
    assert config.storage.media_dir == tmp_path / "data" / "media" / "corner-shop"
    assert config.partner_webhook_url() == "https://host.example.com/b/corner-shop/hooks/partner"
    assert config.warnings() == []  # absolute paths: no relative-path warning per business


def test_postgres_gets_a_schema_and_a_lock_namespace_per_business(tmp_path: Path) -> None:
    host_text = HOST_TEXT.replace("[storage]", '[storage]\nbackend = "postgres"') + POSTGRES_TABLES
    config = load_business(tmp_path, "corner-shop", business_text(1), host_text)
    database = config.storage.shared_database
    assert database is not None
    assert database.db_schema == "b_corner_shop"
    assert database.lock_namespace == lock_namespace_for("corner-shop", DEFAULT_LOCK_NAMESPACE)
    assert database.dsn.get_secret_value() == "postgresql://bot:pw@db.internal:5432/bots"


def test_lock_namespaces_are_steady_distinct_and_never_a_fixed_one() -> None:
    names = [f"business-{n}" for n in range(2000)]
    spaces = [lock_namespace_for(name, DEFAULT_LOCK_NAMESPACE) for name in names]
    assert spaces == [lock_namespace_for(name, DEFAULT_LOCK_NAMESPACE) for name in names]
    assert len(set(spaces)) == len(names)
    assert all(-(2**31) <= space < 2**31 for space in spaces)
    fixed = {DEFAULT_LOCK_NAMESPACE, RATE_BUDGET_LOCK_NAMESPACE}
    assert not fixed & set(spaces)
    # A name whose hash lands on a taken namespace steps past it.
    taken = lock_namespace_for("business-7", DEFAULT_LOCK_NAMESPACE)
    assert lock_namespace_for("business-7", taken) == taken + 1


def test_schema_names_are_one_to_one_with_business_names() -> None:
    assert schema_for("corner-shop") == "b_corner_shop"
    assert business_name_problem("corner_shop") is not None  # so no two names share a schema
    for bad in ("Shop", "9shop", "", "shop.x", "a" * 41):
        assert business_name_problem(bad) is not None, bad
    assert business_name_problem("a" * 40) is None


@pytest.mark.parametrize("table", [*HOST_ONLY, "host"])
def test_a_host_table_in_a_business_file_is_refused_naming_file_and_key(
    tmp_path: Path, table: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        load_business(tmp_path, "shop", business_text(1) + f"\n[{table}]\n")
    file = tmp_path / "businesses" / "shop.toml"
    assert raised.value.problems == [
        f"{file}: [{table}]: set by the host file (host.toml), not a business file"
    ]


def test_server_keys_in_their_old_telegram_place_are_the_hosts_too(tmp_path: Path) -> None:
    text = business_text(1).replace('mode = "webhook"', 'mode = "webhook"\nlisten_port = 9000')
    with pytest.raises(ConfigError) as raised:
        load_business(tmp_path, "shop", text)
    assert raised.value.problems == [
        f"{tmp_path / 'businesses' / 'shop.toml'}: [telegram] listen_port: set by the host file "
        "(host.toml, [server] listen_port), not a business file"
    ]


def test_a_business_files_problems_name_the_file_and_key_and_no_secret(tmp_path: Path) -> None:
    text = business_text(1).replace('mode = "webhook"', 'mode = "hook"')
    with pytest.raises(ConfigError) as raised:
        load_business(tmp_path, "Shop", text)
    file = tmp_path / "businesses" / "Shop.toml"
    assert raised.value.problems == [
        f"{file}: 'Shop' is not a business name: 1 to 40 characters of a-z, 0-9 and -, "
        "starting with a-z (no _)",
        f'{file}: [telegram] mode: must be "polling" or "webhook"',
    ]
    assert "sk_live" not in str(raised.value)


def without_host_tables(text: str) -> str:
    """A single-business file's text less the host's tables (each to the next table)."""
    kept: list[str] = []
    dropping = False
    for line in text.splitlines():
        header = re.fullmatch(r"\[([a-z.]+)\]", line)
        if header:
            dropping = header[1].split(".")[0] in HOST_ONLY
        if not dropping:
            kept.append(line)
    return "\n".join(kept) + "\n"


def test_everything_a_single_business_file_holds_works_in_a_business_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The shipped example, less the host's tables: every other key it documents is the same
    # in a business file.
    monkeypatch.setenv("DELIVERYBOT_PARTNER_API_KEY", business_secrets(1)["api_key"])
    monkeypatch.setenv("DELIVERYBOT_TELEGRAM_TOKEN", business_secrets(1)["token"])
    example = ROOT / "config.example.toml"
    text = example.read_text(encoding="utf-8")
    config = load_business(tmp_path, "example", without_host_tables(hosted(text)))
    single = load_config(example)
    tables = set(tomllib.loads(text)) - set(HOST_ONLY)
    assert {"partner", "telegram", "relay", "texts", "console"} <= tables
    for table in tables - {"telegram"}:
        assert getattr(config, table) == getattr(single, table), table
    # A hosted bot takes its updates by webhook; the rest of [telegram] is as written.
    webhook = {"mode": "webhook", "secret_token": config.telegram.secret_token}
    assert config.telegram == single.telegram.model_copy(update=webhook)


def hosted(example: str) -> str:
    """The example's [telegram] in webhook mode, as a hosted business writes it."""
    polling = 'mode = "polling"\n'
    assert polling in example
    return example.replace(polling, 'mode = "webhook"\nsecret_token = "hosted-secret-0123"\n', 1)
