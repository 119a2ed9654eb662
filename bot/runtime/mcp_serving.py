"""``deliverybot mcp``: the same ``Runtime`` as ``deliverybot run``, without Telegram and without
background jobs, serving one agent channel as an MCP server (``bot.agents.mcp_command``)."""

from __future__ import annotations

from bot.agents.mcp_command import McpListen, serve_mcp_channel
from bot.config import Config
from bot.runtime.runtime import Runtime


async def serve_mcp(config: Config, channel_name: str, listen: McpListen) -> None:
    """Serve the MCP server for ``channel_name`` until stopped; ``LookupError`` when no
    ``[[agents.channels]]`` entry has that name."""
    runtime = await Runtime.build(config, telegram=False)
    try:
        agents, settings = runtime.agents, runtime.settings.agents
        channels = () if settings is None else settings.channels
        channel = next((c for c in channels if c.name == channel_name), None)
        if agents is None or channel is None:
            raise LookupError(f"no [[agents.channels]] entry is named {channel_name!r}")
        await runtime.start(workers=False)
        await serve_mcp_channel(agents, channel, listen)
    finally:
        await runtime.stop()
