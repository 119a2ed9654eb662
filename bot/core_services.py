"""``CoreServices``: the core (``bot.bot_core.BotCore``) as a channel adapter sees it.

An adapter takes this, not the core's module: channels sit beside the core, and neither
imports the other; the runtime (``bot.runtime``) builds the core and has each channel register.
"""

from __future__ import annotations

from typing import Protocol

from bot.channels import ChannelRegistration
from bot.handoff.desk import HandoffDesk
from bot.metrics.business_metrics import Metrics
from bot.ordering import ChatService, CustomerDesk
from bot.ordering.quote_desk import QuoteDesk
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from conversations.flow import FlowRegistry
from conversations.texts.desk_texts import ChannelWords


class CoreServices(Protocol):
    """The core as a channel adapter sees it: the services a channel draws, and ``register``.

    ``shared``: other processes work on the same store, so they may keep work for this one's
    jobs (which then look for it every so often); the scheduler (``bot.jobs``) runs a job
    that runs once for all in one of them. ``metrics``: the business's, where a channel counts
    its updates and sends.
    """

    @property
    def settings(self) -> CoreSettings: ...
    @property
    def seams(self) -> Seams: ...
    @property
    def store(self) -> Store: ...
    @property
    def client(self) -> PartnerClient: ...
    @property
    def cache(self) -> CapabilityCache: ...
    @property
    def chats(self) -> ChatService: ...
    @property
    def registry(self) -> FlowRegistry: ...
    @property
    def shared(self) -> bool: ...
    @property
    def handoffs(self) -> HandoffDesk: ...
    @property
    def metrics(self) -> Metrics: ...

    def desk(self, words: ChannelWords) -> CustomerDesk:
        """The customer desk (status, deliveries, cancel) answering in ``words``."""
        ...

    def quotes(self, words: ChannelWords) -> QuoteDesk:
        """Answers to the quote question (keep the order at its fee, or cancel it)."""
        ...

    def register(self, registration: ChannelRegistration) -> None:
        """Add a channel: its chats, routes, jobs and what runs with the bot."""
        ...
