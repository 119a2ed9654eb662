"""``deliverybot mcp``'s server: the MCP server for one channel, over stdio or streamable HTTP.

``bot.runtime.mcp_serving`` builds the same runtime as ``deliverybot run`` over the bot's own
store (the SQLite file or the shared PostgreSQL database that ``[storage]`` names), so
conversations, deliveries and events are the bot's, and serves it here. Its only background
job is the push to its MCP subscribers (``mcp_push``, on the runtime's scheduler): the relay,
the partner webhooks, the follow-up of creates whose answer was lost and the channels' event
webhooks belong to ``deliverybot run`` on the same config (with or without Telegram), so no
entry is worked by two processes and no customer is told twice. That process finds the lost
creates this one keeps (``bot.runtime.workers``), and the events it keeps reach this one's
subscribers (``mcp_push``). Operator alerts raised here are logged (it has no messenger).

Over streamable HTTP every request needs the channel's key (``Authorization: Bearer <key>``);
stdio is for an agent host that starts this process itself, so whoever can start it already
holds the config file.
"""

from __future__ import annotations

import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any, Literal

import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.agents.agents_wiring import AgentChannels
from bot.agents.api_errors import NO_KEY, UNKNOWN_KEY, send_json_error
from bot.agents.channel_keys import bearer_key
from bot.agents.mcp_push import EventPush
from bot.agents.mcp_tools import MAX_ARGUMENTS_BYTES, build_mcp_server
from bot.config import key_hash
from bot.settings import AgentChannel
from bot.web.body import NotJson, parse_json

log = logging.getLogger(__name__)
Transport = Literal["stdio", "streamable-http"]
MCP_PATH = "/mcp"  # where the SDK serves streamable HTTP
TOO_LARGE = f"the body is over {MAX_ARGUMENTS_BYTES} bytes"


@dataclass(frozen=True)
class McpListen:
    """Where the MCP server listens: stdio, or streamable HTTP on ``host``:``port``."""

    transport: Transport = "stdio"
    host: str = "127.0.0.1"
    port: int = 8765


class KeyGuard:
    """ASGI middleware: only requests carrying ``channel``'s key reach ``app``; the others get
    ``401`` in the JSON API's error envelope (``api_errors``). So do a path other than ``/mcp``
    (``404``) and a body over ``MAX_ARGUMENTS_BYTES`` (``413``), which the SDK would answer in
    plain text; its own answers (JSON-RPC errors) are JSON already. A POST's body is read here
    as every JSON door reads it (``bot.web.body.parse_json``): the SDK's parser takes ``NaN``,
    repeated keys and deep nesting, which the other doors refuse."""

    def __init__(self, app: ASGIApp, channel: AgentChannel) -> None:
        self._app = app
        self._channel = channel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            presented = bearer_key(headers.get(b"authorization", b"").decode("latin-1"))
            digest = key_hash(presented) if presented else ""
            if not hmac.compare_digest(digest, self._channel.key_sha256):
                message = UNKNOWN_KEY if presented else NO_KEY
                await send_json_error(send, 401, message, [(b"www-authenticate", b"Bearer")])
                return
            if scope["path"].rstrip("/") != MCP_PATH:
                await send_json_error(send, 404, f"the MCP server is at {MCP_PATH}")
                return
            declared = headers.get(b"content-length", b"")
            if declared.isdigit() and int(declared) > MAX_ARGUMENTS_BYTES:
                await send_json_error(send, 413, TOO_LARGE)
                return
            if scope["method"] == "POST":
                checked = await self._read_as_every_door(receive, send)
                if checked is None:
                    return
                receive = checked
        await self._app(scope, receive, send)

    async def _read_as_every_door(self, receive: Receive, send: Send) -> Receive | None:
        """The body read whole and checked as every JSON door checks it (``bot.web.body``),
        then handed on to the SDK (``receive`` replays it); None once refused: over
        ``MAX_ARGUMENTS_BYTES`` (413), or not JSON (400, JSON-RPC's parse error, as the SDK
        answers what its own parser refuses)."""
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left: nothing to answer
                return None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > MAX_ARGUMENTS_BYTES:
                await send_json_error(send, 413, TOO_LARGE)
                return None
        body = b"".join(chunks)
        try:
            parse_json(body)
        except NotJson as problem:
            log.info("MCP request refused: %s", problem)
            await _send_parse_error(send, str(problem))
            return None
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # what comes after the body: a disconnect
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return replay


async def _send_parse_error(send: Send, reason: str) -> None:
    """400 with JSON-RPC's parse error (-32700), the shape the SDK gives its own."""
    error = {"code": -32700, "message": f"Parse error: {reason}"}
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def mcp_http_app(server: MCPServer[Any], channel: AgentChannel, host: str) -> ASGIApp:
    """The streamable HTTP app (at ``/mcp``) behind ``channel``'s key."""
    app = server.streamable_http_app(host=host, max_request_body_size=MAX_ARGUMENTS_BYTES)
    return KeyGuard(app, channel)


def event_push(agents: AgentChannels, channel: AgentChannel) -> EventPush:
    """The push of ``channel``'s new events to its MCP subscribers: the events this process's
    bell rings and those other processes keep. A job (``bot.jobs``) the caller runs on its
    scheduler while it serves (``serve_mcp_channel``)."""
    return EventPush(agents.conversations, channel.name, agents.bell)


async def serve_mcp_channel(
    agents: AgentChannels, channel: AgentChannel, push: EventPush, listen: McpListen = McpListen()
) -> None:
    """Serve the MCP server for ``channel`` over ``agents`` until stopped, its subscriptions
    told of new events by ``push`` (``event_push``, running on the caller's scheduler)."""
    server = build_mcp_server(
        agents.conversations, channel.name, push, agents.handoffs, agents.quotes
    )
    if listen.transport == "stdio":
        await server.run_stdio_async()
    else:
        app = mcp_http_app(server, channel, listen.host)
        uvicorn_config = uvicorn.Config(
            app, host=listen.host, port=listen.port, log_level="warning"
        )
        await uvicorn.Server(uvicorn_config).serve()
