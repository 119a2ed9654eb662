"""``deliverybot migrate-store --config host.toml --business NAME``: a business that ran alone on
its SQLite file moves onto a host on PostgreSQL, its rows copied into its own schema
``b_<name>`` of the host's database, beside another business that is left as it was; or, with
``--business-file FILE``, into the schema of a business not added yet, which the host then
serves with those rows.

Refused, copying nothing: a business the host does not have, a schema that already holds a
business's rows, a schema another business owns, a SQLite file of another business, and a host
whose businesses are on SQLite. On the session's PostgreSQL server (``bot.store.pg_local_server``).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import asyncpg
import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.cli import main
from bot.config.business_scan import load_business_or_report
from bot.store import Store, StoreOwnedByAnother
from bot.store.pg_local_server import LocalPostgres
from bot.store_from_config import open_store

_DATABASES = itertools.count()
ADA = ChatRef(TELEGRAM, 1001)
GRACE = ChatRef(TELEGRAM, 2002)


def _host(storage: str) -> str:
    return f"""
[host]
businesses_dir = "businesses"

[server]
public_base_url = "https://host.example"

[storage]
{storage}
media_dir = "media"
"""


def _business(number: int) -> str:
    return f"""
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_business{number}Key0123456789abcdef"

[telegram]
token = "{7000000000 + number}:AAFakeTelegramTokenForMigrateTest{number:05d}"
mode = "webhook"
secret_token = "tg-secret-business-{number}-0123456789"
"""


def _host_file(directory: Path, storage: str) -> Path:
    (directory / "businesses").mkdir()
    for number, name in enumerate(("acme", "globex"), start=1):
        (directory / "businesses" / f"{name}.toml").write_text(_business(number))
    file = directory / "host.toml"
    file.write_text(_host(storage))
    return file


@pytest.fixture
async def host_file(postgres_server: LocalPostgres, tmp_path: Path) -> Path:
    """A host of businesses acme and globex, each in its schema of a new database."""
    dsn = await postgres_server.create_database(f"migrate_host_{next(_DATABASES)}")
    return _host_file(tmp_path, f'backend = "postgres"\npostgres = {{ dsn = "{dsn}" }}')


async def _open(host_file: Path, business: str, *, opened_for: str | None = None) -> Store:
    """Business ``business``'s store, as the host opens it (for ``opened_for``, if given)."""
    found = load_business_or_report(host_file, business)
    assert found is not None
    return await open_store(found[1].storage, time.time, business=opened_for or business)


async def _single_business_file(tmp_path: Path, *, business: str = "default") -> Path:
    """A bot's SQLite file (a single-business bot's unless ``business`` says): Ada's order
    left open, and one delivery of hers."""
    path = tmp_path / f"{business}-bot.sqlite3"
    async with Store.open(path, media_dir=tmp_path / "media", business=business) as store:
        await store.sessions.save(ADA, ADA.id, '{"flow": "pickup_delivery"}')
        await store.deliveries.add("dlv_1", ADA, ADA.id, 1.0, "+33612345678", None)
    return path


async def _migrate(*argv: str) -> tuple[int, str, str]:
    return await asyncio.to_thread(_main, ["migrate-store", *argv])


def _main(argv: list[str]) -> tuple[int, str, str]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


async def _schemas(host_file: Path) -> set[str]:
    found = load_business_or_report(host_file, "globex")
    assert found is not None and found[1].storage.postgres is not None
    conn = await asyncpg.connect(found[1].storage.postgres.dsn.get_secret_value())
    try:
        rows = await conn.fetch("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'b\\_%'")
    finally:
        await conn.close()
    return {str(row["nspname"]) for row in rows}


