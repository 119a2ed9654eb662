"""``deliverybot mcp``: the SDK's own client over stdio lists the tools of a real process; the
streamable HTTP app refuses a request without the channel's key; an unknown channel is a usage
error; with ``backend = "postgres"`` it opens the shared database, not a SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import httpx
import pytest
from mcp import Client, StdioServerParameters

from bot.agents import AgentChannel
from bot.agents.mcp_command import KeyGuard
from bot.cli import main
from bot.config import key_hash
from bot.store.pg_local_server import LocalPostgres
from tests.test_config import ENV, write

KEY = "shop-key-0123456789abcdef0123"
ROOT = Path(__file__).resolve().parents[2]


def config_file(tmp_path: Path, storage: dict[str, object] | None = None) -> Path:
    # The test's own store, never the shipped default under /var/lib (shared by every run on
    # the machine, whatever version of the schema each has).
    own = {"path": str(tmp_path / "bot.sqlite3"), "media_dir": str(tmp_path / "media")}
    file = write(tmp_path, {"storage": storage or own})
    agents = f'\n[[agents.channels]]\nname = "shop"\nkey_sha256 = "{key_hash(KEY)}"\n'
    file.write_text(file.read_text(encoding="utf-8") + agents, encoding="utf-8")
    return file


def stdio_server(config: Path, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "bot", "mcp", "--config", str(config), "--channel", "shop"],
        env={**os.environ, **ENV, **(env or {}), "PYTHONPATH": str(ROOT)},
        cwd=str(config.parent),
    )


async def test_the_mcp_command_serves_the_tools_over_stdio(tmp_path: Path) -> None:
    async with Client(stdio_server(config_file(tmp_path))) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
    assert {"start_order", "answer", "delivery_status", "cancel_delivery"} <= names


async def test_with_postgres_it_opens_the_shared_database(
    tmp_path: Path, postgres_server: LocalPostgres
) -> None:
    dsn = await postgres_server.create_database("mcp_command")
    storage = {
        "backend": "postgres",
        "path": "bot.sqlite3",
        "media_dir": "media",
        "postgres": {"dsn_env": "TEST_POSTGRES_DSN"},
    }
    config = config_file(tmp_path, storage)
    async with Client(stdio_server(config, {"TEST_POSTGRES_DSN": dsn})) as client:
        await client.list_tools()
    connection = await asyncpg.connect(dsn)
    try:
        tables = await connection.fetchval(
            "SELECT count(*) FROM information_schema.tables"
            " WHERE table_name = 'agent_conversations'"
        )
    finally:
        await connection.close()
    assert tables == 1  # the store it opened made its tables there
    assert not (tmp_path / "bot.sqlite3").exists()


def test_its_log_lines_follow_the_logging_section_on_stderr(tmp_path: Path) -> None:
    """``[logging] format = "json"`` holds for ``deliverybot mcp`` as for ``run``: every line
    on stderr is a JSON object, and stdout (the protocol's, over stdio) carries no log line."""
    config = config_file(tmp_path)
    config.write_text(
        config.read_text(encoding="utf-8") + '\n[logging]\nlevel = "debug"\nformat = "json"\n',
        encoding="utf-8",
    )
    server = stdio_server(config)
    done = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [server.command, *server.args],
        env=server.env,
        cwd=server.cwd,
        stdin=subprocess.DEVNULL,  # the client is gone at once: the server stops
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines, done.stderr
    for line in lines:
        assert isinstance(json.loads(line), dict), line
    assert done.stdout == ""


@pytest.mark.usefixtures("restore_logging")  # the command configures the process's logging
def test_an_unknown_channel_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    code = main(["mcp", "--config", str(config_file(tmp_path)), "--channel", "nope"])
    assert code == 2
    assert "no [[agents.channels]] entry is named 'nope'" in capsys.readouterr().err


async def test_the_http_transport_needs_the_channels_key() -> None:
    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("reached the MCP app")

    guard = KeyGuard(app, AgentChannel("shop", key_hash(KEY), 60))  # type: ignore[arg-type]
    transport = httpx.ASGITransport(app=guard)
    async with httpx.AsyncClient(transport=transport, base_url="http://mcp.local") as client:
        missing = await client.post("/mcp", json={})
        wrong = await client.post("/mcp", json={}, headers={"Authorization": "Bearer x" * 3})
    assert missing.status_code == wrong.status_code == 401
