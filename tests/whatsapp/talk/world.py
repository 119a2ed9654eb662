"""A real bot with WhatsApp's conversation on it, driven by ``InboundMessage`` values.

The runtime is built and started as ``deliverybot run`` builds it, over a real SQLite file, with
the sandbox as the Partner API (its signed webhooks posted to the bot's own web app); the test's
starter registers the conversation as the integrator does, with the core's desks and hand-off
desk. At the edges of the machine: ``RecordingSend`` keeps the ``Outgoing`` values sent to each
chat (their constructors already refuse what Meta refuses), ``StoredMedia`` hands out a photo's
bytes by media id as the Cloud API's media URL would, and ``RecordingStaff`` is the operators'
chat (the hand-off's staff side).
"""

from __future__ import annotations

import contextlib
import itertools
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bot.bot_core import BotCore
from bot.channels import ChannelRegistration
from bot.chat_ref import WHATSAPP, ChatRef
from bot.config import Config
from bot.demo.transports import AppSwitch
from bot.handoff.bodies import Body
from bot.runtime import Runtime
from bot.runtime.channel_starters import SHIPPED_STARTERS, RegisterOn
from bot.sandbox import Sandbox
from bot.seams import Seams
from bot.store import Store
from bot.store.handoffs import Handoff, StaffPost
from bot.whatsapp.inbound import ButtonReply, Content, InboundMessage, ListReply, Text
from bot.whatsapp.media import PhotoRefused, PhotoRehosting
from bot.whatsapp.outgoing import ButtonsMessage, ListMessage, Outgoing, TextMessage
from bot.whatsapp.whatsapp_conversation import WHATSAPP_WORDS, WhatsAppConversation
from bot.whatsapp.whatsapp_kind import WHATSAPP_KIND
from bot.whatsapp.whatsapp_texts import WHATSAPP_TEXTS
from tests.ordering.conftest import BOT_HOST

WA_ID = "2348031234567"
OPERATOR = ChatRef("telegram", -100)


class RecordingSend:
    """``WhatsAppSend``: what reaches each chat, in order."""

    def __init__(self) -> None:
        self.sent: defaultdict[ChatRef, list[Outgoing]] = defaultdict(list)
        self._ids = itertools.count(1)

    async def send(self, chat: ChatRef, message: Outgoing) -> str:
        self.sent[chat].append(message)
        return f"wamid.bot{next(self._ids)}"


@dataclass
class RelayChannel:
    """The relay's ``Channel`` of WhatsApp chats in the test: news as text messages."""

    send_to: RecordingSend

    async def send(self, chat: ChatRef, text: str) -> int:
        await self.send_to.send(chat, TextMessage(text))
        return len(self.send_to.sent[chat])

    def otp_link(self, token: str) -> str:
        return ""


@dataclass
class Windows:
    """``CustomerWindows``: when each chat's customer last wrote."""

    wrote: dict[ChatRef, float] = field(default_factory=dict)

    async def customer_wrote(self, chat: ChatRef, at: float) -> None:
        self.wrote[chat] = at

    async def is_open(self, chat: ChatRef) -> bool:
        return chat in self.wrote


@dataclass
class StoredMedia:
    """``MediaDownload``: the Cloud API's media, by id (an unknown id fails, as an expired
    one does)."""

    files: dict[str, bytes] = field(default_factory=dict)

    async def download(self, media_id: str, *, max_bytes: int) -> bytes | PhotoRefused:
        data = self.files.get(media_id)
        if data is None:
            return PhotoRefused("download_failed")
        return PhotoRefused("too_large") if len(data) > max_bytes else data


@dataclass
class RecordingStaff:
    """The operators' chat (``StaffSide``): cards posted, customers' messages passed on."""

    cards: list[str] = field(default_factory=list)
    bodies: list[Body] = field(default_factory=list)

    async def post(self, handoff: Handoff, card: str) -> StaffPost | None:
        self.cards.append(card)
        return StaffPost(OPERATOR, len(self.cards))

    async def redraw(self, handoff: Handoff, card: str) -> None:
        self.cards.append(card)

    async def send(self, handoff: Handoff, body: Body) -> bool:
        self.bodies.append(body)
        return True

    async def tell(self, handoff: Handoff, text: str) -> None:
        self.cards.append(text)


@dataclass
class PlainReplies:
    """Staff's answers as plain messages (the window is always open here)."""

    out: RecordingSend

    async def reply(self, chat: ChatRef, text: str, *, language: str | None = None) -> str:
        return await self.out.send(chat, TextMessage(text))


