"""Channels registered on the core by name.

A channel adapter (Telegram, the terminal console, the agents' JSON API) builds what it needs
over the core's services (``bot.core_services.CoreServices``) and registers one
``ChannelRegistration``: its kind (``bot.channel_kind.ChannelKind``: the name, its chats' lock
tag and what it can do), the ``Channel`` that delivers its chats' messages, the web
routes, the background jobs, the turns it shows later, its pacing, its own words (``texts``,
added to the business's catalogue) and whatever starts and stops with the running bot. Nothing
else of the core changes for a new channel: the relay, the operator alerts and the later turns
reach a chat through ``Channels``, which hands each to the channel that owns the chat, and
what a chat's channel can do is read from its kind (``capabilities``), never from its name.

Every chat is a ``ChatRef``; the channel registered under its ``channel`` name reaches it, and
no other. One channel is the messenger (Telegram's, the console's, or the log of a bot without a
messenger): receivers open its links to claim a drop-off code, unless the customer's own channel
opens claims too (WhatsApp's ``wa.me`` link, for a WhatsApp customer's receiver).

A chat whose channel this bot does not run (a Telegram customer's, from a time the bot had a
token, when it now runs without one) cannot be reached: ``send`` raises ``ChatUnreachable``,
which the relay records as for a chat that blocked the bot (``store.blocked``, logged once), and
its messages count as done (docs/agents.md). A turn shown later in such a chat is dropped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from starlette.routing import BaseRoute

from bot.channel_kind import NO_CAPABILITIES, ChannelCapabilities, ChannelKind
from bot.chat_ref import ChatRef
from bot.jobs import Job
from bot.ordering.chats import DeliverLater
from bot.relay.asking import Asking, AskingChannel, typed_text
from bot.relay.channel_protocol import Channel, ChatTurns, ChatUnreachable
from bot.store.customer_data import is_tombstone
from bot.tracking.rider_map import RiderMap
from conversations import Turn
from conversations.texts.catalogue import ChannelTexts

NO_HANDOFF = ""  # ``otp_link`` without a messenger: no link a receiver could open


@dataclass(frozen=True)
class ChannelRegistration:
    """What one channel adds to the core; see the module docstring.

    ``running`` is entered when the bot starts and left when it stops (Telegram connects and
    receives updates in it); ``jobs`` are registered on the runtime's one scheduler
    (``bot.jobs``) and run while the bot runs, each under its own unique name;
    ``aclose`` releases what the channel opened, when the core closes. ``turns`` is the
    channel's pacing (None: its chats are sent to at once); ``messenger`` says whether it is
    the messenger (at most one is). ``texts`` are the channel's own words (its greeting, its
    buttons' labels: ``bot/telegram/telegram_texts.py``), added to the business's catalogue
    when it registers, so ``say`` renders them and ``[texts]`` overrides reach them. ``kind``
    names the channel, tags its chats' locks and says what it can do. ``rider_map`` shows its
    customers their rider while a delivery moves (``bot.tracking``; None: it shows none).
    """

    kind: ChannelKind
    sender: Channel
    messenger: bool = True
    turns: ChatTurns | None = None
    deliver_later: DeliverLater | None = None
    routes: Sequence[BaseRoute] = ()
    jobs: Sequence[Job] = ()
    running: Callable[[], AbstractAsyncContextManager[None]] | None = None
    aclose: Callable[[], Awaitable[None]] | None = None
    texts: Sequence[ChannelTexts] = ()
    rider_map: RiderMap | None = None

    @property
    def name(self) -> str:
        """The channel's name: the ``channel`` of its chats' refs."""
        return self.kind.name


class Channels:
    """The registered channels, and the relay's ``Channel`` and ``ChatTurns`` that reach each
    chat through the channel registered under its name."""

    def __init__(self) -> None:
        self._by_name: dict[str, ChannelRegistration] = {}
        self._messenger: ChannelRegistration | None = None

    def add(self, registration: ChannelRegistration) -> None:
        """Register a channel; a name, a lock tag, and the messenger, are registered once."""
        if registration.name in self._by_name:
            raise ValueError(f"channel {registration.name!r} is registered already")
        for other in self._by_name.values():
            if other.kind.lock_tag == registration.kind.lock_tag:
                raise ValueError(
                    f"channel {registration.name!r}: chat lock tag {other.kind.lock_tag} is "
                    f"taken by {other.name!r}"
                )
        if registration.messenger:
            if self._messenger is not None:
                raise ValueError(f"{self._messenger.name!r} is the messenger already")
            self._messenger = registration
        self._by_name[registration.name] = registration

    @property
    def has_messenger(self) -> bool:
        """Whether a channel registered so far is the messenger."""
        return self._messenger is not None

    def __iter__(self) -> Iterator[ChannelRegistration]:
        return iter(self._by_name.values())

    def __getitem__(self, name: str) -> ChannelRegistration:
        return self._by_name[name]

    def capabilities(self, channel: str) -> ChannelCapabilities:
        """What the channel named ``channel`` can do; nothing, when no such channel runs."""
        registration = self._by_name.get(channel)
        return NO_CAPABILITIES if registration is None else registration.kind.capabilities

    def owner(self, chat: ChatRef) -> ChannelRegistration | None:
        """The channel ``chat`` belongs to (None: no channel of this bot reaches it, or the
        chat is an erased customer's stand-in: ``bot.store.customer_data``)."""
        if is_tombstone(chat.id):
            return None
        return self._by_name.get(chat.channel)

    def rider_map(self, chat: ChatRef) -> RiderMap | None:
        """How ``chat``'s channel shows its rider (``bot.tracking.RiderMaps``; None: it does
        not, or no channel of this bot reaches the chat)."""
        owner = self.owner(chat)
        return None if owner is None else owner.rider_map

    # --- the relay's Channel and ChatTurns -----------------------------------------------------

    async def send(self, chat: ChatRef, text: str) -> int | None:
        owner = self.owner(chat)
        if owner is None:
            raise ChatUnreachable(f"no {chat.channel} channel runs in this bot")
        return await owner.sender.send(chat, text)

    async def ask(self, chat: ChatRef, text: str, asking: Asking) -> int | None:
        """``text`` with ``asking``'s choices as buttons where the chat's channel draws them,
        else with the words to type (``bot.relay.asking``)."""
        owner = self.owner(chat)
        if owner is None:
            raise ChatUnreachable(f"no {chat.channel} channel runs in this bot")
        if isinstance(owner.sender, AskingChannel):
            return await owner.sender.ask(chat, text, asking)
        return await owner.sender.send(chat, typed_text(text, asking))

    def otp_link(self, token: str) -> str:
        """The messenger's link: a receiver claims a drop-off code there, whoever ordered."""
        return NO_HANDOFF if self._messenger is None else self._messenger.sender.otp_link(token)

    def otp_link_for(self, chat: ChatRef, token: str) -> str:
        """The link for ``chat``'s customer to pass on: their own channel's, when it opens
        claims (a WhatsApp customer's receiver claims on WhatsApp), else the messenger's."""
        owner = self.owner(chat)
        own = NO_HANDOFF if owner is None else owner.sender.otp_link(token)
        return own or self.otp_link(token)

    async def reserve(self, chat: ChatRef) -> float:
        """The chat's turn from its own channel's pacing (none: at once); the relay takes it
        before composing a chat's message."""
        turns = self._turns(chat)
        return 0.0 if turns is None else await turns.reserve(chat)

    def release(self, chat: ChatRef) -> None:
        """Give back a turn ``reserve`` kept for ``chat`` and no send used."""
        turns = self._turns(chat)
        if turns is not None:
            turns.release(chat)

    def _turns(self, chat: ChatRef) -> ChatTurns | None:
        owner = self.owner(chat)
        return None if owner is None else owner.turns

    async def deliver_later(self, chat: ChatRef, turn: Turn) -> None:
        """Show a turn that happened without a message (``ChatService``'s re-sent create) in
        the chat's own channel; nothing when that channel shows no such turn."""
        owner = self.owner(chat)
        if owner is not None and owner.deliver_later is not None:
            await owner.deliver_later(chat, turn)
