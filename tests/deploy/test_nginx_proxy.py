"""``deploy/nginx.conf`` for real: Debian's nginx, with TLS, in front of two ``deliverybot run``.

The shipped site is used as it is, with only what a test must change replaced on its text (each
replacement must match, so a reshaped file fails here rather than being tested half-adapted):
the certificate paths (a throwaway self-signed certificate for 127.0.0.1, which the client
trusts), the listen ports (free loopback ports; the IPv6 listens dropped, as a test machine may
have no IPv6) and the two upstream addresses (the instances'). nginx runs from a throwaway main
configuration (its pid file, logs and temporary files in ``tmp_path``; ``user root`` when the
test runs as root, whose default ``nobody`` could not reach ``tmp_path``), as ``nginx -t`` does
in ``test_deploy_files``, and is stopped at the end.

Behind it, two instances of the multi-instance harness (``tests/e2e/real_instances``: webhook
mode against the fake Bot API, one PostgreSQL database) with the map page on and ``/metrics``
on the web app itself (behind its token). Through nginx only, over https:

* the map page (``/webapp/place``, HTML over 512 bytes, which the bot sends uncompressed) comes
  back gzip-compressed when the client accepts gzip, and decodes to the page sent without;
* ``/webapp/`` is passed on: the page carries the bot's own headers, and a path under it that
  the bot does not serve is the bot's 404, not nginx's;
* ``/metrics`` is not: nginx answers 404 itself, token or not, while each instance serves it
  at its own address (docs/operators.md, "Metrics");
* plain http is redirected to https, and the https server writes no access log.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import os
import signal
import ssl
import subprocess
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.store.pg_local_server import free_loopback_port
from tests.deploy.conftest import DEPLOY, replaced, system_tool
from tests.e2e.real_instances import Instance, deployment, tail

METRICS_TOKEN = "metrics-token-0123456789"
EXTRA = f"""
[webapp]
enabled = true

[metrics]
enabled = true
token = "{METRICS_TOKEN}"
"""
START_TIMEOUT = 30.0
LIVE = "/etc/letsencrypt/live/bot.example.com"
PAGE = "/webapp/place?chat=1"
GZIP_MAGIC = b"\x1f\x8b"


def site(https_port: int, http_port: int, cert: Path, key: Path, upstreams: list[int]) -> str:
    """The shipped site on this machine: its certificate, loopback ports and instances."""
    text = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    text = replaced(text, f"{LIVE}/fullchain.pem;", f"{cert};", count=1)
    text = replaced(text, f"{LIVE}/privkey.pem;", f"{key};", count=1)
    text = replaced(text, "    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n", count=1)
    text = replaced(text, "    listen [::]:80;\n", "", count=1)
    text = replaced(text, "    listen 443 ssl http2;\n",
                    f"    listen 127.0.0.1:{https_port} ssl http2;\n", count=1)  # fmt: skip
    text = replaced(text, "    listen [::]:443 ssl http2;\n", "", count=1)
    first, second = upstreams
    text = replaced(text, "server 10.0.0.11:8080 ", f"server 127.0.0.1:{first} ", count=1)
    text = replaced(text, "server 10.0.0.12:8080 ", f"server 127.0.0.1:{second} ", count=1)
    return text


def main_config(base: Path, site_file: Path) -> str:
    """A minimal main configuration including the site, everything nginx writes in ``base``."""
    # As root nginx's workers would run as ``nobody``, which cannot enter pytest's tmp_path.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
pid {base}/nginx.pid;
error_log {base}/error.log info;
worker_processes 1;
events {{
    worker_connections 64;
}}
http {{
    access_log {base}/access.log;
    client_body_temp_path {base}/client_body;
    proxy_temp_path {base}/proxy;
    include {site_file};
}}
"""