class Talk:
    """The conversation on the running bot, and a customer's side of it."""

    def __init__(self, core: BotCore, store: Store) -> None:
        self.core = core
        self.out = RecordingSend()
        self.windows = Windows()
        self.media = StoredMedia()
        self.staff = RecordingStaff()
        self._ids = itertools.count(1)
        self.conversation: WhatsAppConversation | None = None
        core.register(
            ChannelRegistration(
                WHATSAPP_KIND,
                RelayChannel(self.out),
                messenger=False,
                deliver_later=self._deliver_later,
                texts=(WHATSAPP_TEXTS,),
            )
        )
        self.conversation = WhatsAppConversation(
            core.chats,
            core.desk(WHATSAPP_WORDS),
            self.out,
            PhotoRehosting(self.media, store, public_base_url=BOT_HOST, ttl_seconds=86_400.0),
            self.windows,
            quotes=core.quotes(WHATSAPP_WORDS),
            handoffs=core.handoffs,
        )
        core.handoffs.serve(WHATSAPP, self.conversation.customers(PlainReplies(self.out)))
        core.handoffs.use_staff(self.staff)

    async def _deliver_later(self, chat: ChatRef, turn: Any) -> None:
        assert self.conversation is not None
        await self.conversation.deliver_later(chat, turn)

    def chat(self, wa_id: str = WA_ID) -> ChatRef:
        return ChatRef(WHATSAPP, int(wa_id))

    async def says(
        self, content: Content | str, *, wa_id: str = WA_ID, name: str = "Ada Obi"
    ) -> list[Outgoing]:
        """The customer ``wa_id`` sends ``content`` (a string: typed text); what came back."""
        assert self.conversation is not None
        if isinstance(content, str):
            content = Text(content)
        chat = self.chat(wa_id)
        before = len(self.out.sent[chat])
        number = next(self._ids)
        message = InboundMessage(f"wamid.in{number}", wa_id, name, 1_800_000_000 + number, content)
        await self.conversation.handle(message)
        return self.out.sent[chat][before:]

    async def taps(self, shown: list[Outgoing], title: str, **kwargs: Any) -> list[Outgoing]:
        """The customer taps the button or row titled ``title`` (or starting so) of ``shown``."""
        return await self.says(tap(shown, title), **kwargs)


def tap(shown: list[Outgoing], title: str) -> ButtonReply | ListReply:
    """The reply a tap on the button or row titled ``title`` (or starting so) of ``shown``
    sends back."""
    for message in reversed(shown):
        if isinstance(message, ButtonsMessage):
            for button in message.buttons:
                if button.title.startswith(title):
                    return ButtonReply(button.reply_id, button.title)
        if isinstance(message, ListMessage):
            for row in (row for section in message.sections for row in section.rows):
                if row.title.startswith(title):
                    return ListReply(row.reply_id, row.title)
    raise AssertionError(f"no button or row {title!r} in {shown!r}")


def text_of(shown: list[Outgoing]) -> str:
    """Every body of ``shown``, one after another."""
    bodies = [getattr(message, "body", "") for message in shown]
    return "\n".join(bodies)


@dataclass(frozen=True)
class TalkStarter:
    """Starts the WhatsApp conversation with the test's edges, on every bot."""

    kind: Any = WHATSAPP_KIND
    messenger: bool = False

    def wanted(self, config: Config, *, telegram: bool) -> bool:
        return True

    async def open(
        self, config: Config, seams: Seams, store: Store, stack: contextlib.AsyncExitStack
    ) -> RegisterOn:
        def register(core: BotCore) -> Talk:
            return Talk(core, store)

        return register


def talk_config(tmp_path: Path, sandbox: Sandbox, **tables: Any) -> Config:
    """A bot without Telegram: WhatsApp (the test's starter) is its ordering channel."""
    data = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key},
        "telegram": {},
        "server": {"public_base_url": BOT_HOST},
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "geocoding": {"provider": "none"},
        # A table of its own makes WhatsApp the bot's ordering channel (no Telegram token).
        "channels": {WHATSAPP: {}},
        **tables,
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


@contextlib.asynccontextmanager
async def running(config: Config, sandbox: Sandbox, switch: AppSwitch) -> AsyncIterator[Runtime]:
    """The bot of ``config``, built and started as ``deliverybot run`` does, with WhatsApp."""
    seams = Seams(partner_transport=httpx.ASGITransport(app=sandbox.app), synchronous="NORMAL")
    runtime = await Runtime.build(config, seams, channels=(*SHIPPED_STARTERS, TalkStarter()))
    switch.app = runtime.web_app
    try:
        await runtime.start(workers=False)
        yield runtime
    finally:
        await runtime.stop()
        switch.app = None
