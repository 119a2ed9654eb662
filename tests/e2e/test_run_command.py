"""``deliverybot run``: the production entry point, over real loopback sockets."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.cli import main
from bot.config import Config
from bot.runtime import StartupError, configure_logging, serve
from bot.sandbox import default_scenario
from bot.sandbox.server import SandboxServer
from tests.e2e.conftest import ADA
from tests.fakes import FakeTelegram
from tests.support.sigterm import stop_with_sigterm


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_run_answers_telegram_serves_the_web_app_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    port = _free_port()
    async with (
        SandboxServer(default_scenario(), port=0) as partner,
        FakeTelegram.running() as tg,
    ):
        data: dict[str, Any] = {
            "partner": {"base_url": partner.sandbox.base_url, "api_key": partner.sandbox.api_key},
            "telegram": {
                "token": tg.token,
                "api_base_url": tg.api_base_url,
                "public_base_url": f"http://127.0.0.1:{port}",
                "listen_port": port,
                "drain_seconds": 0,  # stopped with SIGTERM: no proxy to drain for
            },
            "webhooks": {"enabled": False},
            "operators": {},
            "storage": {"path": "data/bot.sqlite3"},
            "geocoding": {},
            "relay": {},
        }
        config = Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})
        running = asyncio.create_task(serve(config))
        try:
            await tg.wait_for_long_poll()
            tg.push_update(tg.updates.command(ADA, "new"))
            reply = await tg.wait_for_message(ADA.id)
            async with httpx.AsyncClient() as web:
                health = await web.get(f"http://127.0.0.1:{port}/health")
        finally:
            await stop_with_sigterm(running)

    assert reply.text == "What would you like to order?"
    assert health.json() == {"ok": True, "inbox_pending": 0}
    assert (tmp_path / "data" / "bot.sqlite3").exists()
    assert tg.pending_updates == []  # confirmed before the process ended


def test_run_with_a_bad_config_prints_the_problems_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.toml"
    path.write_text('[partner]\nbase_url = "ftp://nowhere"\n')

    assert main(["run", "--config", str(path)]) == 2

    problems = capsys.readouterr().err
    assert "[partner] base_url" in problems
    assert "[telegram]" in problems


async def test_a_token_telegram_refuses_stops_the_start_without_showing_it(
    tmp_path: Path,
) -> None:
    wrong_token = "7000000002:AAWrongTokenNobodyIssued_0123456789"
    async with FakeTelegram.running() as tg:
        data: dict[str, Any] = {
            "partner": {
                "base_url": "http://127.0.0.1:9/api/v1",
                "api_key": "sk_live_0123456789abcdef",
            },
            "telegram": {"token": wrong_token, "api_base_url": tg.api_base_url},
            "webhooks": {},
            "operators": {},
            "storage": {},
            "geocoding": {},
            "relay": {},
        }
        config = Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})
        with pytest.raises(StartupError) as refused:
            await serve(config)

    assert str(refused.value) == "Telegram refused the bot token ([telegram] token)"
    assert wrong_token not in repr(refused.value.__context__)


def test_run_logging_masks_secrets_and_quiets_chatty_libraries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    token = "7000000003:AATokenThatMustNeverBeLogged_012345"
    data: dict[str, Any] = {
        "partner": {"base_url": "http://127.0.0.1:9/api/v1", "api_key": "sk_live_0123456789abcdef"},
        "telegram": {"token": token},
        "webhooks": {},
        "operators": {},
        "storage": {},
        "geocoding": {},
        "relay": {},
    }
    configure_logging(Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path}))

    logging.getLogger("some.library").warning("GET https://api.telegram.org/bot%s/getMe", token)
    try:
        raise RuntimeError(f"sk_live_0123456789abcdef rejected for {token}")
    except RuntimeError:
        logging.getLogger("bot").exception("failed")
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot%s", token)
    logging.getLogger("aiosqlite").debug("executing INSERT ... ('+2348022223333')")

    err = capsys.readouterr().err
    assert "https://api.telegram.org/bot[redacted]/getMe" in err
    assert "[redacted] rejected for [redacted]" in err
    assert token not in err and "sk_live_0123456789abcdef" not in err
    assert "HTTP Request" not in err and "+2348022223333" not in err
