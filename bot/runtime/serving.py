"""``deliverybot run``: the runtime plus the web app served by uvicorn, until a signal."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket

import uvicorn
from starlette.applications import Starlette

from bot.config import Config
from bot.runtime.heap import freeze_start_up_heap
from bot.runtime.runtime import Runtime
from bot.runtime.startup_error import StartupError

log = logging.getLogger(__name__)

# How long open connections may hold a stop back before uvicorn cancels them: an agent's
# event stream that a proxy keeps open upstream would otherwise hold it until SIGKILL.
GRACEFUL_SHUTDOWN_SECONDS = 10


async def serve(config: Config) -> None:
    """Run the bot until SIGINT or SIGTERM (``deliverybot run``); without a Telegram token,
    for its agent channels only."""
    runtime = await Runtime.build(config)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    server: uvicorn.Server | None = None
    sockets: list[socket.socket] = []
    try:
        if runtime.serves_web:  # first: the /telegram route must answer once setWebhook is set
            sockets = [listening_socket(config.telegram.listen_host, config.telegram.listen_port)]
            server = await start_web_server(runtime.web_app, sockets)
        await runtime.start()
        log.debug("start-up heap frozen: %d objects", freeze_start_up_heap())
        await stopping.wait()
        log.info("stopping")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        if server is not None:
            await server.shutdown(sockets=sockets)
        await runtime.stop()


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


async def start_web_server(app: Starlette, sockets: list[socket.socket]) -> uvicorn.Server:
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
