"""``HeadlessRuntime``: ``deliverybot run`` for a bot without Telegram (no ``[telegram] token``),
taking orders only through its agent channels (``[[agents.channels]]``).

The same core as with Telegram (``build_core``) over a ``ChatlessChannel``: the web app (partner
webhooks, ``/api``, ``/media``), the relay, the status poller, the follow-up of lost creates and
the agent webhooks run as they would beside PTB, which is never started. What would go to
Telegram operators is logged (WARNING, one line each).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from starlette.applications import Starlette

from bot.agents.chatless_channel import OPERATOR_LOG, ChatlessChannel, log_operator_alert
from bot.bot_core import BotCore, CoreSettings, build_core, core_seams_from_config, open_store
from bot.config import Config
from bot.geo.nominatim import NominatimGeocoder
from bot.jobs import Scheduler
from bot.runtime.seams import Seams
from bot.runtime.workers import background_jobs
from bot.store import Store
from conversations.texts.agent_texts import AGENT_WORDS

log = logging.getLogger(__name__)


@dataclass
class HeadlessRuntime:
    """The bot's parts without Telegram; build with ``HeadlessRuntime.build``."""

    config: Config
    store: Store
    core: BotCore
    jobs: Scheduler | None = None

    @classmethod
    async def build(cls, config: Config, seams: Seams | None = None) -> HeadlessRuntime:
        """Open the store and wire every part; of ``seams`` only the Partner API's and the
        geocoder's transports, the clock, the store's durability and the keys apply."""
        seams = seams or Seams()
        store = await open_store(config, seams.clock, seams.synchronous)
        try:
            # Operators' news goes to the log: the one operator chat is OPERATOR_LOG.
            settings = replace(CoreSettings.from_config(config), operators=(OPERATOR_LOG,))
            core = build_core(
                settings,
                store,
                ChatlessChannel(),
                AGENT_WORDS,
                seams=core_seams_from_config(
                    config,
                    partner_transport=seams.partner_transport,
                    geocoder_transport=seams.geocoder_transport,
                    clock=seams.clock,
                    new_idempotency_key=seams.new_idempotency_key,
                ),
                alert_operators=log_operator_alert,
            )
        except BaseException:
            await store.close()
            raise
        return cls(config, store, core)

    @property
    def web_app(self) -> Starlette:
        """The web app: partner webhooks, ``/api`` and ``/media``."""
        return self.core.web_app

    @property
    def serves_web(self) -> bool:
        """Always: the agent channels reach the bot only through its web app."""
        return True

    async def start(self, *, workers: bool = True) -> None:
        """Start the background work (``workers``; tests that drive it by hand pass False)."""
        if workers:
            idle = self.config.storage.session_idle_seconds
            self.jobs = background_jobs(self.core, self.store, session_idle_seconds=idle)
            self.jobs.start()
        names = ", ".join(channel.name for channel in self.config.agents.configured)
        log.info("bot running without Telegram, for agent channels: %s", names)

    async def stop(self) -> None:
        """Stop the background work and close everything."""
        if self.jobs is not None:
            await self.jobs.stop()
            self.jobs = None
        await self.core.aclose()
        if isinstance(self.core.geocoder, NominatimGeocoder):
            await self.core.geocoder.aclose()
        await self.store.close()
