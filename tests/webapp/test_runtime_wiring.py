"""The runtime built from a config with ``[webapp] enabled``: the page and its API on the bot's
one web app, and the chats' map button pointing at it."""

from __future__ import annotations

from pathlib import Path

import httpx

from bot.config import Config
from bot.runtime import Runtime, Seams

TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"


def _config(tmp_path: Path, *, enabled: bool) -> Config:
    data = {
        "partner": {"base_url": "https://partner.example/api/v1", "api_key": "sk_live_" + "k" * 24},
        "telegram": {"token": TOKEN, "public_base_url": "https://bot.example.com"},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "webapp": {"enabled": enabled},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


async def _get(runtime: Runtime, path: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=runtime.web_app)
    async with httpx.AsyncClient(transport=transport, base_url="https://bot.example.com") as web:
        return await web.get(path)


async def test_enabled_the_page_is_served_and_the_button_points_at_it(tmp_path: Path) -> None:
    runtime = await Runtime.build(_config(tmp_path, enabled=True), Seams(synchronous="NORMAL"))
    try:
        page = await _get(runtime, "/webapp/place?chat=42")
        asked = await _get(runtime, "/webapp/api/question?chat=42")
        assert runtime.telegram is not None
        map_url = runtime.telegram.ctx.map_url(42)
    finally:
        await runtime.stop()
    assert page.status_code == 200 and "frame-ancestors" in page.headers["content-security-policy"]
    assert asked.status_code == 401  # no initData
    assert map_url == "https://bot.example.com/webapp/place?chat=42"


async def test_off_nothing_is_served_and_no_button(tmp_path: Path) -> None:
    runtime = await Runtime.build(_config(tmp_path, enabled=False), Seams(synchronous="NORMAL"))
    try:
        page = await _get(runtime, "/webapp/place?chat=42")
        assert runtime.telegram is not None
        map_url = runtime.telegram.ctx.map_url(42)
    finally:
        await runtime.stop()
    assert page.status_code == 404 and map_url is None
