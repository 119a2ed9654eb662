"""``AgentParts``: the JSON API, its events and their webhooks, added to the bot by
``build_core`` when ``[agents]`` lists channels.

``prepare`` comes before the core's services exist: the relay's channel becomes
``AgentRouting`` (agent conversations' events into the store) and ``deliver_later`` learns to
show a later turn to an agent conversation. ``finish`` comes after: the conversations service,
the routes, and the webhook sender woken by every kept event.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import httpx
from starlette.routing import BaseRoute

from bot.agents.agent_channel import AgentRouting, EventBell
from bot.agents.agent_routes import agent_routes
from bot.agents.channel_keys import AgentChannel, ChannelKeys, RateLimits
from bot.agents.event_webhooks import ChannelHook, EventWebhooks
from bot.agents.headless import HeadlessConversations
from bot.agents.photo_uploads import PhotoUploads
from bot.clocks import Clock
from bot.config import Config
from bot.ordering import ChatService, CustomerDesk
from bot.ordering.chats import DeliverLater
from bot.partner.client import PartnerClient
from bot.relay.channel_protocol import Channel
from bot.store import Store, is_agent_id
from conversations import Turn
from conversations.flow import FlowRegistry
from conversations.texts.agent_texts import AGENT_WORDS


@dataclass(frozen=True)
class AgentsSettings:
    """The channels, from ``[agents]`` (``from_config``) or made by a test."""

    channels: tuple[AgentChannel, ...]
    hooks: Mapping[str, ChannelHook] = field(default_factory=dict)
    # Where uploaded photos are served from (None: no uploads), and for how long.
    public_base_url: str | None = None
    media_ttl_seconds: float = 48 * 3600

    @classmethod
    def from_config(cls, config: Config) -> AgentsSettings | None:
        """None when no channel is configured: the bot then has no ``/api``."""
        agents = config.agents
        if not agents.configured:
            return None
        hooks = {
            channel.name: ChannelHook(
                channel.webhook_url, channel.webhook_secret.get_secret_value()
            )
            for channel in agents.configured
            if channel.webhook_url is not None and channel.webhook_secret is not None
        }
        channels = tuple(AgentChannel.from_config(channel) for channel in agents.configured)
        return cls(
            channels,
            hooks,
            public_base_url=config.telegram.public_base_url,
            media_ttl_seconds=config.storage.media_ttl_hours * 3600,
        )


class AgentParts:
    """See the module docstring; ``conversations``, ``routes`` and ``webhooks`` after
    ``finish``."""

    def __init__(
        self,
        settings: AgentsSettings,
        store: Store,
        channel: Channel,
        deliver_later: DeliverLater | None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.bell = EventBell()
        self.channel = AgentRouting(channel, store, self.bell)
        self._chat_later = deliver_later
        self._conversations: HeadlessConversations | None = None
        self.routes: list[BaseRoute] = []
        self.webhooks: EventWebhooks | None = None

    async def deliver_later(self, chat_id: int, turn: Turn) -> None:
        """``ChatService``'s later turn, to an agent conversation or to the chat channel."""
        if is_agent_id(chat_id):
            if self._conversations is not None:
                await self._conversations.deliver_later(chat_id, turn)
        elif self._chat_later is not None:
            await self._chat_later(chat_id, turn)

    def finish(
        self,
        chats: ChatService,
        client: PartnerClient,
        registry: FlowRegistry,
        *,
        phone_region: str,
        webhook_transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = time.time,
        look_seconds: float | None = None,
    ) -> None:
        desk = CustomerDesk(self.store, client, AGENT_WORDS, phone_region=phone_region, chats=chats)
        self._conversations = HeadlessConversations(self.store, chats, desk, registry)
        keys = ChannelKeys(self.settings.channels)
        uploads = PhotoUploads(
            self.store, self.settings.public_base_url, self.settings.media_ttl_seconds
        )
        self.routes = agent_routes(self._conversations, keys, RateLimits(), self.bell, uploads)
        self.webhooks = EventWebhooks(
            self.store,
            self.settings.hooks,
            transport=webhook_transport,
            clock=clock,
            look_seconds=look_seconds,
        )
        self.bell.on_ring(self.webhooks.wake)

    @property
    def conversations(self) -> HeadlessConversations:
        assert self._conversations is not None, "AgentParts.finish was not called"
        return self._conversations

    async def aclose(self) -> None:
        if self.webhooks is not None:
            await self.webhooks.aclose()
