"""``deploy/Caddyfile`` for real: Debian's caddy, with TLS, in front of two ``deliverybot run``.

The shipped Caddyfile is used as it is, with only its host and its two upstream addresses
replaced by this machine's (``localhost:<port>``: Caddy issues that certificate from its own
internal CA, whose root the clients here trust) and a global block keeping Caddy to the test
(admin endpoint off, its data in ``tmp_path``, free ports). Behind it, two instances in
headless mode (no Telegram: one agent channel) share the session's throwaway PostgreSQL
database and one ``media_dir``; the Partner sandbox runs in this process on loopback.

Through Caddy only, over https:

* an agent orders a pickup delivery with the JSON API (its photo uploaded, then downloaded by
  the sandbox from ``{public_base_url}/media/...``), the requests spread over both instances
  (each instance's own ``/metrics``, on an address of its own, counts the API requests it
  served: both served some), which share the channel's ``requests_per_minute`` through the
  database;
* the sandbox posts its signed webhooks (``/hooks/partner``) and the agent reads the events
  they carried over SSE, streamed through Caddy as they come;
* a text answer is compressed (gzip or zstd, as the client asks);
* bodies over the bot's own caps and paths the bot does not serve are refused by Caddy;
* with one instance stopped, the other serves everything: the API, the SSE stream and the
  webhooks (every event delivered: none lost on the stopped one). The stopped instance drains
  first (``[telegram] drain_seconds``, 5 s here for margin on a loaded machine; 0 for the
  other, stopped only at the end): its /health fails while it still serves, so Caddy's health
  check leaves it out before it closes. No webhook meets a closed instance, which Caddy 2.6
  would answer 502 (it retries a POST without its body, caddyserver/caddy#5454): every
  event's first attempt is taken, during the drain and after the stop.

Caddy 2.6 keeps an upstream SSE stream open after its client went away; a stopping instance
gives open connections ``serving.GRACEFUL_SHUTDOWN_SECONDS`` and then cuts them. The test
reads its stream after the stop, from the instance left, and stops Caddy before the
instances, so no stop here waits out that grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import ssl
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.partner.signing import SIGNATURE_HEADER, sign
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.sandbox.operations import API_PREFIX
from bot.store.pg_local_server import LocalPostgres, free_loopback_port
from tests.agents.conftest import LoopbackServer
from tests.deploy.conftest import DEPLOY, replaced, system_tool
from tests.e2e.real_instances import (
    Instance,
    start_instance,
    stop_instances,
    tail,
    wait_until_serving,
)
from tests.e2e.test_run_without_telegram import order_over_api

KEY = "caddy-agent-key-0123456789abcdef"
REQUESTS_PER_MINUTE = 60  # for both instances together (shared in the database)
START_TIMEOUT = 30.0
# The instance the test stops drains this long: Caddy checks /health every 2 s (timeout 1 s).
FIRST_DRAIN_SECONDS = 5.0


def caddyfile(https_port: int, http_port: int, data: Path, upstreams: list[int]) -> str:
    """The shipped Caddyfile on this machine's ports, with a global block for the test."""
    text = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    text = replaced(text, "bot.example.com {", f"localhost:{https_port} {{", count=1)
    addresses = " ".join(f"127.0.0.1:{port}" for port in upstreams)
    text = replaced(text, "reverse_proxy 10.0.0.11:8080 10.0.0.12:8080 {",
                    f"reverse_proxy {addresses} {{", count=1)  # fmt: skip
    global_options = f"""{{
	admin off
	grace_period 1s
	skip_install_trust
	http_port {http_port}
	https_port {https_port}
	storage file_system {data}
}}
"""
    return global_options + text


def bot_config(
    sandbox: Sandbox,
    dsn: str,
    port: int,
    media: Path,
    public: str,
    metrics_port: int,
    drain_seconds: float,
) -> str:
    return f"""
[partner]
base_url = "{sandbox.base_url}"
api_key = "{sandbox.api_key}"

[telegram]
listen_port = {port}
drain_seconds = {drain_seconds}
public_base_url = "{public}"

[webhooks]
enabled = true
signing_secret = "{sandbox.signing_secret}"

[storage]
backend = "postgres"
media_dir = "{media}"

[storage.postgres]
dsn = "{dsn}"
pool_size = 4

[[agents.channels]]
name = "shop"
key = "{KEY}"
requests_per_minute = {REQUESTS_PER_MINUTE}

[metrics]
enabled = true
listen_port = {metrics_port}
"""


class LateApp:
    """An ASGI app given later: the sandbox needs its server's address before it is built."""

    app: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


@dataclass
class Deployment:
    url: str  # Caddy's https address
    tls: ssl.SSLContext  # trusts Caddy's internal CA
    sandbox: Sandbox
    instances: list[Instance]
    logs: list[Path]
    metrics: list[str]  # each instance's own /metrics, reached directly (not through Caddy)


