"""Every door of the bot that takes JSON answers a hostile body with a 4xx and logs no traceback.

One table over the doors of the runtime built from one config (``/telegram`` in webhook mode,
``/hooks/partner``, ``/api``, the map page's API under ``/webapp``) and over MCP's streamable
HTTP app for the same agents, each called through ``httpx.ASGITransport`` with the right secret
(so the body is read): a control body is taken (2xx), and the same body with one hostile value
in it, or broken as a whole, is refused with a 4xx, without an ERROR line or a traceback.

The map page's API takes no body (its pick comes back through ``/telegram`` as a
``web_app_data`` message): its routes answer a body with 405, and its control is a GET.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.agents import AgentChannel
from bot.agents.mcp_command import mcp_http_app
from bot.agents.mcp_tools import build_mcp_server
from bot.config import Config, key_hash
from bot.partner.signing import sign
from bot.runtime import Runtime, Seams
from bot.webapp.init_data import sign_init_data, user_fields

TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"
SECRET_TOKEN = "doors-telegram-secret-token-0123456789"
SIGNING_SECRET = "whsec_json_doors_signing_secret_01"
KEY = "json-doors-agent-key-0123456789abcdef"
CHAT = 4242
BASE = "https://bot.example.com"

# A value spliced into each door's control body where a string was.
NESTED = b"[" * 5000 + b"]" * 5000  # 10 KB, 5,000 levels deep
VALUES = {
    "nested 5,000 deep": NESTED,
    "nested 65 deep": b"[" * 65 + b"]" * 65,  # under the recursion limit, over the bot's
    "invalid UTF-8": b'"caf\xe9"',
    "float beyond finite": b"1e999999",
    "integer of 5,001 digits": b"1" + b"0" * 5000,
    "NaN": b"NaN",
    "Infinity": b"-Infinity",
    "a repeated key": b'"x", "dup": 1, "dup": 2',
}


@dataclass(frozen=True)
class Door:
    """One door: its control body around ``%s`` (a JSON value), how to send it, what a
    taken control is answered."""

    name: str
    send: Callable[[httpx.AsyncClient, bytes, str], Awaitable[httpx.Response]]
    template: bytes
    taken: int


def _config(tmp_path: Path) -> Config:
    data = {
        "partner": {"base_url": "https://partner.example/api/v1", "api_key": "sk_live_" + "k" * 24},
        "telegram": {
            "token": TOKEN,
            "mode": "webhook",
            "secret_token": SECRET_TOKEN,
            "public_base_url": BASE,
        },
        "webhooks": {"enabled": True, "signing_secret": SIGNING_SECRET},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "agents": {"channels": [{"name": "shop", "key": KEY}]},
        "webapp": {"enabled": True},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


async def _telegram(client: httpx.AsyncClient, body: bytes, media: str) -> httpx.Response:
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET_TOKEN, "Content-Type": media}
    return await client.post("/telegram", content=body, headers=headers)


async def _partner(client: httpx.AsyncClient, body: bytes, media: str) -> httpx.Response:
    signature = sign(body, SIGNING_SECRET, int(time.time()))
    headers = {"Service-Signature": signature, "Content-Type": media}
    return await client.post("/hooks/partner", content=body, headers=headers)


async def _api(client: httpx.AsyncClient, body: bytes, media: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": media}
    return await client.post("/api/conversations", content=body, headers=headers)


def _init_data() -> str:
    fields = user_fields(CHAT, auth_date=int(time.time()))
    return sign_init_data(fields, bot_token=TOKEN)


def _webapp(path: str) -> Callable[[httpx.AsyncClient, bytes, str], Awaitable[httpx.Response]]:
    async def send(client: httpx.AsyncClient, body: bytes, media: str) -> httpx.Response:
        headers = {"Authorization": f"tma {_init_data()}", "Content-Type": media}
        url = f"{path}?chat={CHAT}&q=Yaba"
        if body == b"":  # the control: the route as the page calls it
            return await client.get(url, headers=headers)
        return await client.post(url, content=body, headers=headers)

    return send


async def _mcp(client: httpx.AsyncClient, body: bytes, media: str) -> httpx.Response:
    headers = {
        "Authorization": f"Bearer {KEY}",
        "Content-Type": media,
        "Accept": "application/json, text/event-stream",
    }
    return await client.post("/mcp", content=body, headers=headers)


UPDATE = (
    b'{"update_id": 7001, "message": {"message_id": 1, "date": 1800000000, '
    b'"chat": {"id": 4242, "type": "private"}, "from": {"id": 4242, "is_bot": false, '
    b'"first_name": "T"}, "text": %s}}'
)
EVENT = (
    b'{"id": "evt_doors_0001", "type": "delivery.status_changed", "created": %d, '
    b'"data": {"object": {"id": "3f2a9c1e-0000-4000-8000-000000000001", "status": "matched"}, '
    b'"previous_status": "pending"}, "summary": %%s, "agent_notes": []}'
)
START = b'{"customer": "c-1", "flow": %s}'
INITIALIZE = (
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": '
    b'"2025-06-18", "capabilities": {}, "clientInfo": {"name": %s, "version": "1"}}}'
)

DOORS = [
    Door("telegram", _telegram, UPDATE, 200),
    Door("partner", _partner, EVENT % int(time.time()), 200),
    Door("api", _api, START, 201),
    Door("webapp question", _webapp("/webapp/api/question"), b"", 409),
    Door("webapp search", _webapp("/webapp/api/search"), b"", 404),
    Door("mcp", _mcp, INITIALIZE, 200),
]
CONTROL_VALUES = {
    "telegram": b'"hello"',
    "partner": b'"Matched."',
    "api": b'"pickup_delivery"',
    "mcp": b'"agent"',
}


def _bodies(door: Door) -> dict[str, tuple[bytes, str]]:
    """Each hostile body for ``door``, with the media type it is sent as."""
    if door.template == b"":
        control = b'{"q": "Yaba"}'
        found = {name: (b'{"q": %s}' % value, "application/json") for name, value in VALUES.items()}
    else:
        control = door.template % CONTROL_VALUES[door.name]
        found = {
            name: (door.template % value, "application/json") for name, value in VALUES.items()
        }
    found["a JSON array"] = (b"[" + control + b"]", "application/json")
    found["a JSON string"] = (json.dumps(control.decode()).encode(), "application/json")
    found["not JSON"] = (control[:-1], "application/json")
    found["text/plain"] = (control, "text/plain")
    found["over 1 MB"] = (
        control.replace(b"}", b', "pad": "' + b"x" * 1_100_000 + b'"}', 1),
        "application/json",
    )
    return found


@contextlib.asynccontextmanager
async def _clients(tmp_path: Path) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    runtime = await Runtime.build(_config(tmp_path), Seams(synchronous="NORMAL"))
    try:
        assert runtime.agents is not None
        server = build_mcp_server(runtime.agents.conversations, "shop")
        mcp = mcp_http_app(server, AgentChannel("shop", key_hash(KEY), 600), "bot.example.com")
        async with (
            server.session_manager.run(),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=runtime.web_app, raise_app_exceptions=False),
                base_url=BASE,
            ) as web,
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=mcp, raise_app_exceptions=False), base_url=BASE
            ) as mcp_client,
        ):
            yield {"web": web, "mcp": mcp_client}
    finally:
        await runtime.stop()


async def test_every_json_door_refuses_hostile_bodies_with_a_4xx_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    answers: dict[tuple[str, str], int] = {}
    async with _clients(tmp_path) as clients:
        for door in DOORS:
            client = clients["mcp" if door.name == "mcp" else "web"]
            control = door.template % CONTROL_VALUES[door.name] if door.template else b""
            taken = await door.send(client, control, "application/json")
            assert taken.status_code == door.taken, (door.name, taken.text)
            for case, (body, media) in _bodies(door).items():
                answers[door.name, case] = (await door.send(client, body, media)).status_code

    not_refused = {key: status for key, status in answers.items() if not 400 <= status < 500}
    assert not_refused == {}
    assert len(answers) == len(DOORS) * (len(VALUES) + 5)
    faults = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert [f"{r.name}: {r.getMessage()}" for r in faults] == []
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text
