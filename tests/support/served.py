"""uvicorn serving a test's ASGI app on a loopback socket, started and stopped without pauses.

uvicorn's ``serve()`` runs a main loop that looks at its exit flag every 0.1 s (a stop waits
for the next look), takes over the process's signal handlers, and has no start-up event (a test
would poll its ``started`` flag); its ``shutdown()`` pauses 0.1 s for open connections to wind
down before waiting for them. The tests start and stop such servers by the thousand, mostly
after their clients have gone, so ``serve_on`` calls ``startup()`` directly (as
``bot.runtime.serving`` does) and ``stop_serving`` closes at once when no connection or request
is left, leaving the rest to uvicorn's own ``shutdown()``.
"""

from __future__ import annotations

import socket
from typing import Any

import uvicorn


def loopback_socket() -> socket.socket:
    """A TCP socket bound to a free port on 127.0.0.1.

    ``IPPROTO_TCP`` on purpose: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
    and without it every keep-alive answer waits ~40 ms for a delayed ACK.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    return sock


async def serve_on(sock: socket.socket, app: Any, **options: Any) -> uvicorn.Server:
    """uvicorn serving ``app`` on ``sock``, listening when this returns; ``options`` go to
    ``uvicorn.Config`` (``lifespan`` is "off" unless given). ``sock`` is closed if it fails."""
    config = uvicorn.Config(app, **{"lifespan": "off", **options})
    server = uvicorn.Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)
    try:
        await server.startup(sockets=[sock])
        if server.should_exit:  # how uvicorn reports a start that failed, not by raising
            raise RuntimeError(f"uvicorn could not serve on {sock.getsockname()}")
    except BaseException:
        sock.close()
        raise
    return server


async def stop_serving(server: uvicorn.Server, sock: socket.socket) -> None:
    """Stop serving and close ``sock``: at once when nothing is open, else uvicorn's way."""
    state = server.server_state
    if state.connections or state.tasks:
        await server.shutdown(sockets=[sock])
        return
    # No await between the check and the close: no connection can be accepted in between.
    for listener in server.servers:
        listener.close()
    sock.close()
    for listener in server.servers:
        await listener.wait_closed()
    if not server.force_exit:
        await server.lifespan.shutdown()
