"""``load_host``: a host file's shared tables and ``[host]``, a single-business file as a host of
one, and the host file's problems, each naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from bot.config.host_loading import SINGLE_BUSINESS, load_host
from bot.config.storage import DEFAULT_LOCK_NAMESPACE
from tests.config.host_texts import HOST_TEXT, business_text, make_host

ROOT = Path(__file__).resolve().parents[2]


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        load_host(path)
    return raised.value.problems


def test_a_host_file_has_the_shared_tables_and_host_defaults(tmp_path: Path) -> None:
    host = load_host(make_host(tmp_path, {}))
    assert host.single is None
    assert host.businesses_dir == tmp_path / "businesses"
    assert host.server.public_base_url == "https://host.example.com"
    assert host.storage.path == tmp_path / "data" / "host.sqlite3"
    section = host.section
    assert (section.idle_minutes, section.watch_seconds, section.idle_seconds) == (15, 2, 900)
    assert (section.metrics_business_label, section.metrics_business_label_cap) == (False, 50)


def test_a_single_business_file_is_a_host_of_one_exactly_as_loaded_today(tmp_path: Path) -> None:
    file = tmp_path / "bot.toml"
    text = business_text(1) + '\n[server]\npublic_base_url = "https://bot.example.com"\n'
    file.write_text(text, encoding="utf-8")
    host = load_host(file)
    assert host.single == load_config(file)
    assert host.businesses_dir is None
    # Nothing derived: no /b/default, the same store as ever.
    assert host.single.server.public_base_url == "https://bot.example.com"
    assert host.single.storage.path == tmp_path / "deliverybot.sqlite3"
    assert (host.server, host.storage) == (host.single.server, host.single.storage)
    assert SINGLE_BUSINESS == "default"


def test_a_single_business_files_problems_read_as_today(tmp_path: Path) -> None:
    file = tmp_path / "bot.toml"
    file.write_text('[partner]\nbase_url = "http://x"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as today:
        load_config(file)
    assert problems_of(file) == today.value.problems


def test_a_business_table_in_the_host_file_is_refused_naming_it(tmp_path: Path) -> None:
    host = make_host(tmp_path, {}, host_text=HOST_TEXT + '\n[telegram]\nmode = "webhook"\n')
    assert problems_of(host) == [
        f"{host}: [telegram]: belongs in a business file (one per business, in [host] "
        "businesses_dir), not the host file"
    ]


def test_the_host_files_own_problems_name_the_file_and_key(tmp_path: Path) -> None:
    text = HOST_TEXT.replace('businesses_dir = "businesses"', "idle_minutes = 0\nwatch_second = 2")
    host = make_host(tmp_path, {}, host_text=text + "\n[partner]\n[metrics]\nenabled = true\n")
    found = problems_of(host)
    assert found[0].startswith(f"{host}: [partner]: belongs in a business file")
    assert f"{host}: [host] idle_minutes: must be greater than 0" in found
    assert f"{host}: [host] watch_second: unknown key (did you mean watch_seconds?)" in found
    assert any(line.startswith(f"{host}: [metrics] token: required") for line in found)


def test_a_schema_in_the_host_file_is_refused_each_business_has_its_own(tmp_path: Path) -> None:
    text = HOST_TEXT + '\n[storage.postgres]\ndsn = "postgresql://u:p@db/x"\ndb_schema = "x"\n'
    assert problems_of(make_host(tmp_path, {}, host_text=text)) == [
        f"{tmp_path / 'host.toml'}: [storage.postgres] db_schema: is each business's own "
        "(b_<name>): leave it out of the host file"
    ]


def test_a_missing_businesses_dir_is_named(tmp_path: Path) -> None:
    host = make_host(tmp_path, {})
    (tmp_path / "businesses").rmdir()
    assert problems_of(host) == [
        f"{host}: [host] businesses_dir: {tmp_path / 'businesses'} is not a directory; create "
        "it (its every *.toml is one business)"
    ]


def test_the_schema_key_is_checked_as_a_schema_name(tmp_path: Path) -> None:
    file = tmp_path / "bot.toml"
    text = business_text(1) + (
        '\n[server]\npublic_base_url = "https://bot.example.com"\n'
        '\n[storage]\nbackend = "postgres"\n[storage.postgres]\n'
        'dsn = "postgresql://u:p@db/x"\ndb_schema = "Bad-Name"\n'
    )
    file.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(file)
    assert raised.value.problems == [
        "[storage.postgres] db_schema: must be a plain lower-case PostgreSQL name: a-z, 0-9 "
        "and _, not starting with a digit, at most 63 characters"
    ]
    file.write_text(text.replace("Bad-Name", "b_shop"), encoding="utf-8")
    database = load_config(file).storage.postgres
    assert database is not None
    assert (database.db_schema, database.lock_namespace) == ("b_shop", DEFAULT_LOCK_NAMESPACE)
