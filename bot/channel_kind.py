"""``ChannelKind``: what a channel is to the core, declared once by the channel itself.

A channel's kind is its name (the ``channel`` of its ``ChatRef`` and ``UserRef``), the tag of
its chats' PostgreSQL lock keys (``bot.store.advisory_locks.ChatLockKeys``) and what it can do
(``ChannelCapabilities``). Each channel's own module declares its kind (Telegram's in
``bot/telegram/telegram_kind.py``) and its ``ChannelRegistration`` carries it; the core reads
what a chat's channel can do from there (``Channels.capabilities``), never from its name.

The value is a leaf of the code base: it imports nothing of the bot.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

MAX_LOCK_TAG: Final = 1023
"""The highest lock tag: a chat's lock key is ``tag * 2**53 + id`` in a signed bigint."""

CHANNEL_NAME: Final = re.compile(r"[a-z][a-z0-9_-]{0,31}")
"""A channel's name: lower-case letters, digits, ``-`` and ``_``, a letter first."""


@dataclass(frozen=True)
class ChannelCapabilities:
    """What a channel can do, as the core and its services read it.

    ``proves_phone``: a contact the customer shares is vouched for by the channel (Telegram's
    carries the account's own user id), so ``[limits] verify_sender_phone`` can hold a sender's
    phone to it. ``forum_topics``: a group chat can hold a thread per hand-off.
    ``live_locations``: a customer can share where they are, moving. ``buttons_per_message``:
    how many choices a message can carry as buttons (0: the choices are typed).
    ``message_length``: the longest text one message may carry, in characters.
    ``news_as_data``: the customer's app reads a delivery's news as data (an event each, with
    the sentence beside it: ``bot.relay.agent_updates``), not as a chat message.
    """

    proves_phone: bool = False
    forum_topics: bool = False
    live_locations: bool = False
    buttons_per_message: int = 0
    message_length: int = 4096
    news_as_data: bool = False

    def __post_init__(self) -> None:
        if self.buttons_per_message < 0 or self.message_length < 1:
            raise ValueError(f"impossible channel capabilities: {self}")


NO_CAPABILITIES: Final = ChannelCapabilities()
"""What the core assumes of a channel it does not run: nothing can be proven or drawn."""

CapabilitiesOf = Callable[[str], ChannelCapabilities]
"""What the channel of a given name can do (``bot.channels.Channels.capabilities``)."""


def no_capabilities(channel: str) -> ChannelCapabilities:
    """Nothing, whatever the channel: a part no channel registered on proves nothing."""
    return NO_CAPABILITIES


@dataclass(frozen=True)
class ChannelKind:
    """A channel's ``name``, its chats' ``lock_tag`` (unique among the channels, at most
    ``MAX_LOCK_TAG``) and its ``capabilities``."""

    name: str
    lock_tag: int
    capabilities: ChannelCapabilities = field(default=NO_CAPABILITIES)

    def __post_init__(self) -> None:
        if CHANNEL_NAME.fullmatch(self.name) is None:
            raise ValueError(f"channel name {self.name!r}: {CHANNEL_NAME.pattern} expected")
        if not 0 <= self.lock_tag <= MAX_LOCK_TAG:
            raise ValueError(f"channel {self.name!r}: lock tag {self.lock_tag} not in 0..1023")
