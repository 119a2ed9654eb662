"""``Runtime``: the bot's parts, built from one ``Config``, started and stopped as one stack.

Built in order, each part's undoing pushed on one ``AsyncExitStack`` as it is made: on SQLite
the hold on its file (``bot.store.sqlite_holders``: ``migrate-store`` refuses a held file),
the store, what each wanted channel needs before the core (PTB's Application for Telegram), the
core, then the channels: every starter of ``bot.runtime.channel_starters`` the config asks for
registers its channel, and when none of them is the messenger the log is. ``start`` pushes what
runs: each channel's ``running`` (Telegram connects and receives) and then the one
``Scheduler`` of the background jobs (``bot.jobs``).
``stop`` (or a failed build or start) unwinds the stack: what started is stopped in reverse.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from starlette.applications import Starlette

from bot.agents.agents_wiring import AgentChannels
from bot.agents.chatless_channel import log_messenger
from bot.bot_core import BotCore, build_core
from bot.config import Config
from bot.jobs import Scheduler
from bot.partner.client import PartnerClient
from bot.relay import Relay, StatusPoller
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS, SHIPPED_STARTERS, ChannelStarter
from bot.runtime.hosted import Hosted
from bot.runtime.startup_error import StartupError
from bot.runtime.wiring import TelegramChannel
from bot.runtime.workers import add_background_jobs
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import DEFAULT_BUSINESS, Store
from bot.store.sqlite_holders import SqliteFileHeld, held_by_this_process
from bot.store_from_config import open_store
from bot.telegram.application import BotApplication
from bot.telegram.bot_context import BotContext
from bot.telegram.conversation import Conversation

log = logging.getLogger(__name__)

_Part = TypeVar("_Part")


async def _hold_sqlite_file(path: Path, stack: contextlib.AsyncExitStack) -> None:
    """Mark ``path`` as held by a running bot until ``stack`` unwinds (``migrate-store``
    refuses a held file); raises ``StartupError`` while a copy of it is under way."""
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    try:
        stack.enter_context(held_by_this_process(path))
    except SqliteFileHeld as exc:
        raise StartupError(f"[storage] path: {exc}") from exc


@dataclass
class Runtime:
    """The bot's parts; build with ``Runtime.build``. See the module docstring."""

    config: Config
    settings: CoreSettings
    store: Store
    core: BotCore
    started: Mapping[str, object]  # what each started channel's starter handed back, by name
    scheduler: Scheduler
    _stack: contextlib.AsyncExitStack

    @classmethod
    async def build(
        cls,
        config: Config,
        seams: Seams | None = None,
        *,
        telegram: bool = True,
        channels: Sequence[ChannelStarter] = SHIPPED_STARTERS,
        hosted: Hosted | None = None,
    ) -> Runtime:
        """Open the store and wire every part (nothing talks to Telegram yet).

        Each of ``channels`` the config asks for is started (``ChannelStarter.wanted``):
        Telegram when the config has a token and ``telegram`` is True (``deliverybot mcp``
        passes False: its process never takes Telegram's updates), the agent channels when
        ``[[agents.channels]]`` lists some. A test passes its own starters besides. A business
        of a host (``bot.hosting``) is built ``hosted``.
        """
        seams = seams or Seams()
        hosted = hosted or Hosted(DEFAULT_BUSINESS)
        settings = replace(
            CoreSettings.from_config(config, telegram=telegram),
            announce=hosted.announce,
            telegram_webhook_url=hosted.telegram_webhook_url,
        )
        wanted = [starter for starter in channels if starter.wanted(config, telegram=telegram)]
        known = (*SHIPPED_CHANNEL_KINDS, *(starter.kind for starter in channels))
        stack = contextlib.AsyncExitStack()
        try:
            if config.storage.shared_database is None:  # one process's SQLite file
                await _hold_sqlite_file(config.storage.path, stack)
            store = await open_store(
                config.storage,
                seams.clock,
                seams.synchronous,
                channels=known,
                business=hosted.business,
                pg_host=hosted.pg_host,
            )
            stack.push_async_callback(store.close)
            registers = [await starter.open(config, seams, store, stack) for starter in wanted]
            core = build_core(settings, store, seams)
            stack.push_async_callback(core.aclose)
            if not any(starter.messenger for starter in wanted):
                core.register(log_messenger())  # what operators would be told is logged
            started = {
                starter.kind.name: register(core)
                for starter, register in zip(wanted, registers, strict=True)
            }
        except BaseException:
            await stack.aclose()
            raise
        # The one scheduler of every background job; leader-only ones ask the store who leads.
        scheduler = Scheduler.for_store(store, sleep=seams.sleep)
        return cls(config, settings, store, core, started, scheduler, stack)

    # --- what tests and benchmarks reach -----------------------------------------------------

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
        """The web app: partner webhooks, photos, each channel's routes (Telegram's webhook in
        webhook mode, the agents' ``/api``)."""
        return self.core.web_app

    @property
    def telegram(self) -> TelegramChannel | None:
        """The Telegram channel, when it started."""
        return _one(self.started.values(), TelegramChannel)

    @property
    def agents(self) -> AgentChannels | None:
        """The agent channels, when they started."""
        return _one(self.started.values(), AgentChannels)

    @property
    def application(self) -> BotApplication:
        """PTB's Application (a runtime with Telegram only)."""
        assert self.telegram is not None, "this runtime has no Telegram"
        return self.telegram.application

    @property
    def ctx(self) -> BotContext:
        """The Telegram handlers' context (a runtime with Telegram only)."""
        assert self.telegram is not None, "this runtime has no Telegram"
        return self.telegram.ctx

    @property
    def conversation(self) -> Conversation:
        """The Telegram conversation (a runtime with Telegram only)."""
        assert self.telegram is not None, "this runtime has no Telegram"
        return self.telegram.conversation

    @property
    def serves_web(self) -> bool:
        """Whether the web app must listen: only a public host can be reached by anyone, but
        agent channels (``/api``) are often local programs, and a bot without Telegram is
        reached only there."""
        return self.settings.public_base_url is not None or self.agents is not None

    # --- start and stop ----------------------------------------------------------------------

    async def start(self, *, workers: bool = True) -> None:
        """Start each channel (Telegram connects, registers its commands and receives updates)
        and then ``scheduler``: with ``workers`` it runs the background jobs
        (``bot.runtime.workers``: the core's, every channel's, housekeeping and retention),
        besides any job added to it by hand (``deliverybot mcp``'s push; tests that drive the
        relay by hand pass False). Raises ``StartupError`` when Telegram refuses; ``stop`` then
        undoes the rest, the jobs first.
        """
        for registration in self.core.channels:
            if registration.running is not None:
                await self._stack.enter_async_context(registration.running())
        if workers:
            add_background_jobs(
                self.scheduler, self.core, funnel_days=self.config.storage.funnel_days
            )
        await self._stack.enter_async_context(self.scheduler)
        if self.telegram is None:
            names = ", ".join(channel.name for channel in self.config.agents.configured)
            log.info("bot running without Telegram, for agent channels: %s", names)

    async def stop(self) -> None:
        """Stop what started and close what was built, in reverse. Safe after a failed start,
        and more than once."""
        await self._stack.aclose()


def _one(started: Iterable[object], wanted: type[_Part]) -> _Part | None:
    """The one started channel's part of type ``wanted``, or None."""
    return next((part for part in started if isinstance(part, wanted)), None)