async def test_a_single_business_file_goes_into_its_business_s_schema_and_no_other(
    host_file: Path, tmp_path: Path
) -> None:
    async with await _open(host_file, "globex") as globex:
        await globex.sessions.save(GRACE, GRACE.id, '{"flow": "errand"}')
    async with await _open(host_file, "acme") as built:
        # The host built acme on its add to set its webhook: its owner recorded, and a
        # request budget's row, which is no business's data.
        assert (await built.rate_budget.try_start("partner", 5, 1.0))[1] is not None
    source = await _single_business_file(tmp_path)
    into_acme = ("--from", str(source), "--config", str(host_file), "--business", "acme")

    code, out, err = await _migrate(*into_acme)
    assert (code, err) == (0, "")
    printed = {line.split()[0]: line.split()[1] for line in out.splitlines()}
    assert printed["sessions"] == "1" and printed["deliveries"] == "1"

    async with await _open(host_file, "acme") as acme:
        assert acme.business == "acme"
        assert (await acme.sessions.get(ADA)) is not None
        assert await acme.sessions.get(GRACE) is None
        links = await acme.deliveries.for_user(UserRef(TELEGRAM, ADA.id), 5)
        assert [link.delivery_id for link in links] == ["dlv_1"]
    async with await _open(host_file, "globex") as globex:
        assert (await globex.sessions.get(GRACE)) is not None
        assert await globex.sessions.get(ADA) is None
        assert await globex.deliveries.get("dlv_1") is None
    with pytest.raises(StoreOwnedByAnother, match=r"schema b_acme belongs to business 'acme'"):
        await _open(host_file, "acme", opened_for="globex")

    code, out, err = await _migrate(*into_acme)  # a second copy would mix two
    assert (code, out) == (1, "")
    assert "migrate-store: schema b_acme of the PostgreSQL database postgresql://" in err
    assert "already has rows in deliveries; nothing was copied" in err
    assert "password" not in err


async def test_what_is_not_the_business_s_is_refused_and_nothing_copied(
    host_file: Path, tmp_path: Path
) -> None:
    source = await _single_business_file(tmp_path)
    config = ("--config", str(host_file))

    code, _, err = await _migrate("--from", str(source), *config, "--business", "initech")
    assert code == 2 and "--business initech: no business of that name in" in err

    globex_file = await _single_business_file(tmp_path, business="globex")
    code, _, err = await _migrate("--from", str(globex_file), *config, "--business", "acme")
    assert code == 1 and err == (
        f"migrate-store: {globex_file} belongs to business 'globex', not 'acme': copy 'acme''s "
        "own file, or a single-business file (whose business is 'default'); nothing was copied\n"
    )
    assert await _schemas(host_file) == set()  # not even a schema was made

    # A schema taken by another business (globex's store pointed at b_acme by hand).
    found = load_business_or_report(host_file, "acme")
    assert found is not None and found[1].storage.postgres is not None
    postgres = found[1].storage.postgres
    dsn = postgres.dsn.get_secret_value()
    await (
        await Store.connect_postgres(
            dsn, media_dir=tmp_path / "media", db_schema="b_acme", business="globex"
        )
    ).close()
    code, _, err = await _migrate("--from", str(source), *config, "--business", "acme")
    assert code == 1 and "belongs to business 'globex', not 'acme'" in err
    async with await _open(host_file, "acme", opened_for="globex") as taken:
        assert await taken.sessions.get(ADA) is None

    code, _, err = await _migrate("--from", str(source), "--business", "acme", "--to", dsn)
    assert code == 2 and err.startswith("migrate-store: --business NAME or --business-file")
    code, _, err = await _migrate("--from", str(source), *config, "--to", dsn)
    assert code == 2 and "--config names the target" in err and dsn not in err


async def test_a_business_file_not_added_yet_is_copied_into_before_the_host_serves_it(
    host_file: Path, tmp_path: Path
) -> None:
    source = await _single_business_file(tmp_path)
    to_add = tmp_path / "corner-shop.toml"
    to_add.write_text(_business(3))
    config = ("--from", str(source), "--config", str(host_file))

    code, _, err = await _migrate(*config, "--business-file", str(to_add), "--business", "acme")
    assert (code, err) == (2, "migrate-store: --business or --business-file, not both\n")
    code, out, err = await _migrate(*config, "--business-file", str(to_add))
    assert (code, err) == (0, "") and "rows copied" in out
    assert await _schemas(host_file) == {"b_corner_shop"}

    (host_file.parent / "businesses" / to_add.name).write_text(to_add.read_text())  # added
    async with await _open(host_file, "corner-shop") as added:
        assert (await added.sessions.get(ADA)) is not None


def test_a_host_on_sqlite_has_no_schema_to_copy_into(tmp_path: Path) -> None:
    host_file = _host_file(tmp_path, 'path = "data/host.sqlite3"')
    source = tmp_path / "bot.sqlite3"
    source.touch()
    argv = ["migrate-store", "--from", str(source), "--config", str(host_file)]
    code, _, err = _main([*argv, "--business", "acme"])
    assert code == 2 and err == (
        f'migrate-store: {host_file}: business acme\'s [storage] backend is "sqlite": the '
        'copy goes into PostgreSQL ([storage] backend = "postgres" and [storage.postgres])\n'
    )
