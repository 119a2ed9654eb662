"""The standalone server: uvicorn on loopback, real sockets, and the start-up banner."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from bot.sandbox import default_scenario
from bot.sandbox.server import SandboxServer, serve

from .support import Receiver


async def test_serves_the_api_over_loopback() -> None:
    async with SandboxServer(default_scenario(), port=0) as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        headers = {"X-Api-Key": server.sandbox.api_key}
        async with httpx.AsyncClient(base_url=server.base_url, headers=headers) as client:
            response = await client.get("/capabilities")
            assert response.status_code == 200 and response.headers["RateLimit-Limit"] == "180"
            server.sandbox.inject_fault("list_riders", "drop")
            with pytest.raises(httpx.RemoteProtocolError):
                await client.get("/riders")
            assert (await client.get("/riders")).status_code == 200


def test_banner_shows_the_sandbox_credentials() -> None:
    server = SandboxServer(default_scenario(), port=0)
    try:
        banner = server.banner()
    finally:
        server._socket.close()
    assert server.base_url in banner
    assert "sk_live_SandboxLagosDemoKey0000000001" in banner
    assert "whsec_SandboxLagosDemoSecret0000000001" in banner
    assert "http://127.0.0.1:8080/hooks/partner" in banner


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.com"])  # noqa: S104
def test_only_loopback_hosts(host: str) -> None:
    with pytest.raises(ValueError, match="loopback"):
        SandboxServer(default_scenario(), host=host, port=0)


class Announcer(io.StringIO):
    """Output that signals when the banner has been written."""

    def __init__(self) -> None:
        super().__init__()
        self.written = asyncio.Event()

    def write(self, text: str) -> int:
        self.written.set()
        return super().write(text)


async def test_serve_prints_the_banner_and_runs_until_cancelled() -> None:
    out = Announcer()
    task = asyncio.create_task(serve(default_scenario(), port=0, out=out))
    await out.written.wait()
    text: Any = out.getvalue()
    assert "base URL        http://127.0.0.1:" in text and "API key" in text
    base_url = text.split("base URL", 1)[1].split()[0]
    async with httpx.AsyncClient() as client:
        response = await client.get(f"{base_url}/warehouses", headers={"X-Api-Key": "sk_test_x"})
    assert response.status_code == 403
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


class HeldSleep:
    """A latency fault's wait that lasts until the test releases it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.held: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.held.append(seconds)
        await self.release.wait()


async def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """A bounded wait for server state that uvicorn announces with no event (a lost client)."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def test_a_create_held_by_latency_lands_after_the_client_gave_up(
    errand_body: dict[str, Any], receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    held = HeldSleep()
    body = {**errand_body, "idempotencyKey": "late-landing-create-01"}
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addHandler(caplog.handler)  # uvicorn's loggers do not propagate to the root
    try:
        async with SandboxServer(
            default_scenario(), port=0, webhook_transport=receiver.transport, sleep=held
        ) as server:
            box = server.sandbox
            box.inject_fault("create_delivery", "latency", latency_seconds=30)
            headers = {"X-Api-Key": box.api_key}
            async with httpx.AsyncClient(base_url=server.base_url, headers=headers) as client:
                with pytest.raises(httpx.ReadTimeout):
                    await client.post("/deliveries", json=body, timeout=httpx.Timeout(5, read=0.1))
                assert held.held == [30] and box.deliveries() == []
                await wait_until(lambda: server.open_connections == 0)  # the server saw it go
                held.release.set()
                async with asyncio.timeout(5):
                    await receiver.arrived.wait()
                (delivery,) = box.deliveries()
                assert receiver.bodies()[0]["type"] == "delivery.created"
                assert receiver.bodies()[0]["data"]["object"]["id"] == delivery["id"]
                retry = await client.post("/deliveries", json=body)
            assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
            assert retry.json()["delivery"]["id"] == delivery["id"]
            assert len(box.deliveries()) == 1
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not any(r.exc_info for r in caplog.records)
