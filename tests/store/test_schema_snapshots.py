"""The schema declared once (``bot.store.schema_steps``, listed by ``bot.store.schema``) makes,
on each backend, exactly the schema the hand-kept twins made before it: ``schema_snapshots/``
was dumped from databases migrated by that code (``schema_dump``), so databases already in the
field open and migrate unchanged.

A new migration changes the snapshots: dump them again from databases migrated to it
(``python -m tests.store.schema_dump``) and check the difference is the new step's alone.
"""

from __future__ import annotations

from pathlib import Path

from bot.store import Store
from bot.store.migrations import MIGRATIONS
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_migrations import PG_MIGRATIONS
from tests.store.schema_dump import SNAPSHOTS, postgres_schema, sqlite_schema


def snapshot(name: str) -> list[str]:
    return (SNAPSHOTS / name).read_text().removesuffix("\n").split("\n")


def dumped(lines: list[str]) -> list[str]:
    return "\n".join(lines).split("\n")


async def test_sqlite_gets_the_schema_it_always_had(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "bot.db"):
        pass
    assert dumped(sqlite_schema(tmp_path / "bot.db")) == snapshot("sqlite.txt")


async def test_postgres_gets_the_schema_it_always_had(
    tmp_path: Path, postgres_server: LocalPostgres
) -> None:
    dsn = await postgres_server.create_database("schema_snapshot")
    async with await Store.connect_postgres(dsn, media_dir=tmp_path / "media"):
        pass
    assert dumped(await postgres_schema(dsn)) == snapshot("postgres.txt")


def test_both_backends_render_every_step_with_the_same_versions_and_names() -> None:
    def steps(migrations: tuple[object, ...]) -> list[tuple[object, object]]:
        return [(m.version, m.name) for m in migrations]  # type: ignore[attr-defined]

    assert steps(MIGRATIONS) == steps(PG_MIGRATIONS)
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
