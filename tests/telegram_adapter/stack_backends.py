"""``stack``: the e2e stack (``tests/e2e/conftest.py``: the production runtime, PTB's real
Application polling the fake Bot API) over each store backend, SQLite and PostgreSQL, with the
users ADA, BOLA, CHIDI and OLU and the operators' group; its workers stay idle (the relay runs
when a test calls ``deliver_events``). A module's own ``limits`` fixture sets ``[limits]``, its
``console`` fixture ``[console]``, its ``webapp`` fixture ``[webapp]`` (the folder's conftest
has both off)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import pytest

from bot.config import Config
from tests.e2e.conftest import (
    ADA,
    BOLA,
    CHIDI,
    OLU,
    OPERATORS,
    PUBLIC_BASE_URL,
    BotStack,
    ScenarioEdit,
    sandbox_and_telegram,
)
from tests.support.store_fixture import empty_postgres_database

Backend = Literal["sqlite", "postgres"]
# The stacks' PostgreSQL database, one per worker's server, emptied before each stack starts:
# migrating a new database per test cost a second or more, a TRUNCATE costs milliseconds.
_STACK_DATABASE = "stack_tests"


@pytest.fixture
def limits() -> dict[str, Any]:
    """The stack's ``[limits]`` table (the defaults); a test module overrides this fixture."""
    return {}


@pytest.fixture
def webapp() -> dict[str, Any]:
    """The stack's ``[webapp]`` table (the Mini App): off; a test module overrides this fixture."""
    return {}


@pytest.fixture(params=["sqlite", "postgres"])
async def stack(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    limits: dict[str, Any],
    console: dict[str, Any],
    webapp: dict[str, Any],
) -> AsyncIterator[BotStack]:
    """The e2e stack over ``sqlite`` or ``postgres``, with ``limits`` as its ``[limits]`` and
    ``console`` as its ``[console]`` and ``webapp`` as its ``[webapp]``; its workers stay idle
    (no relay)."""
    async with contextlib.AsyncExitStack() as exits:
        yield await started_stack(
            exits, request, tmp_path, limits=limits, console=console, webapp=webapp
        )


async def started_stack(
    exits: contextlib.AsyncExitStack,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    *,
    limits: dict[str, Any],
    console: dict[str, Any],
    webapp: dict[str, Any] | None = None,
    edit: ScenarioEdit | None = None,
) -> BotStack:
    """The ``stack`` on the backend ``request.param`` names, its sandbox's scenario changed by
    ``edit``, stopped by ``exits`` (for a module's own ``stack`` fixture)."""
    backend: Backend = request.param
    switch, sandbox, tg = await sandbox_and_telegram(exits, edit)
    for user in (ADA, BOLA, CHIDI, OLU):
        tg.add_chat(user)
    tg.add_chat(OPERATORS)
    storage: dict[str, Any] = {"path": "bot.sqlite3", "media_dir": "media"}
    if backend == "postgres":
        server = request.getfixturevalue("postgres_server")
        dsn = await empty_postgres_database(server, _STACK_DATABASE)
        storage = {"backend": "postgres", "media_dir": "media", "postgres": {"dsn": dsn}}
    data = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key},
        "telegram": {
            "token": tg.token,
            "mode": "polling",
            "public_base_url": PUBLIC_BASE_URL,
            "api_base_url": tg.api_base_url,
            "file_base_url": tg.file_base_url,
        },
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "operators": {"chat_ids": [OPERATORS.id]},
        "storage": storage,
        "geocoding": {"provider": "none"},
        "limits": limits,
        "console": console,
        "webapp": webapp or {},
    }
    config = Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})
    bot_stack = BotStack(tg, sandbox, switch, config, workers=False)
    exits.push_async_callback(bot_stack.stop)
    await bot_stack.start()
    return bot_stack
