"""A test-only channel, whole in this one module: what a new channel brings, and nothing else.

Its kind (name, chat lock tag, capabilities), its own words, the model of its config table
(``[channels.probe]``), its sender (what reaches its chats, recorded), its customers' side (their
answers taken to the core's chat service) and its starter, which the runtime runs when the config
has its table. ``tests/channels/test_probe_channel.py`` registers it with one line and orders a
delivery through it; it touches no module of ``bot/``.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Final

from pydantic import Field, ValidationError

from bot.bot_core import BotCore
from bot.channel_kind import ChannelCapabilities, ChannelKind
from bot.channels import ChannelRegistration
from bot.chat_ref import ChatRef
from bot.config import Config
from bot.config.section import Section
from bot.runtime import StartupError
from bot.runtime.channel_starters import RegisterOn
from bot.seams import Seams
from bot.store import Store
from conversations import Turn
from conversations.dialog import Answer
from conversations.texts.catalogue import ChannelTexts

PROBE_KIND: Final = ChannelKind(
    "probe",
    lock_tag=42,
    capabilities=ChannelCapabilities(
        proves_phone=True, buttons_per_message=3, live_locations=False, message_length=500
    ),
)

PROBE_TEXTS: Final = ChannelTexts(
    "probe",
    {
        "en": {"probe.greeting": "Probe here, for {business}."},
        "fr": {"probe.greeting": "Ici la sonde, pour {business}."},
    },
)


class ProbeSection(Section):
    """``[channels.probe]``: the one key the probe needs."""

    business: str = Field(min_length=1)


class ProbeSender:
    """The probe's ``Channel``: what reaches each of its chats, recorded in order."""

    def __init__(self) -> None:
        self.sent: defaultdict[ChatRef, list[str]] = defaultdict(list)

    async def send(self, chat: ChatRef, text: str) -> int:
        self.sent[chat].append(text)
        return len(self.sent[chat])

    def otp_link(self, token: str) -> str:
        return ""  # not a messenger: receivers claim codes elsewhere


class ProbeChannel:
    """The probe's customers' side over the core: chat ``n`` is customer ``n``'s."""

    def __init__(self, core: BotCore, section: ProbeSection) -> None:
        self.section = section
        self.chats = core.chats
        self.sender = ProbeSender()
        self.later: list[tuple[ChatRef, Turn]] = []

    def chat(self, number: int) -> ChatRef:
        return ChatRef(PROBE_KIND.name, number)

    async def start(self, number: int) -> Turn:
        chat = self.chat(number)
        return await self.chats.start(chat, chat.user(number))

    async def answer(self, number: int, answer: Answer) -> Turn:
        chat = self.chat(number)
        return await self.chats.handle(chat, chat.user(number), answer)

    async def deliver_later(self, chat: ChatRef, turn: Turn) -> None:
        self.later.append((chat, turn))

    def registration(self) -> ChannelRegistration:
        return ChannelRegistration(
            PROBE_KIND,
            self.sender,
            messenger=False,
            deliver_later=self.deliver_later,
            texts=(PROBE_TEXTS,),
        )


@dataclass(frozen=True)
class ProbeStarter:
    """Starts the probe when the config has a ``[channels.probe]`` table."""

    kind: ChannelKind = PROBE_KIND
    messenger: bool = False

    def wanted(self, config: Config, *, telegram: bool) -> bool:
        return self.kind.name in config.channels

    async def open(
        self, config: Config, seams: Seams, store: Store, stack: contextlib.AsyncExitStack
    ) -> RegisterOn:
        try:
            section = ProbeSection.model_validate(config.channels[self.kind.name])
        except ValidationError as error:
            problems = "; ".join(
                f"[channels.probe] {'.'.join(map(str, e['loc']))}: {e['msg']}"
                for e in error.errors()
            )
            raise StartupError(problems) from None

        def register(core: BotCore) -> ProbeChannel:
            channel = ProbeChannel(core, section)
            core.register(channel.registration())
            return channel

        return register
