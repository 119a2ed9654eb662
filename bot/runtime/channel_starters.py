"""The channels ``deliverybot run`` may start, each one line of ``SHIPPED_STARTERS``.

A ``ChannelStarter`` says which channel it starts (its ``ChannelKind``), whether that channel
is a messenger, whether the config asks for it (``wanted``), and how: ``open`` builds what must
exist before the core (Telegram's PTB Application, over the store), its undoing pushed on the
runtime's stack, and returns the function that registers the channel on the built core and
hands back what tests and commands reach (``TelegramChannel``, ``AgentChannels``).
``Runtime.build`` starts every wanted one, and when none of them is the messenger, the log is
(``bot.agents.chatless_channel``): nothing in the runtime asks for a channel by its name.

``SHIPPED_CHANNEL_KINDS`` is every channel this bot knows, started here or not (the console of
the demo, the log): a store is told them all when it opens, since any process may lock a chat of
any of them (``bot.store.advisory_locks``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from bot.agents.agents_wiring import AGENTS_KIND, register_agents
from bot.agents.chatless_channel import LOG_KIND
from bot.bot_core import BotCore
from bot.channel_kind import ChannelKind
from bot.config import Config
from bot.console.console_kind import CONSOLE_KIND
from bot.runtime.whatsapp_wiring import register_whatsapp
from bot.runtime.wiring import TelegramBot, register_telegram
from bot.seams import Seams
from bot.store import Store
from bot.telegram.telegram_kind import TELEGRAM_KIND
from bot.whatsapp.whatsapp_kind import WHATSAPP_KIND

RegisterOn = Callable[[BotCore], object]
"""Registers a channel on the built core; returns what the runtime keeps of it."""


class ChannelStarter(Protocol):
    """A channel the runtime may start; see the module docstring."""

    @property
    def kind(self) -> ChannelKind:
        """The channel it starts."""
        ...

    @property
    def messenger(self) -> bool:
        """Whether its registration is the messenger (``ChannelRegistration.messenger``)."""
        ...

    def wanted(self, config: Config, *, telegram: bool) -> bool:
        """Whether ``config`` asks for the channel (``telegram`` False: not Telegram, whatever
        the config says: ``deliverybot mcp``)."""
        ...

    async def open(
        self, config: Config, seams: Seams, store: Store, stack: contextlib.AsyncExitStack
    ) -> RegisterOn:
        """What the channel needs before the core, undone by ``stack``; then its register."""
        ...


@dataclass(frozen=True)
class TelegramStarter:
    """Telegram, when ``[telegram]`` has a token."""

    kind: ChannelKind = TELEGRAM_KIND
    messenger: bool = True

    def wanted(self, config: Config, *, telegram: bool) -> bool:
        return telegram and config.has_telegram

    async def open(
        self, config: Config, seams: Seams, store: Store, stack: contextlib.AsyncExitStack
    ) -> RegisterOn:
        bot = TelegramBot.build(config.telegram, seams, store)
        stack.push_async_callback(bot.aclose)

        def register(core: BotCore) -> object:
            return register_telegram(
                core,
                bot,
                operators=frozenset(core.settings.operators),
                session_idle_seconds=config.privacy.drafts_seconds,
                webapp=config.webapp,
                webapp_url=config.webapp_url(),
            )

        return register


@dataclass(frozen=True)
class AgentsStarter:
    """The agent channels, when ``[[agents.channels]]`` lists some."""

    kind: ChannelKind = AGENTS_KIND
    messenger: bool = False

    def wanted(self, config: Config, *, telegram: bool) -> bool:
        return bool(config.agents.configured)

    async def open(
        self, config: Config, seams: Seams, store: Store, stack: contextlib.AsyncExitStack
    ) -> RegisterOn:
        return register_agents


@dataclass(frozen=True)
class WhatsAppStarter:
    """WhatsApp, when ``[whatsapp]`` has a ``phone_number_id``; the messenger only when
    Telegram is not (``bot.runtime.whatsapp_wiring``)."""

    kind: ChannelKind = WHATSAPP_KIND
    messenger: bool = True

    def wanted(self, config: Config, *, telegram: bool) -> bool:
        # ``telegram`` False is ``deliverybot mcp``: a process that takes no messenger's
        # updates, WhatsApp's included.
        return telegram and config.whatsapp.configured

    async def open(
        self, config: Config, seams: Seams, store: Store, stack: contextlib.AsyncExitStack
    ) -> RegisterOn:
        from bot.whatsapp.cloud_client import cloud_client  # pywa: only where WhatsApp runs

        cloud = cloud_client(config.whatsapp, transport=seams.whatsapp_transport)
        stack.push_async_callback(cloud.aclose)

        def register(core: BotCore) -> object:
            return register_whatsapp(core, config.whatsapp, cloud)

        return register


SHIPPED_STARTERS: Final[tuple[ChannelStarter, ...]] = (
    TelegramStarter(),
    WhatsAppStarter(),
    AgentsStarter(),
)
"""Every channel ``deliverybot run`` may start, in the order they register."""

SHIPPED_CHANNEL_KINDS: Final[tuple[ChannelKind, ...]] = (
    *(starter.kind for starter in SHIPPED_STARTERS),
    CONSOLE_KIND,  # the demo's
    LOG_KIND,  # the messenger when no started channel is one
)
"""Every channel this bot knows, whose chats a store may be asked to lock."""
