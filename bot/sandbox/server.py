"""Run the sandbox standalone on loopback with uvicorn (``deliverybot sandbox``).

The sandbox's keys are public test values, so it only ever listens on a loopback address.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import sys
from types import TracebackType
from typing import TextIO

import httpx
import uvicorn

from bot.clocks import Sleep
from bot.sandbox.faults import ConnectionDropped
from bot.sandbox.operations import API_PREFIX
from bot.sandbox.sandbox import Sandbox
from bot.sandbox.scenario import Scenario

STARTUP_TIMEOUT_SECONDS = 10.0


class _HideInjectedDrops(logging.Filter):
    """uvicorn logs an app exception with a traceback; an injected drop is not a crash."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, ConnectionDropped)


def _require_loopback(host: str) -> None:
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"the sandbox only listens on loopback (127.0.0.1), not {host!r}")


class SandboxServer:
    """A ``Sandbox`` served by uvicorn on ``host:port`` (port 0 picks a free port).

    ``sleep`` is what latency faults wait with (real time by default).
    """

    def __init__(
        self,
        scenario: Scenario,
        host: str = "127.0.0.1",
        port: int = 8787,
        *,
        webhook_transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        _require_loopback(host)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP lets asyncio set TCP_NODELAY; without it each response waits ~40 ms.
        self._socket = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._socket.bind((host, port))
        except OSError:
            self._socket.close()
            raise
        bound_port = self._socket.getsockname()[1]
        url_host = f"[{host}]" if ":" in host else host
        self.sandbox = Sandbox(
            scenario,
            webhook_transport=webhook_transport,
            sleep=sleep,
            base_url=f"http://{url_host}:{bound_port}{API_PREFIX}",
        )
        config = uvicorn.Config(self.sandbox.app, log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._task: asyncio.Task[None] | None = None
        self._log_filter = _HideInjectedDrops()

    @property
    def base_url(self) -> str:
        return self.sandbox.base_url

    @property
    def open_connections(self) -> int:
        """Client connections open now; a client that has hung up is no longer counted."""
        return len(self._server.server_state.connections)

    async def __aenter__(self) -> SandboxServer:
        logging.getLogger("uvicorn.error").addFilter(self._log_filter)
        await self.sandbox.start()
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        # uvicorn offers no startup event; its ``started`` flag flips once it is listening.
        async with asyncio.timeout(STARTUP_TIMEOUT_SECONDS):
            while not self._server.started:
                if self._task.done():
                    await self._task
                    raise RuntimeError("the sandbox server stopped during startup")
                await asyncio.sleep(0.01)
        return self

    async def wait_closed(self) -> None:
        """Wait until the server stops (Ctrl+C, or ``stop``)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    def stop(self) -> None:
        self._server.should_exit = True

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._socket.close()
        await self.sandbox.aclose()
        logging.getLogger("uvicorn.error").removeFilter(self._log_filter)

    def banner(self) -> str:
        """What to print: where the API is and the scenario's (public, sandbox-only) secrets."""
        sandbox = self.sandbox
        lines = [
            f"Partner API sandbox: scenario {sandbox.scenario.name!r}",
            f"  base URL        {sandbox.base_url}",
        ]
        with contextlib.suppress(LookupError):
            lines.append(f"  API key         {sandbox.api_key}")
        with contextlib.suppress(LookupError):
            lines.append(f"  signing secret  {sandbox.signing_secret}")
        lines.append(f"  admin token     {sandbox.admin_token}   (for /sandbox/admin)")
        for endpoint in sandbox.scenario.webhooks:
            lines.append(f"  webhooks to     {endpoint.url}  ({', '.join(endpoint.events)})")
        lines.append("These are sandbox-only values. Press Ctrl+C to stop.")
        return "\n".join(lines)


async def serve(
    scenario: Scenario, host: str = "127.0.0.1", port: int = 8787, *, out: TextIO | None = None
) -> None:
    """Serve ``scenario`` until interrupted, after printing the base URL, key and secret."""
    async with SandboxServer(scenario, host, port) as server:
        print(server.banner(), file=out or sys.stdout, flush=True)
        await server.wait_closed()
