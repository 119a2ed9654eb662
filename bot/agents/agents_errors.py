"""Every error the agent channels raise on purpose, as one tree.

::

    AgentsError                   anything an agent door refuses (the JSON API, the MCP server)
    ├── AgentRequestRefused       400: a body or parameter the route does not take (agent_routes)
    ├── AgentValueUnkeepable      422: JSON holding a value the bot cannot keep (agent_routes)
    ├── AgentMediaTypeRefused     415: a Content-Type the route does not take (agent_routes)
    ├── AgentNotFound             no such conversation or delivery for this channel (headless)
    ├── UnknownFlow               the flow named is not one the bot offers (headless)
    ├── UploadRefused             a photo that was not taken (photo_uploads)
    ├── CustomerBlocked           403 customer_blocked: an operator blocked the customer
    └── CustomerOverLimit         429 customer_limit: over one of ``[limits]``

Each door maps these once to its own answer (``agent_routes.guarded``: a JSON envelope with
a status; ``mcp_tools``: a tool error). A lower layer's error (a body ``bot.web`` refused)
becomes one of them where the door reads it, with ``raise ... from exc``.
"""

from __future__ import annotations


class AgentsError(Exception):
    """Base of every error the agent channels raise on purpose."""
