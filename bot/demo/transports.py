"""The wiring pieces of the in-process stack.

* ``AppSwitch``: the sandbox sends webhooks and downloads photos through one ASGI app that
  forwards to the bot's *current* web app, so the bot can be restarted under a running sandbox.
* ``StaleCapabilities``: answers the first ``GET /capabilities`` with some settings as they were
  before the business changed them, to replay what the spec's refresh rule is for: a bot whose
  cached copy is out of date sends a create the service refuses (``@stale`` in a transcript).
* ``loopback_resolver``: ``localhost`` is 127.0.0.1 without asking the system resolver.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from bot.sandbox.images import system_resolver


class AppSwitch:
    """An ASGI app that forwards every request to ``app`` (replaceable at any time)."""

    def __init__(self, app: ASGIApp | None = None) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.app is None:  # the bot is down (between a stop and a start)
            if scope["type"] == "http":
                await send({"type": "http.response.start", "status": 503, "headers": []})
                await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)


def set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    """``data["a"]["b"]["c"] = value`` for ``"a.b.c"``, making the tables on the way."""
    *tables, last = dotted.split(".")
    for name in tables:
        inner = data.get(name)
        if not isinstance(inner, dict):
            inner = data[name] = {}
        data = inner
    data[last] = value


class StaleCapabilities(httpx.AsyncBaseTransport):
    """Wraps ``inner``; the first ``times`` capabilities answers carry ``overrides``."""

    def __init__(
        self, inner: httpx.AsyncBaseTransport, overrides: Mapping[str, Any], *, times: int = 1
    ) -> None:
        self._inner = inner
        self._overrides = dict(overrides)
        self.left = times

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        is_capabilities = request.method == "GET" and request.url.path.endswith("/capabilities")
        if not (self.left and is_capabilities and response.status_code == 200):
            return response
        self.left -= 1
        body = json.loads(await response.aread())
        for dotted, value in self._overrides.items():
            set_path(body["capabilities"], dotted, value)
        headers = [
            (name, value)
            for name, value in response.headers.items()
            if name.lower() not in ("content-length", "content-encoding")
        ]
        return httpx.Response(200, headers=headers, content=json.dumps(body).encode())

    async def aclose(self) -> None:
        await self._inner.aclose()


async def loopback_resolver(host: str) -> list[str]:
    """``localhost`` (where the demo hosts photos) is loopback; other names ask the system."""
    if host.lower().rstrip(".") == "localhost":
        return ["127.0.0.1"]
    return await system_resolver(host)
