"""A console served by uvicorn on loopback, and a reader of its live list's event stream.

httpx's ASGI transport hands a response over only once it ends; a live stream never does,
so these tests read it over a real socket. The session cookie is ``Secure`` (kept only for
https): a stream is opened with the cookie a signed-in ``ConsoleSite`` client holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from bot.staff_console.console_guard import SESSION_COOKIE
from bot.staff_console.live_section import LiveSection
from tests.staff_console.console_site import ConsoleSite
from tests.support.served import loopback_socket, serve_on, stop_serving

WAIT = 10.0  # the longest a test waits for an event that must come


@dataclass
class LiveStream:
    """One open stream: its events as they come (``kind``, data), and whether it ended."""

    events: asyncio.Queue[tuple[str, dict[str, Any]]] = field(default_factory=asyncio.Queue)
    raw: list[str] = field(default_factory=list)
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    async def next(self, kind: str | None = None) -> tuple[str, dict[str, Any]]:
        """The next event (of ``kind``, skipping others), waiting at most ``WAIT``."""
        while True:
            found = await asyncio.wait_for(self.events.get(), WAIT)
            if kind is None or found[0] == kind:
                return found

    async def for_delivery(self, delivery_id: str) -> tuple[str, dict[str, Any]]:
        """The next event about ``delivery_id``."""
        while True:
            found = await self.next()
            if found[1].get("id") == delivery_id:
                return found


@dataclass
class Served:
    """The site's web app on loopback: ``base`` its address."""

    site: ConsoleSite
    base: str

    @property
    def live(self) -> LiveSection:
        assert self.site.core.console is not None
        return self.site.core.console.section(LiveSection)

    @contextlib.asynccontextmanager
    async def stream(
        self, signed_in: httpx.AsyncClient, query: str = ""
    ) -> AsyncIterator[LiveStream]:
        """The live stream of the list ``query`` filters, open once its first line came."""
        opened = LiveStream()
        cookie = signed_in.cookies.get(SESSION_COOKIE)
        headers = {"Cookie": f"{SESSION_COOKIE}={cookie}", "Accept": "text/event-stream"}
        started = asyncio.Event()

        async def read() -> None:
            try:
                async with (
                    httpx.AsyncClient(
                        base_url=self.base, timeout=httpx.Timeout(WAIT, read=None)
                    ) as c,
                    c.stream("GET", f"/console/deliveries/live{query}", headers=headers) as r,
                ):
                    assert r.status_code == 200, r.status_code
                    assert r.headers["content-type"].startswith("text/event-stream")
                    kind = ""
                    async for line in r.aiter_lines():
                        opened.raw.append(line)
                        started.set()
                        if line.startswith("event:"):
                            kind = line[6:].strip()
                        elif line.startswith("data:"):
                            opened.events.put_nowait((kind, json.loads(line[5:])))
            finally:
                opened.ended.set()
                started.set()

        task = asyncio.create_task(read())
        try:
            await asyncio.wait_for(started.wait(), WAIT)
            yield opened
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@contextlib.asynccontextmanager
async def served(site: ConsoleSite) -> AsyncIterator[Served]:
    """``site``'s web app served on a loopback port until the block ends."""
    sock = loopback_socket()
    server = await serve_on(sock, site.core.web_app, log_config=None, access_log=False)
    host, port = sock.getsockname()[:2]
    try:
        yield Served(site, f"http://{host}:{port}")
    finally:
        assert site.core.console is not None
        site.core.console.close_streams()  # as the runtime does before it stops serving
        await stop_serving(server, sock)
