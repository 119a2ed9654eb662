"""``deliverybot run``: the runtime plus the web app served by uvicorn, until a signal.

SIGTERM (systemd, a redeploy) first drains: for ``[server] drain_seconds`` ``/health``
answers 503 while every other request is still served, so a proxy's active health checks take
the instance out of rotation before its listener closes; a request the proxy sends meanwhile is
answered, not refused. SIGINT (Ctrl-C), or a second signal during the drain, stops at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
import socket
import time

import uvicorn
from starlette.applications import Starlette
from starlette.types import ASGIApp

from bot.config import Config
from bot.metrics.endpoint import MetricsEndpoint
from bot.runtime.heap import freeze_start_up_heap
from bot.runtime.runtime import Runtime
from bot.runtime.start_line import start_line
from bot.runtime.startup_error import StartupError
from bot.web.health import mark_stopping

log = logging.getLogger(__name__)

# How long open connections may hold a stop back before uvicorn cancels them: an agent's
# event stream that a proxy keeps open upstream would otherwise hold it until SIGKILL.
GRACEFUL_SHUTDOWN_SECONDS = 10


async def serve(config: Config) -> None:
    """Run the bot until SIGINT or SIGTERM (``deliverybot run``); without a Telegram token,
    for its agent channels only. With ``[metrics] enabled``, the business's metrics (recorded
    from the start: its core built them) are served at ``[metrics] path``, on the web app or
    on an address of their own. SIGTERM drains first (see the module docstring)."""
    runtime = await Runtime.build(config)
    signals: asyncio.Queue[signal.Signals] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, signals.put_nowait, signum)
    servers: list[tuple[uvicorn.Server, list[socket.socket]]] = []
    try:
        metrics_on_web = add_metrics_route(config, runtime)
        web = metrics = None
        if runtime.serves_web or metrics_on_web:  # first: /telegram answers once setWebhook is set
            listen = (config.server.listen_host, config.server.listen_port)
            section = config.server_key("listen_port").partition(" ")[0]  # as the file says
            web = await listen_web(runtime.web_app, *listen, servers, section)
            metrics = f"{web}{config.metrics.path}" if metrics_on_web else None
        if config.metrics.enabled and config.metrics.listen_port is not None:
            app = Starlette(routes=[_metrics_endpoint(config, runtime).route(config.metrics.path)])
            listen = (config.metrics.listen_host, config.metrics.listen_port)
            metrics = f"{await listen_web(app, *listen, servers, '[metrics]')}{config.metrics.path}"
        await runtime.start()
        names = [registration.name for registration in runtime.core.channels]
        line, args = start_line(config, names, web, metrics)
        log.info(line, *args)
        log.debug("start-up heap frozen: %d objects", freeze_start_up_heap())
        received = await signals.get()
        if received == signal.SIGTERM and web is not None:
            await _drain(runtime.web_app, config.server.drain_seconds, signals)
        log.info("stopping")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        if runtime.core.console is not None:  # its live streams would hold the stop back
            runtime.core.console.close_streams()
        for server, sockets in servers:
            await server.shutdown(sockets=sockets)
        await runtime.stop()


async def _drain(app: Starlette, seconds: float, signals: asyncio.Queue[signal.Signals]) -> None:
    """Fail ``app``'s ``/health`` for ``seconds`` (0: not at all), still serving the rest; a
    further signal cuts it short."""
    if seconds <= 0:
        return
    log.info("stopping: /health fails for %g s so the proxy stops sending requests here", seconds)
    mark_stopping(app)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(signals.get(), timeout=seconds)


def add_metrics_route(config: Config, runtime: Runtime) -> bool:
    """Serve ``[metrics] path`` on the runtime's web app when metrics are on and have no
    address of their own; whether it did. (``serve`` does it; so does the test that checks
    the proxy files against the web app's routes.)"""
    if not config.metrics.enabled or config.metrics.own_address:
        return False
    endpoint = _metrics_endpoint(config, runtime)
    runtime.web_app.router.routes.append(endpoint.route(config.metrics.path))
    return True


def _metrics_endpoint(config: Config, runtime: Runtime) -> MetricsEndpoint:
    token = config.metrics.token
    secret = None if token is None else token.get_secret_value()
    return MetricsEndpoint(runtime.store, runtime.core.metrics, token=secret, clock=time.time)


async def listen_web(
    app: ASGIApp,
    host: str,
    port: int,
    servers: list[tuple[uvicorn.Server, list[socket.socket]]],
    table: str,
) -> str:
    """Serve ``app`` on ``host:port`` (added to ``servers``, stopped by the caller); returns
    its address as a URL. ``table`` is the config's table of that address: a port that cannot
    be had is a ``StartupError`` naming the key to change."""
    try:
        sockets = [listening_socket(host, port)]
    except OSError as exc:
        raise StartupError(_unavailable(exc, host, port, table)) from exc
    try:
        servers.append((await start_web_server(app, sockets), sockets))
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _unavailable(exc: OSError, host: str, port: int, table: str) -> str:
    """Why ``host:port`` could not be listened on, naming the config key to look at."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"{table} listen_port: port {port} on {host} is already in use (another program, or "
            "another deliverybot, listens there): stop it or choose another port"
        )
    if exc.errno == errno.EACCES:
        return (
            f"{table} listen_port: port {port} needs privileges this user lacks: use 1024 or above"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{table} listen_host: {host} is not an address of this machine"
    if isinstance(exc, socket.gaierror):
        return f"{table} listen_host: {host} cannot be resolved ({exc.strerror})"
    return (
        f"{table} listen_host, listen_port: cannot listen on {host}:{port} ({exc.strerror or exc})"
    )


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound TCP socket for uvicorn.

    Made with ``IPPROTO_TCP`` on purpose: asyncio sets TCP_NODELAY only on sockets that say
    they are TCP, and without it small answers wait ~40 ms for a delayed ACK.
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


async def start_web_server(app: ASGIApp, sockets: list[socket.socket]) -> uvicorn.Server:
    """uvicorn serving ``app`` on ``sockets``, without taking over the process's signals.

    No access log: ``/media/<token>`` paths are capabilities, and what reaches the bot is
    logged by the routes themselves.
    """
    config = uvicorn.Config(
        app,
        lifespan="off",
        ws="none",
        log_config=None,
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )
    server = uvicorn.Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)
    await server.startup(sockets=sockets)
    if server.should_exit:  # uvicorn reports a failed start this way, not by raising
        raise StartupError("the web app could not start listening")
    return server
