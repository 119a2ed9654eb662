"""``deliverybot mcp``: the MCP server for one channel, over stdio or streamable HTTP.

It opens the bot's own store (the SQLite file or the shared PostgreSQL database that
``[storage]`` names) and builds the same core as ``deliverybot run`` (``build_core``),
so conversations, deliveries and events are the bot's. Its only background job is the push to
its MCP subscribers (``mcp_push``, on a ``bot.jobs`` scheduler): the relay, the partner
webhooks, the follow-up of creates whose answer was lost and the channels' event webhooks
belong to ``deliverybot run`` on the same config (with or without Telegram), so
no entry is worked by two processes and no customer is told twice. That process finds the
lost creates this one keeps (``bot.runtime.workers``), and the events it keeps reach this
one's subscribers (``mcp_push``). Operator alerts raised here are logged.

Over streamable HTTP every request needs the channel's key (``Authorization: Bearer <key>``);
stdio is for an agent host that starts this process itself, so whoever can start it already
holds the config file.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import time
from typing import Any, Literal

import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

from bot.agents.channel_keys import AgentChannel, bearer_key
from bot.agents.chatless_channel import ChatlessChannel, log_operator_alert
from bot.agents.mcp_push import EventPush
from bot.agents.mcp_tools import build_mcp_server
from bot.bot_core import BotCore, CoreSettings, build_core, core_seams_from_config, open_store
from bot.config import Config, key_hash
from bot.geo.nominatim import NominatimGeocoder
from bot.jobs import Scheduler
from conversations.texts.agent_texts import AGENT_WORDS

log = logging.getLogger(__name__)
Transport = Literal["stdio", "streamable-http"]


class KeyGuard:
    """ASGI middleware: only requests carrying ``channel``'s key reach ``app``."""

    def __init__(self, app: ASGIApp, channel: AgentChannel) -> None:
        self._app = app
        self._channel = channel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            presented = bearer_key(headers.get(b"authorization", b"").decode("latin-1"))
            digest = key_hash(presented) if presented else ""
            if not hmac.compare_digest(digest, self._channel.key_sha256):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": b""})
                return
        await self._app(scope, receive, send)


def mcp_http_app(server: MCPServer[Any], channel: AgentChannel, host: str) -> ASGIApp:
    """The streamable HTTP app (at ``/mcp``) behind ``channel``'s key."""
    return KeyGuard(server.streamable_http_app(host=host), channel)


async def serve_mcp(
    config: Config,
    channel_name: str,
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
) -> None:
    """Serve the MCP server for ``channel_name`` until stopped."""
    settings = CoreSettings.from_config(config)
    agents = settings.agents
    channel = (
        None
        if agents is None
        else next((c for c in agents.channels if c.name == channel_name), None)
    )
    if channel is None:
        raise LookupError(f"no [[agents.channels]] entry is named {channel_name!r}")
    async with contextlib.AsyncExitStack() as opened:  # closed in reverse, on any exit
        store = await open_store(config, time.time)
        opened.push_async_callback(store.close)
        seams = core_seams_from_config(config)
        if isinstance(seams.geocoder, NominatimGeocoder):
            opened.push_async_callback(seams.geocoder.aclose)
        core = build_core(
            settings,
            store,
            ChatlessChannel(),
            AGENT_WORDS,
            seams=seams,
            alert_operators=log_operator_alert,
        )
        opened.push_async_callback(core.aclose)
        await _serve(core, channel, transport, host, port)


async def _serve(
    core: BotCore, channel: AgentChannel, transport: Transport, host: str, port: int
) -> None:
    assert core.agents is not None  # the config names the channel
    push = EventPush(core.agents.conversations, channel.name, core.agents.bell)
    jobs = Scheduler()  # MCP push only: not leader-only, every MCP process pushes its own
    jobs.add(push)
    async with jobs:
        server = build_mcp_server(core.agents.conversations, channel.name, push)
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            app = mcp_http_app(server, channel, host)
            uvicorn_config = uvicorn.Config(app, host=host, port=port, log_level="warning")
            await uvicorn.Server(uvicorn_config).serve()