async def start_caddy(config: Path, log: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    with log.open("wb") as out:
        return await asyncio.create_subprocess_exec(
            system_tool("caddy"), "run", "--config", str(config), "--adapter", "caddyfile",
            cwd=config.parent, env=env, stdout=out, stderr=out,
        )  # fmt: skip


async def stop_caddy(caddy: asyncio.subprocess.Process) -> None:
    if caddy.returncode is None:
        caddy.send_signal(signal.SIGTERM)
        async with asyncio.timeout(15):
            await caddy.wait()


async def caddy_root(caddy: asyncio.subprocess.Process, data: Path, log: Path) -> ssl.SSLContext:
    """A TLS context trusting Caddy's internal CA, once Caddy has made it and serves with it."""
    root = data / "pki" / "authorities" / "local" / "root.crt"
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:  # a file another process writes: nothing to await
        if caddy.returncode is not None:
            pytest.fail(f"caddy exited:\n{tail(log)}")
        if root.exists():
            return ssl.create_default_context(cafile=str(root))
        await asyncio.sleep(0.1)
    pytest.fail(f"caddy made no CA root in {START_TIMEOUT} s:\n{tail(log)}")


async def wait_until_proxied(client: httpx.AsyncClient, log: Path) -> None:
    """Until Caddy answers /health over TLS from an instance (its certificate is issued)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError, ssl.SSLError):
            if (await client.get("/health")).status_code == 200:
                return
        await asyncio.sleep(0.1)
    pytest.fail(f"caddy did not serve /health over https:\n{tail(log)}")


@pytest.fixture
async def deployment(postgres_server: LocalPostgres, tmp_path: Path) -> AsyncIterator[Deployment]:
    dsn = await postgres_server.create_database("behind_caddy")
    https_port, http_port = free_loopback_port(), free_loopback_port()
    ports = [free_loopback_port(), free_loopback_port()]
    public = f"https://localhost:{https_port}"
    data = tmp_path / "caddy-data"
    config = tmp_path / "Caddyfile"
    config.write_text(caddyfile(https_port, http_port, data, ports), encoding="utf-8")
    caddy_log = tmp_path / "caddy.log"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path)}  # fmt: skip
    caddy = await start_caddy(config, caddy_log, env)
    instances: list[Instance] = []
    try:
        tls = await caddy_root(caddy, data, caddy_log)
        scenario = default_scenario_data()
        scenario["webhooks"][0]["url"] = f"{public}/hooks/partner"
        app = LateApp()
        server = LoopbackServer(app)
        sandbox = Sandbox(
            parse_scenario(scenario),
            base_url=f"{server.url}{API_PREFIX}",
            # The sandbox's webhooks and photo downloads go through Caddy, over TLS.
            webhook_transport=httpx.AsyncHTTPTransport(verify=tls),
            image_transport=httpx.AsyncHTTPTransport(verify=tls),
        )
        app.app = sandbox.app
        await sandbox.start()  # its webhooks go out as they fall due, as the service's do
        await server.start()
        try:
            logs = [tmp_path / f"bot{index}.log" for index in range(len(ports))]
            metrics_ports = [free_loopback_port() for _ in ports]
            drains = [FIRST_DRAIN_SECONDS] + [0.0] * (len(ports) - 1)
            for port, log, metrics_port, drain in zip(
                ports, logs, metrics_ports, drains, strict=True
            ):
                path = tmp_path / f"bot{port}.toml"
                media = tmp_path / "media"
                config_text = bot_config(sandbox, dsn, port, media, public, metrics_port, drain)
                path.write_text(config_text)
                instances.append(await start_instance(path, port, log))
            async with httpx.AsyncClient(timeout=10) as direct:
                for instance, log in zip(instances, logs, strict=True):
                    await wait_until_serving(instance, direct, log)
            metrics = [f"http://127.0.0.1:{port}/metrics" for port in metrics_ports]
            yield Deployment(public, tls, sandbox, instances, logs, metrics)
        finally:
            # Caddy first: it may still hold an SSE stream open on an instance, and a
            # stopping instance waits for its open streams (see the module docstring).
            await stop_caddy(caddy)
            await stop_instances(instances)
            await server.stop()
            await sandbox.aclose()
    finally:
        await stop_caddy(caddy)


async def streamed_events(api: httpx.AsyncClient, path: str, until: str) -> list[dict[str, Any]]:
    """The conversation's events as its SSE stream sends them, up to the first of ``until``."""
    events: list[dict[str, Any]] = []
    headers = {"Accept": "text/event-stream"}
    async with asyncio.timeout(20), api.stream("GET", path + "/events", headers=headers) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("data:"):
                events.append(json.loads(line.removeprefix("data:")))
                if events[-1].get("type") == until:
                    return events
    raise AssertionError(f"the stream ended before {until}: {events}")


async def api_requests_served(metrics_url: str) -> float:
    """How many JSON API requests one instance served, by its own ``/metrics``."""
    async with httpx.AsyncClient(timeout=10) as direct:
        exposition = (await direct.get(metrics_url)).text
    return sum(
        one.value
        for family in text_string_to_metric_families(exposition)
        for one in family.samples
        if one.name == "deliverybot_updates_total" and one.labels["channel"] == "api"
    )


async def both_serve(deployment: Deployment) -> bool:
    """Whether both instances served JSON API requests sent through Caddy.

    The order's requests usually reach both; but Caddy leaves an instance out while its
    /health check is late (1 s, easily missed on a loaded machine), so more requests are sent
    until both counted some, for up to ``START_TIMEOUT``: keyless ones, refused with 401 by
    whichever instance gets them (counted there, and spending no request budget).
    """
    deadline = time.monotonic() + START_TIMEOUT
    async with httpx.AsyncClient(base_url=deployment.url, verify=deployment.tls) as keyless:
        while time.monotonic() < deadline:
            served = [await api_requests_served(url) for url in deployment.metrics]
            if all(count > 0 for count in served):
                return True
            assert (await keyless.get("/api/conversations/none")).status_code == 401
            await asyncio.sleep(0.1)  # Caddy's health checks: nothing to await
    return False


async def refused_by_proxy(api: httpx.AsyncClient, path: str, size: int) -> bool:
    """Whether Caddy refused a body of `size` bytes before any instance got all of it.

    Caddy 2.6 (Debian 12's) answers 502 when its cap cuts a body off, 2.7 answers 413, and
    either may close the connection before its short answer is read when the client is still
    sending: all three are the proxy's refusal.
    """
    try:
        answer = await api.post(path, content=b"x" * size)
    except httpx.RemoteProtocolError:
        return True
    return answer.status_code in (413, 502)


async def test_caddy_serves_two_instances_over_tls(deployment: Deployment) -> None:
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(base_url=deployment.url, verify=deployment.tls,
                                 headers=headers, timeout=20) as api:  # fmt: skip
        await wait_until_proxied(api, deployment.logs[0])
        health = await api.get("/health")
        assert health.json()["ok"] is True
        assert health.headers.get("server") == "Caddy"  # it came through the proxy

        path, delivery_id = await order_over_api(api, "c-1")
        # A text answer comes compressed (the encode directive): gzip, read back by httpx, or
        # zstd, which httpx passes on as it came (no zstandard here): its frame's magic number.
        transcript = path + "/transcript"
        shown = await api.get(transcript, headers={"Accept-Encoding": "gzip"})
        assert shown.headers.get("content-encoding") == "gzip" and shown.json()
        shown = await api.get(transcript, headers={"Accept-Encoding": "zstd"})
        assert shown.headers.get("content-encoding") == "zstd"
        assert shown.content.startswith(b"\x28\xb5\x2f\xfd")
        await deployment.sandbox.drain_webhooks()
        created = deployment.sandbox.webhook_log()

        # A signature the bot does not know reaches it and is refused by it (not by Caddy).
        body = b'{"id": "evt_forged"}'
        forged_signature = {SIGNATURE_HEADER: sign(body, "whsec_forged", 1)}
        forged = await api.post("/hooks/partner", content=body, headers=forged_signature)
        assert forged.status_code == 400, forged.text
        # Caddy's own refusals: bodies over the bot's caps, and paths the bot does not serve.
        assert await refused_by_proxy(api, "/hooks/partner", 256 * 1024 + 1)
        assert await refused_by_proxy(api, "/api/conversations", 64 * 1024 + 1)
        assert (await api.get("/admin")).status_code == 404
        assert (await api.get("/health/../admin")).status_code == 404

        # Caddy spreads the requests over both instances (each counts its own).
        assert await both_serve(deployment), "one instance served no API request"

        # One instance stopped: it drains, then the other serves the API, its SSE and the
        # webhooks alone. The payment's webhooks go out while it drains and after it stopped.
        first = deployment.instances[0]
        first.process.send_signal(signal.SIGTERM)
        deployment.sandbox.mark_paid(delivery_id)
        during = await api.post("/api/conversations", json={"customer": "c-2"})
        assert during.status_code == 201, during.text
        async with asyncio.timeout(30):
            assert await first.process.wait() == 0
        assert "stopping: /health fails for 5 s" in deployment.logs[0].read_text()
        # Right after the stop no POST is answered 502: each reaches the instance left.
        for _ in range(4):
            forged = await api.post("/hooks/partner", content=body, headers=forged_signature)
            assert forged.status_code == 400, forged.text
        again = await api.post("/api/conversations", json={"customer": "c-3"})
        assert again.status_code == 201, again.text
        events = await streamed_events(api, path, "delivery.otp_issued")
        await deployment.sandbox.drain_webhooks()

        # The sandbox's signed webhooks all went through Caddy and were taken.
        attempts = deployment.sandbox.webhook_log()
        assert len(attempts) > len(created) > 0
        assert {a.url for a in attempts} == {f"{deployment.url}/hooks/partner"}
        # Each event taken at its first attempt: none met the stopped instance (a 502).
        retried = [a for a in attempts if a.attempt > 1]
        assert retried == []
        assert {(a.status_code, a.outcome) for a in attempts} == {(200, "delivered")}
        assert len({a.event_id for a in attempts}) == len(attempts)
        assert events[0]["type"] == "delivery.created"
        assert {e["delivery_id"] for e in events} == {delivery_id}
