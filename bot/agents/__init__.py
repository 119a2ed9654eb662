"""Agent channels: the bot's ordering flows over a JSON API and as an MCP server.

=========================  =====================================================================
``HeadlessConversations``  the flows, the customer's deliveries and their events, as data
``prompt_data``            the open question as data, with a JSON Schema of allowed answers
``agent_routes``           the JSON API under ``/api`` (starlette), SSE for events
``ChannelKeys``            channel keys (hashed) to channels; ``RateLimits`` per channel
``AgentEvents``            the channels' ``Channel``: agent conversations' events into the store
``EventWebhooks``          each event POSTed, signed, to the channel's own webhook
``register_agents``        the ``agents`` channel on the core (``agents_wiring``)
``mcp_tools``              the MCP server (``deliverybot mcp``) over the same service
=========================  =====================================================================

``docs/agents.md`` shows an order through each. The wiring is imported from its module, not
from here: it stands on the core's services, which read the settings (``bot.settings``, where
``AgentChannel`` and ``ChannelHook`` are defined, handed on here).
"""

from bot.agents.channel_keys import ChannelKeys, RateLimits
from bot.agents.event_webhooks import SIGNATURE_HEADER, EventWebhooks
from bot.agents.headless import AgentNotFound, ConversationView, HeadlessConversations, UnknownFlow
from bot.settings import AgentChannel, ChannelHook

__all__ = [
    "SIGNATURE_HEADER",
    "AgentChannel",
    "AgentNotFound",
    "ChannelHook",
    "ChannelKeys",
    "ConversationView",
    "EventWebhooks",
    "HeadlessConversations",
    "RateLimits",
    "UnknownFlow",
]
