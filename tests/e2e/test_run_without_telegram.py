"""``deliverybot run`` without a Telegram token: a real subprocess serving one agent channel.

The sandbox runs in this process on loopback and posts its signed webhooks to the bot's web
app; the bot, in its own process, never starts PTB. An agent orders a pickup delivery over the
JSON API (with an uploaded photo the sandbox downloads from the bot), then follows its events
over SSE: the relay runs, and the drop-off code, which this bot cannot hand to anyone, is
neither given to the agent nor logged.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.sandbox import parse_scenario
from bot.sandbox.scenario import default_scenario_data
from bot.sandbox.server import SandboxServer

from .conftest import tiny_png
from .test_agent_channels import ANSWERS
from .test_run_command import _free_port

KEY = "headless-agent-key-0123456789abcdef"
ROOT = Path(__file__).resolve().parents[2]


def _config(sandbox: SandboxServer, port: int, secret: str) -> str:
    return f"""
[partner]
base_url = "{sandbox.base_url}"
api_key = "{sandbox.sandbox.api_key}"

[telegram]
listen_port = {port}
drain_seconds = 0  # stopped with SIGTERM: no proxy to drain for
public_base_url = "http://127.0.0.1:{port}"

[webhooks]
enabled = true
signing_secret = "{secret}"

[storage]
path = "data/bot.sqlite3"

[[agents.channels]]
name = "shop"
key_env = "SHOP_KEY"
"""


async def _lines(process: asyncio.subprocess.Process, until: str) -> list[str]:
    """stderr lines of ``process`` up to the first that contains ``until``."""
    assert process.stderr is not None
    seen: list[str] = []
    async with asyncio.timeout(20):
        while until not in (seen[-1] if seen else ""):
            line = await process.stderr.readline()
            if not line:
                raise AssertionError("the bot stopped: " + "".join(seen))
            seen.append(line.decode())
    return seen


async def _sse_events(api: httpx.AsyncClient, path: str, until: str) -> AsyncIterator[Any]:
    """The conversation's events as the SSE stream sends them, up to one of type ``until``."""
    import json

    headers = {"Accept": "text/event-stream"}
    async with api.stream("GET", path + "/events", headers=headers) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("data:"):
                event = json.loads(line.removeprefix("data:"))
                yield event
                if event.get("type") == until:
                    return


async def order_over_api(api: httpx.AsyncClient, customer: str) -> tuple[str, str]:
    """A pickup delivery ordered over the JSON API (its photo uploaded first); the
    conversation's path and the delivery's id."""
    opened = await api.post("/api/conversations", json={"customer": customer})
    assert opened.status_code == 201, opened.text
    path = f"/api/conversations/{opened.json()['id']}"
    photo = await api.post(path + "/photos", content=tiny_png())
    assert photo.status_code == 201, photo.text
    for answer in ANSWERS:
        if answer["kind"] == "photos":
            answer = {"kind": "photos", "urls": [photo.json()["url"]]}
        turn = await api.post(path + "/answers", json={"answer": answer})
        assert turn.status_code == 200 and not turn.json()["reask"], turn.text
    assert turn.json()["status"] == "created", turn.text
    return path, turn.json()["delivery"]["id"]


async def _start_bot(
    tmp_path: Path, partner: SandboxServer, port: int
) -> asyncio.subprocess.Process:
    """``deliverybot run`` without a token on ``port``, against ``partner``; stderr piped."""
    config = tmp_path / "bot.toml"
    config.write_text(_config(partner, port, partner.sandbox.signing_secret))
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        "--config",
        str(config),
        cwd=tmp_path,
        env={**os.environ, "SHOP_KEY": KEY, "PYTHONPATH": str(ROOT)},
        stderr=asyncio.subprocess.PIPE,
    )


async def test_run_without_a_token_takes_an_agent_order_and_relays_its_events(
    tmp_path: Path,
) -> None:
    port = _free_port()
    data = default_scenario_data()
    data["webhooks"][0]["url"] = f"http://127.0.0.1:{port}/hooks/partner"
    async with SandboxServer(parse_scenario(data), port=0) as partner:
        process = await _start_bot(tmp_path, partner, port)
        try:
            started = await _lines(process, "bot running without Telegram")
            headers = {"Authorization": f"Bearer {KEY}"}
            async with httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=20
            ) as api:
                path, delivery_id = await order_over_api(api, "c-1")
                partner.sandbox.mark_paid(delivery_id)
                events = [e async for e in _sse_events(api, path, "delivery.otp_issued")]
        finally:
            process.send_signal(signal.SIGTERM)
            async with asyncio.timeout(20):
                _, err = await process.communicate()
    code = partner.sandbox.otp_code(delivery_id)

    assert process.returncode == 0
    assert events[0]["type"] == "delivery.created"
    assert events[0]["delivery_id"] == delivery_id
    otp = events[-1]["drop_off_code"]
    assert code is not None and code not in otp
    assert "cannot pass it on to the receiver" in otp
    log = "".join(started) + err.decode()
    assert "getMe" not in log and "getUpdates" not in log and "running (polling" not in log
    assert code not in log and KEY not in log and partner.sandbox.api_key not in log
    # What operators would have been told on Telegram is in the log, on one line each.
    assert "for operators (no Telegram):" in log
    assert "bot has no Telegram to hand it to the receiver" in log


@pytest.fixture(autouse=True)
def _no_stray_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHOP_KEY", raising=False)


async def test_sigterm_ends_the_bot_while_an_agent_event_stream_is_open(tmp_path: Path) -> None:
    """An open SSE stream no longer holds the stop back: the streams are told to end."""
    port = _free_port()
    data = default_scenario_data()
    data["webhooks"][0]["url"] = f"http://127.0.0.1:{port}/hooks/partner"
    async with SandboxServer(parse_scenario(data), port=0) as partner:
        process = await _start_bot(tmp_path, partner, port)
        try:
            await _lines(process, "bot running without Telegram")
            headers = {"Authorization": f"Bearer {KEY}"}
            async with httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=20
            ) as api:
                path, _ = await order_over_api(api, "c-1")
                async with api.stream("GET", path + "/events") as stream:
                    assert stream.status_code == 200
                    process.send_signal(signal.SIGTERM)
                    # The stream ends from the server's side, well before systemd's SIGKILL.
                    async with asyncio.timeout(30):
                        async for _ in stream.aiter_bytes():
                            pass
                async with asyncio.timeout(30):
                    _, err = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()

    assert process.returncode == 0
    assert "Traceback" not in err.decode()
