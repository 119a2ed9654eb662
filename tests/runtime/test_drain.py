"""``serve`` on SIGTERM drains: /health fails while the rest is served, then it stops.

In process, over a real loopback socket: a headless bot (one agent channel, no Telegram) whose
signals are sent to this process, as ``deliverybot run`` gets them. The drain's start is
awaited through its log line, never slept for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.config import Config
from bot.partner.signing import SIGNATURE_HEADER, sign
from bot.runtime import serve
from bot.store.pg_local_server import free_loopback_port
from tests.web.conftest import event_body

SECRET = "whsec_drain_tests_signing_secret_1"
DRAIN_LINE = "stopping: /health fails for %g s so the proxy stops sending requests here"


def _config(tmp_path: Path, port: int, drain_seconds: float) -> Config:
    data: dict[str, Any] = {
        "partner": {
            "base_url": "http://127.0.0.1:9/api/v1",
            "api_key": "sk_live_0123456789abcdef",
        },
        "telegram": {
            "listen_port": port,
            "public_base_url": f"http://127.0.0.1:{port}",
            "drain_seconds": drain_seconds,
        },
        "webhooks": {"enabled": True, "signing_secret": SECRET},
        "storage": {"path": "bot.sqlite3"},
        "agents": {"channels": [{"name": "shop", "key": "drain-agent-key-0123456789abcdef"}]},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


class DrainStarts(logging.Handler):
    """Sets ``started`` when ``serve`` logs that the drain began."""

    def __init__(self) -> None:
        super().__init__()
        self.started = asyncio.Event()
        self.seconds: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == DRAIN_LINE:
            self.seconds.append(float(record.args[0]))  # type: ignore[index]
            self.started.set()


@pytest.fixture
async def drain_starts() -> AsyncIterator[DrainStarts]:
    handler = DrainStarts()
    logger = logging.getLogger("bot.runtime.serving")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


async def _serving(port: int, config: Config) -> asyncio.Task[None]:
    """``serve(config)`` as a task, once its web app answers /health."""
    running = asyncio.create_task(serve(config))
    ready = asyncio.Event()

    async def poll() -> None:  # another process's socket opening: nothing to await but asking
        async with httpx.AsyncClient() as web:
            while not running.done():
                try:
                    if (await web.get(f"http://127.0.0.1:{port}/health")).status_code == 200:
                        ready.set()
                        return
                except httpx.TransportError:
                    await asyncio.sleep(0.05)

    async with asyncio.timeout(30):
        await poll()
    if not ready.is_set():
        await running  # raises what stopped it
        raise AssertionError("serve() returned before serving")
    return running


def _event(event_id: str) -> tuple[bytes, dict[str, str]]:
    """A signed Partner event, as the service would post it now."""
    now = int(time.time())
    body = event_body(event_id, created=now)
    return body, {SIGNATURE_HEADER: sign(body, SECRET, now)}


@contextlib.asynccontextmanager
async def _draining(
    tmp_path: Path, drain_starts: DrainStarts, drain_seconds: float
) -> AsyncIterator[tuple[str, asyncio.Task[None]]]:
    """A served bot sent SIGTERM, once its drain began: its URL and ``serve`` task; on exit,
    until ``serve`` returned."""
    port = free_loopback_port()
    running = await _serving(port, _config(tmp_path, port, drain_seconds))
    os.kill(os.getpid(), signal.SIGTERM)
    try:
        async with asyncio.timeout(10):
            await drain_starts.started.wait()
        yield f"http://127.0.0.1:{port}", running
    except BaseException:
        if not running.done():  # the test failed: a second signal stops it now
            os.kill(os.getpid(), signal.SIGTERM)
        raise
    finally:
        async with asyncio.timeout(10):
            await running


async def test_sigterm_fails_health_while_still_serving_then_stops(
    tmp_path: Path, drain_starts: DrainStarts
) -> None:
    async with _draining(tmp_path, drain_starts, 0.2) as (url, _):
        pass  # the drain ends by itself, then the server stops

    assert drain_starts.seconds == [0.2]
    with pytest.raises(httpx.ConnectError):  # the listener is closed
        async with httpx.AsyncClient() as web:
            await web.get(f"{url}/health")


async def test_while_draining_health_answers_503_and_webhooks_are_taken(
    tmp_path: Path, drain_starts: DrainStarts
) -> None:
    async with _draining(tmp_path, drain_starts, 30) as (url, running):
        async with httpx.AsyncClient(base_url=url) as web:
            health = await web.get("/health")
            body, headers = _event("evt_during_the_drain_000000001")
            webhook = await web.post("/hooks/partner", content=body, headers=headers)
            api = await web.get("/api/conversations/none")
        if not running.done():  # a second signal cuts the 30 s drain short
            os.kill(os.getpid(), signal.SIGTERM)

    assert (health.status_code, health.json()) == (503, {"ok": False, "stopping": True})
    assert webhook.status_code == 200, webhook.text
    assert api.status_code == 401  # the agents' API still answers (here: no key)


@pytest.mark.parametrize(
    ("signum", "drain_seconds"),
    [
        pytest.param(signal.SIGINT, 30, id="SIGINT (Ctrl-C) with a drain set"),
        pytest.param(signal.SIGTERM, 0, id="SIGTERM with drain_seconds = 0"),
    ],
)
async def test_stops_at_once_without_draining(
    tmp_path: Path, drain_starts: DrainStarts, signum: signal.Signals, drain_seconds: float
) -> None:
    port = free_loopback_port()
    running = await _serving(port, _config(tmp_path, port, drain_seconds))
    os.kill(os.getpid(), signum)
    async with asyncio.timeout(10):  # well inside the 30 s a drain would take
        await running

    assert not drain_starts.started.is_set()
