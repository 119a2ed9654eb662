"""``AgentChannels``: the JSON API, its events and their webhooks, registered on the core as
the ``agents`` channel when ``[agents]`` lists channels.

One step over the core's services (``register_agents``): the conversations service and its
desk, the ``/api`` routes, the ``AgentEvents`` channel that keeps what the relay sends an agent
conversation (they own the agent chat ids), the later turns shown to those conversations, the
rider on the map as ``rider_position`` events (``AgentRiderMap``), and the webhook sender,
woken by every kept event, as a background job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.agents.agent_channel import AgentEvents, EventBell
from bot.agents.agent_handoffs import AgentCustomers, AgentHandoffs
from bot.agents.agent_quotes import AgentQuotes
from bot.agents.agent_rider_map import AgentRiderMap
from bot.agents.agent_routes import agent_routes
from bot.agents.channel_keys import ChannelKeys, RateLimits
from bot.agents.event_webhooks import OTHER_INSTANCES_LOOK_SECONDS, EventWebhooks
from bot.agents.headless import HeadlessConversations
from bot.agents.photo_uploads import PhotoUploads
from bot.channel_kind import ChannelCapabilities, ChannelKind
from bot.channels import ChannelRegistration
from bot.chat_ref import AGENTS
from bot.core_services import CoreServices
from conversations.texts.agent_texts import AGENT_WORDS

AGENTS_KIND: Final = ChannelKind(
    AGENTS, lock_tag=2, capabilities=ChannelCapabilities(news_as_data=True)
)
"""The ``agents`` channel: an agent's app sends what its customer says as data, so nothing is
proven or drawn by the channel itself, and reads a delivery's news as data too."""


@dataclass(frozen=True)
class AgentChannels:
    """What ``register_agents`` made: the service every agent channel calls (the JSON API,
    ``deliverybot mcp``), the bell its events ring, and the webhook sender."""

    conversations: HeadlessConversations
    bell: EventBell
    webhooks: EventWebhooks
    handoffs: AgentHandoffs | None = None
    quotes: AgentQuotes | None = None


def register_agents(core: CoreServices) -> AgentChannels:
    """Build the agent channels ``core.settings.agents`` lists over ``core``, and register
    them on it."""
    store, settings, seams = core.store, core.settings, core.seams
    agents = settings.agents
    if agents is None:
        raise ValueError("no agent channel is configured ([[agents.channels]])")
    bell = EventBell()
    conversations = HeadlessConversations(store, core.chats, core.desk(AGENT_WORDS), core.registry)
    uploads = PhotoUploads(store, settings.public_base_url, settings.media_ttl_seconds)
    webhooks = EventWebhooks(
        store,
        agents.hooks,
        transport=seams.agent_webhook_transport,
        clock=seams.clock,
        look_seconds=OTHER_INSTANCES_LOOK_SECONDS if core.shared else None,
    )
    bell.on_ring(webhooks.wake)
    keys = ChannelKeys(agents.channels)
    limits = RateLimits(store.request_buckets)  # shared by every process on the store
    # An agent that cannot help hands its customer to staff; staff's words come back as events.
    handoffs = AgentHandoffs(core.handoffs, conversations)
    core.handoffs.serve(AGENTS, AgentCustomers(store, bell, conversations))
    # A fee set after the order is put to the customer; the agent sends back their choice.
    quotes = AgentQuotes(store, core.quotes(AGENT_WORDS), bell)
    core.register(
        ChannelRegistration(
            AGENTS_KIND,
            AgentEvents(store, bell),
            messenger=False,
            deliver_later=conversations.deliver_later,
            routes=agent_routes(
                conversations,
                keys,
                limits,
                bell,
                uploads,
                handoffs=handoffs,
                quotes=quotes,
                metrics=core.metrics,
            ),
            jobs=(webhooks,),
            aclose=webhooks.aclose,
            rider_map=AgentRiderMap(store, bell),
        )
    )
    return AgentChannels(conversations, bell, webhooks, handoffs, quotes)