def self_signed(base: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 and its key (openssl)."""
    certificate, key = base / "cert.pem", base / "key.pem"
    made = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [system_tool("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(certificate)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return certificate, key


@dataclass
class Nginx:
    url: str  # https, on loopback
    http_url: str  # the plain http server (the redirect)
    tls: ssl.SSLContext  # trusts the throwaway certificate
    instances: list[Instance]
    base: Path  # its pid file, logs and temporary files


async def start_nginx(config: Path, base: Path) -> asyncio.subprocess.Process:
    with (base / "nginx.out").open("wb") as out:
        return await asyncio.create_subprocess_exec(
            system_tool("nginx"), "-e", str(base / "error.log"), "-p", str(base), "-c", str(config),
            stdout=out, stderr=out,
        )  # fmt: skip


async def stop_nginx(nginx: asyncio.subprocess.Process) -> None:
    """Fast shutdown (SIGTERM to the master, which stops its workers), SIGKILL after 15 s."""
    if nginx.returncode is not None:
        return
    nginx.send_signal(signal.SIGTERM)
    try:
        async with asyncio.timeout(15):
            await nginx.wait()
    except TimeoutError:
        nginx.kill()
        await nginx.wait()
        raise


async def wait_until_proxied(
    nginx: asyncio.subprocess.Process, client: httpx.AsyncClient, log: Path
) -> None:
    """Until nginx answers /health over TLS from an instance."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if nginx.returncode is not None:
            pytest.fail(f"nginx exited ({nginx.returncode}):\n{tail(log)}")
        with contextlib.suppress(httpx.HTTPError, ssl.SSLError):
            if (await client.get("/health")).status_code == 200:
                return
        await asyncio.sleep(0.1)  # another process's listening socket: nothing to await
    pytest.fail(f"nginx did not serve /health over https:\n{tail(log)}")


@pytest.fixture
async def behind_nginx(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Nginx]:
    base = tmp_path / "nginx"
    base.mkdir()
    certificate, key = self_signed(base)
    tls = ssl.create_default_context(cafile=str(certificate))
    async with deployment("postgres", tmp_path, request, extra=EXTRA) as world:
        instances = await world.start_many(2)
        https_port, http_port = free_loopback_port(), free_loopback_port()
        site_file = base / "site.conf"
        upstreams = [instance.port for instance in instances]
        site_file.write_text(site(https_port, http_port, certificate, key, upstreams), "utf-8")
        config = base / "nginx.conf"
        config.write_text(main_config(base, site_file), encoding="utf-8")
        nginx = await start_nginx(config, base)
        try:
            url = f"https://127.0.0.1:{https_port}"
            async with httpx.AsyncClient(base_url=url, verify=tls, timeout=10) as client:
                await wait_until_proxied(nginx, client, base / "error.log")
            # daemon off: the master is this test's child, the pid its pid file holds.
            assert int((base / "nginx.pid").read_text()) == nginx.pid
            yield Nginx(url, f"http://127.0.0.1:{http_port}", tls, instances, base)
        finally:
            await stop_nginx(nginx)


def nginx_404(answer: httpx.Response) -> bool:
    """Whether ``answer`` is nginx's own 404 page (the bot's 404 is not HTML from nginx)."""
    return answer.status_code == 404 and "<center>nginx" in answer.text


async def test_nginx_serves_two_instances_over_tls(behind_nginx: Nginx) -> None:
    site = behind_nginx
    async with httpx.AsyncClient(base_url=site.url, verify=site.tls, timeout=10) as client:
        health = await client.get("/health")
        assert health.json()["ok"] is True
        assert health.headers["server"].startswith("nginx")  # it came through the proxy

        # The map page, without compression and with gzip: nginx compresses it (the bot does
        # not: asked directly, it answers plain), and it decodes to the same page.
        plain = await client.get(PAGE, headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200, plain.text
        assert plain.headers["content-type"].startswith("text/html")
        assert "content-encoding" not in plain.headers
        assert len(plain.content) > 512  # nginx's gzip_min_length
        async with client.stream("GET", PAGE, headers={"Accept-Encoding": "gzip"}) as zipped:
            assert zipped.status_code == 200
            assert zipped.headers["content-encoding"] == "gzip"
            assert "Accept-Encoding" in zipped.headers["vary"]
            raw = b"".join([part async for part in zipped.aiter_raw()])
        assert raw.startswith(GZIP_MAGIC) and len(raw) < len(plain.content)
        assert gzip.decompress(raw) == plain.content
        for instance in site.instances:
            direct = await client.get(
                f"{instance.base_url}{PAGE}", headers={"Accept-Encoding": "gzip"}
            )
            assert direct.status_code == 200 and "content-encoding" not in direct.headers

        # /webapp/ is passed on: the bot's own headers on the page, the bot's 404 under it.
        assert plain.headers["content-security-policy"]
        assert plain.headers["cache-control"] == "no-store"
        unknown = await client.get("/webapp/nothing-here")
        assert unknown.status_code == 404 and not nginx_404(unknown), unknown.text
        assert unknown.headers["content-security-policy"]  # every answer under /webapp

        # /metrics is not: nginx answers it, even with the token each instance would take.
        bearer = {"Authorization": f"Bearer {METRICS_TOKEN}"}
        for headers in ({}, bearer):
            refused = await client.get("/metrics", headers=headers)
            assert nginx_404(refused), (refused.status_code, refused.text)
        for instance in site.instances:
            scraped = await client.get(f"{instance.base_url}/metrics", headers=bearer)
            assert scraped.status_code == 200 and "deliverybot_" in scraped.text

        # Plain http is sent to https; the https server logs nothing (a /media path is secret).
        async with httpx.AsyncClient(base_url=site.http_url, timeout=10) as plain_http:
            moved = await plain_http.get("/webapp/place", headers={"Host": "bot.example.com"})
        assert moved.status_code == 301
        assert moved.headers["location"] == "https://bot.example.com/webapp/place"
    logged = (site.base / "access.log").read_text(encoding="utf-8").splitlines()
    assert len(logged) == 1 and '"GET /webapp/place HTTP/1.1" 301' in logged[0], logged
