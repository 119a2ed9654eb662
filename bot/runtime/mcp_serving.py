"""``deliverybot mcp``: the same ``Runtime`` as ``deliverybot run``, without Telegram, serving one
agent channel as an MCP server (``bot.agents.mcp_command``). Its scheduler runs one job only,
the push to the MCP subscribers: the bot's background jobs belong to ``deliverybot run``."""

from __future__ import annotations

from bot.agents.mcp_command import McpListen, event_push, serve_mcp_channel
from bot.config import Config
from bot.runtime.hosted import Hosted
from bot.runtime.runtime import Runtime
from bot.store import DEFAULT_BUSINESS


async def serve_mcp(
    config: Config, channel_name: str, listen: McpListen, *, business: str = DEFAULT_BUSINESS
) -> None:
    """Serve the MCP server for ``channel_name`` until stopped; ``LookupError`` when no
    ``[[agents.channels]]`` entry has that name. ``business``: whose (a host's business, by
    ``--business``)."""
    runtime = await Runtime.build(config, telegram=False, hosted=Hosted(business))
    try:
        agents, settings = runtime.agents, runtime.settings.agents
        channels = () if settings is None else settings.channels
        channel = next((c for c in channels if c.name == channel_name), None)
        if agents is None or channel is None:
            raise LookupError(f"no [[agents.channels]] entry is named {channel_name!r}")
        push = event_push(agents, channel)
        runtime.scheduler.add(push)  # not leader-only: every MCP process pushes to its own
        await runtime.start(workers=False)
        await serve_mcp_channel(agents, channel, push, listen)
    finally:
        await runtime.stop()
