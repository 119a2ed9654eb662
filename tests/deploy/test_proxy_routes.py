"""Every path the bot's web app serves is passed on by every shipped proxy file.

The web app is the real one: ``Runtime.build`` from a config with every optional part on
(Telegram in webhook mode, the Partner webhook, the map page, an agent channel's ``/api``,
``/metrics`` on the web app), plus what every app serves (``/media``, ``/health``). Its routes
are listed from the Starlette app itself, one sample path each, and put to each proxy file as
Caddy (``caddy adapt``) and nginx read it (``proxy_matchers``). ``deliverybot mcp`` serves MCP
over HTTP from a process and address of its own, not from this app, so it has no route here.

``/metrics`` is the one path the proxies must not pass: each instance is scraped at its own
address (docs/operators.md, "Metrics"), and through the proxy a scrape would reach either.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import pytest
from starlette.routing import BaseRoute, Mount, Route

from bot.config import Config
from bot.runtime import Runtime, Seams, add_metrics_route
from tests.deploy.conftest import DEPLOY
from tests.deploy.proxy_matchers import (
    PASSED,
    caddy_answer,
    caddy_json,
    caddy_site_routes,
    nginx_answer,
    nginx_locations,
)

TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"
METRICS_PATH = "/metrics"
CADDYFILES = ("Caddyfile", "Caddyfile.single")
# Paths no part of the bot serves: each proxy answers them itself.
NOT_THE_BOTS = (
    "/", "/admin", "/webapp", "/mediax/1", "/healthz", "/telegram/x", "/api", "/consoles"
)  # fmt: skip


def _everything_on(tmp_path: Path) -> Config:
    data = {
        "partner": {"base_url": "https://partner.example/api/v1", "api_key": "sk_live_" + "k" * 24},
        "telegram": {
            "token": TOKEN,
            "mode": "webhook",
            "secret_token": "telegram-secret-token-0123456789",
            "public_base_url": "https://bot.example.com",
        },
        "webhooks": {"enabled": True, "signing_secret": "whsec_" + "s" * 32},
        "operators": {"chat_ids": [-1001]},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "webapp": {"enabled": True},
        "console": {"enabled": True},
        "agents": {"channels": [{"name": "shop", "key": "shop-agent-key-0123456789abcdef"}]},
        "metrics": {"enabled": True, "token": "metrics-token-0123456789", "path": METRICS_PATH},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


def _sample_paths(routes: Iterable[BaseRoute], prefix: str = "") -> list[str]:
    """One concrete path for each route, parameters filled in, mounts entered."""
    paths: list[str] = []
    for route in routes:
        if isinstance(route, Mount):
            inner = route.routes
            mount = prefix + route.path
            paths += _sample_paths(inner, mount) if inner else [f"{mount}/app.js"]
        elif isinstance(route, Route):
            paths.append(prefix + _filled(route.path))
        else:
            raise AssertionError(f"a route this test cannot list: {route!r}")
    return paths


def _filled(path: str) -> str:
    """``/media/{token}`` as ``/media/token1``; a ``{name:path}`` parameter as two segments."""
    return re.sub(
        r"\{(\w+)(:\w+)?\}", lambda found: "a/b" if found[2] == ":path" else f"{found[1]}1", path
    )


@pytest.fixture
async def app_paths(tmp_path: Path) -> AsyncIterator[list[str]]:
    config = _everything_on(tmp_path)
    runtime = await Runtime.build(config, Seams(synchronous="NORMAL"))
    try:
        assert add_metrics_route(config, runtime)
        yield _sample_paths(runtime.web_app.routes)
    finally:
        await runtime.stop()


def test_the_sample_paths_cover_every_part(app_paths: list[str]) -> None:
    # The app really has every optional part on: a test of too few routes would prove nothing.
    for expected in ("/telegram", "/hooks/partner", "/media/token1", "/health", METRICS_PATH,
                     "/webapp/place", "/webapp/api/search", "/webapp/static/app.js",
                     "/api/conversations/conversation_id1/photos",
                     "/api/conversations/conversation_id1/handoff",
                     "/console", "/console/signin/token1", "/console/deliveries",
                     "/console/static/app.js"):  # fmt: skip
        assert expected in app_paths, app_paths


@pytest.mark.parametrize("name", CADDYFILES)
def test_caddy_passes_on_every_route(app_paths: list[str], name: str, tmp_path: Path) -> None:
    routes = caddy_site_routes(caddy_json(DEPLOY / name, tmp_path))
    answers = {path: caddy_answer(routes, path) for path in app_paths}
    missing = {p: a for p, a in answers.items() if a != PASSED and p != METRICS_PATH}
    assert missing == {}, f"{name} does not pass these on to the bot"
    assert answers[METRICS_PATH] == "answered 404"
    for path in NOT_THE_BOTS:
        assert caddy_answer(routes, path) == "answered 404", path


def test_nginx_passes_on_every_route(app_paths: list[str]) -> None:
    locations = nginx_locations((DEPLOY / "nginx.conf").read_text(encoding="utf-8"))
    answers = {path: nginx_answer(locations, path) for path in app_paths}
    missing = {p: a for p, a in answers.items() if a != PASSED and p != METRICS_PATH}
    assert missing == {}, "nginx.conf does not pass these on to the bot"
    assert answers[METRICS_PATH] != PASSED
    for path in NOT_THE_BOTS:
        assert nginx_answer(locations, path) != PASSED, path


def test_the_matchers_tell_passed_from_refused() -> None:
    # The readers themselves, on a file where one path is passed and one is not.
    site = """server { listen 443 ssl; location = /a { proxy_pass http://b; }
        location /p/ { proxy_pass http://b; } location ~ ^/r/[0-9]+$ { proxy_pass http://b; }
        location / { return 404; } }"""
    locations = nginx_locations(site)
    assert [nginx_answer(locations, p) for p in ("/a", "/p/x", "/r/12", "/a/", "/r/x")] == [
        PASSED, PASSED, PASSED, "answered here", "answered here"]  # fmt: skip
