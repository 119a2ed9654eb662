"""``Runtime``: the bot's parts, built from one ``Config``, started and stopped together."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from starlette.applications import Starlette

from bot.bot_core import BotCore, open_store
from bot.config import Config
from bot.geo.nominatim import NominatimGeocoder
from bot.jobs import Scheduler
from bot.partner.client import PartnerClient
from bot.relay import Relay, StatusPoller
from bot.runtime.receiving import close_application, start_receiving, stop_receiving
from bot.runtime.seams import Seams
from bot.runtime.wiring import wire
from bot.runtime.workers import background_jobs
from bot.store import Store
from bot.telegram.application import BotApplication
from bot.telegram.bot_context import BotContext
from bot.telegram.conversation import Conversation

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    """The bot's parts; build with ``Runtime.build``. See ``bot.runtime``'s docstring."""

    config: Config
    store: Store
    core: BotCore
    ctx: BotContext
    application: BotApplication
    conversation: Conversation
    jobs: Scheduler | None = None

    @classmethod
    async def build(cls, config: Config, seams: Seams | None = None) -> Runtime:
        """Open the store and wire every part (nothing talks to Telegram yet)."""
        seams = seams or Seams()
        store = await open_store(config, seams.clock, seams.synchronous)
        try:
            parts = wire(config, seams, store)
        except BaseException:
            await store.close()
            raise
        return cls(config, store, parts.core, parts.ctx, parts.application, parts.conversation)

    @property
    def client(self) -> PartnerClient:
        """The Partner API client."""
        return self.core.client

    @property
    def relay(self) -> Relay:
        """The relay: inbox events to chat messages."""
        return self.core.relay

    @property
    def poller(self) -> StatusPoller | None:
        """The status poller, when partner webhooks are off."""
        return self.core.poller

    @property
    def web_app(self) -> Starlette:
        """The web app: partner webhooks, photos, and Telegram's webhook in webhook mode."""
        return self.core.web_app

    @property
    def serves_web(self) -> bool:
        """Whether the web app must listen: only a public host can be reached by anyone, but
        agent channels (``/api``) are often local programs."""
        return self.config.telegram.public_base_url is not None or bool(
            self.config.agents.configured
        )

    async def start(self, *, workers: bool = True) -> None:
        """Connect to Telegram, register the commands, and start receiving updates.

        ``workers`` starts the background jobs on their scheduler (``bot.runtime.workers``:
        the relay, the status poller, the follow-up of creates whose answer was lost, the agent
        webhooks, housekeeping); tests that drive the relay by hand pass False.
        Raises ``StartupError`` when Telegram refuses.
        """
        flows = self.conversation.flow_menu
        await start_receiving(self.application, self.config.telegram, self.ctx.operators, flows)
        if workers:
            idle = self.config.storage.session_idle_seconds
            self.jobs = background_jobs(self.core, self.store, session_idle_seconds=idle)
            self.jobs.start()

    async def stop(self) -> None:
        """Stop receiving, finish what runs, close everything. Safe after a failed start."""
        await stop_receiving(self.application)
        await self.conversation.close()  # albums still in their quiet window are answered
        if self.jobs is not None:
            await self.jobs.stop()
            self.jobs = None
        await self.core.aclose()
        await close_application(self.application)
        if isinstance(self.core.geocoder, NominatimGeocoder):
            await self.core.geocoder.aclose()
        await self.store.close()
