"""``deliverybot run`` on a host file: every business of its directory behind one web server.

The host's web app (``HostApp``) listens on ``[server] listen_host``/``listen_port``; the
businesses are built on their first request and released when idle (``HostRuntime``); the
directory is watched for businesses added, changed and removed. The log's redaction follows
the businesses: each secret of every business served is kept out of every line, including a
business added later. ``[metrics] enabled`` serves the host's ``/metrics`` (``HostMetrics``)
on the web app or on an address of its own, behind ``[metrics] token`` when one is set.
SIGTERM drains as a single business does: ``/health`` fails for ``[server] drain_seconds``
while every request is still served, then the server and every business stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sqlite3
from dataclasses import replace
from typing import TYPE_CHECKING

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.config.host_loading import Host
from bot.hosting.announcements import Announcements
from bot.hosting.built_runtime import build_runtime_business, with_shared_tls
from bot.hosting.business_slot import BuiltBusiness
from bot.hosting.directory_scan import DirectoryScanner
from bot.hosting.host_metrics import HostMetrics
from bot.hosting.host_runtime import HostRuntime, Scan
from bot.hosting.hosted_business import HostedBusiness
from bot.metrics.endpoint import CONTENT_TYPE, bearer_matches
from bot.runtime.heap import freeze_start_up_heap
from bot.runtime.logs import RedactSecrets, configured_secrets, shared_secrets
from bot.runtime.serving import listen_web
from bot.seams import Seams
from bot.store import StoreError
from bot.store.waiting_work import waiting_in, waiting_in_sqlite
from conversations.texts.business_texts import SharedTexts

if TYPE_CHECKING:
    from bot.store.pg_host import PgHost

log = logging.getLogger(__name__)

Servers = list[tuple[uvicorn.Server, list[socket.socket]]]

WAKE_EVERY_SECONDS = 60.0
"""How often a host on PostgreSQL looks for work another instance left in businesses it has
not built."""


def host_runtime(
    host: Host,
    redaction: RedactSecrets,
    seams: Seams | None = None,
    *,
    pg_host: PgHost | None = None,
) -> HostRuntime:
    """The host's runtime, built from its file (``seams``: what a test or benchmark replaces
    for every business; ``pg_host``: the connections its businesses share when its store is
    PostgreSQL), not started."""
    assert host.businesses_dir is not None, "a host file names its businesses_dir"
    section = host.section
    metrics = HostMetrics(
        business_label=section.metrics_business_label, cap=section.metrics_business_label_cap
    )
    tls = httpx.create_ssl_context()  # one for every business (``with_shared_tls``)
    base = seams or Seams()
    # Businesses whose texts are equal read one set of catalogues (~170 KB each otherwise).
    shared_texts = base.shared_texts or SharedTexts()
    scanner = DirectoryScanner(host)
    host_secrets = shared_secrets(host.storage, host.metrics)

    async def scan() -> Scan:
        found = await scanner()
        served = (configured_secrets(b.config) for b in found.businesses.values())
        redaction.cover([*host_secrets, *(secret for each in served for secret in each)])
        return found

    async def build(business: HostedBusiness, announce: bool) -> BuiltBusiness:
        business_seams = replace(
            base, metrics=metrics.for_business(business.name), shared_texts=shared_texts
        )
        own = with_shared_tls(business_seams, tls)
        url = host.server.public_base_url
        return await build_runtime_business(
            business, announce, host_url=url, seams=own, pg_host=pg_host
        )

    async def waiting(business: HostedBusiness) -> int:
        storage = business.config.storage
        try:
            if pg_host is not None and storage.postgres is not None:
                return await waiting_in(pg_host.database(storage.postgres.db_schema))
            return await waiting_in_sqlite(storage.path)
        except (StoreError, OSError, sqlite3.Error) as exc:
            # A store never migrated has received nothing; any other trouble shows again at
            # the next look, or when the business is built.
            log.debug("business %s: its waiting work not read: %s", business.name, exc)
            return 0

    return HostRuntime(
        scan,
        build,
        Announcements(host.businesses_dir),
        idle_seconds=section.idle_seconds,
        watch_seconds=section.watch_seconds,
        metrics=metrics,
        waiting=waiting,
        # On PostgreSQL another instance may stop with work acknowledged: looked for every
        # minute. A SQLite host is one process: only its own last run can have left any.
        wake_every=None if pg_host is None else WAKE_EVERY_SECONDS,
    )


async def serve_host(host: Host, redaction: RedactSecrets) -> None:
    """Serve ``host``'s businesses until SIGINT or SIGTERM (see the module docstring)."""
    async with contextlib.AsyncExitStack() as stack:
        pg_host = None
        database = host.storage.shared_database
        if database is not None:
            from bot.store.pg_host import PgHost  # asyncpg only for a shared database

            dsn = database.dsn.get_secret_value()
            pg_host = await PgHost.connect(dsn, pool_size=database.pool_size)
            stack.push_async_callback(pg_host.close)  # after every business's store
        await _serve(host_runtime(host, redaction, pg_host=pg_host), host)


async def _serve(runtime: HostRuntime, host: Host) -> None:
    signals: asyncio.Queue[signal.Signals] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, signals.put_nowait, signum)
    servers: Servers = []
    try:
        metrics = host.metrics
        if metrics.enabled:
            token = None if metrics.token is None else metrics.token.get_secret_value()
            endpoint = _metrics_app(runtime, token)
            if metrics.own_address:
                assert metrics.listen_port is not None
                listen = (metrics.listen_host, metrics.listen_port)
                await listen_web(endpoint, *listen, servers, "[metrics]")
            else:
                runtime.app.serve_at(metrics.path, endpoint)
        listen = (host.server.listen_host, host.server.listen_port)
        web = await listen_web(runtime.app, *listen, servers, "[server]")
        await runtime.start()
        log.info(
            "deliverybot host started: %d businesses in %s, web app %s",
            len(runtime.businesses),
            host.businesses_dir,
            web,
        )
        # The parsed business files live as long as the process: out of the collector's sight.
        log.debug("start-up heap frozen: %d objects", freeze_start_up_heap())
        received = await signals.get()
        if received == signal.SIGTERM and host.server.drain_seconds > 0:
            runtime.drain()
            log.info("stopping: /health fails for %g s", host.server.drain_seconds)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(signals.get(), timeout=host.server.drain_seconds)
        log.info("stopping")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        for server, sockets in servers:
            await server.shutdown(sockets=sockets)
        await runtime.stop()


def _metrics_app(runtime: HostRuntime, token: str | None) -> Starlette:
    """The host's ``/metrics``, behind ``token`` when there is one."""
    expected = token.encode() if token else None

    async def metrics(request: Request) -> Response:
        if expected is not None and not bearer_matches(request, expected):
            headers = {"WWW-Authenticate": "Bearer"}
            return PlainTextResponse("Unauthorized", status_code=401, headers=headers)
        return Response(runtime.exposition(), media_type=CONTENT_TYPE)

    return Starlette(routes=[Route("/{path:path}", metrics, methods=["GET"])])
