"""``Channel``: how the relay reaches a chat, whatever the messenger, and its two errors.

The relay decides what each chat is told; a channel only delivers text. Telegram's adapter and
the terminal demo each provide one. A channel reports a chat that can no longer be messaged
(the user blocked the bot) as ``ChatUnreachable``, which the relay records and never retries,
and a message it could not send this time as ``SendFailed``, which the relay tries again later.
Any other exception is taken as ``SendFailed`` too.

A channel with sending limits (Telegram's: about 30 messages a second in all, one a second per
chat) is also a ``PacedChannel``: it tells how long a message to a chat would wait for its
turn. The relay reads that as the chat's backlog, and then sends the chat's pending news as one
message instead of one message each.

Better still, a paced channel lets the relay take a chat's turn before it composes the message
(``ChatTurns``: a channel registers its pacing as data, Telegram's ``RateLimiter``, and
``bot.channels.Channels`` hands the relay each chat's): the relay waits for the turn first,
then says everything pending for the chat by then, so news that arrived during the wait is not
left for another message.

Every chat is a ``ChatRef``: its channel's name and that channel's id for it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bot.chat_ref import ChatRef
from bot.relay.relay_errors import RelayError


class ChatUnreachable(RelayError):
    """The chat blocked the bot, or otherwise cannot be messaged until its user returns."""


class SendFailed(RelayError):
    """A message was not sent this time and stays owed; the relay tries it again later.

    The text is a reason safe to log (the messenger's refusal, an error type), never the message.
    """


class Channel(Protocol):
    """Where relay messages go."""

    async def send(self, chat: ChatRef, text: str) -> int | None:
        """Send plain ``text`` to ``chat``; return the message id when the channel knows it.

        Raise ``ChatUnreachable`` for a chat that cannot be messaged, ``SendFailed`` for a
        message to try again later (any other exception is taken the same way).
        """
        ...

    def otp_link(self, token: str) -> str:
        """The link a receiver opens to claim a drop-off code hand-off (``token`` from
        ``store.otp``), e.g. a Telegram deep link ``https://t.me/<bot>?start=otp_<token>``."""
        ...


@runtime_checkable
class ChatOtpLinks(Protocol):
    """A ``Channel`` that can open a drop-off code's claim in a given chat's own channel (a
    WhatsApp customer's receiver gets a ``wa.me`` link, whichever channel is the messenger)."""

    def otp_link_for(self, chat: ChatRef, token: str) -> str:
        """The link ``chat``'s customer passes on to the receiver (``""``: none can be)."""
        ...


@runtime_checkable
class PacedChannel(Protocol):
    """A ``Channel`` that paces its sends, and says how far behind a chat is."""

    def send_delay(self, chat: ChatRef) -> float:
        """Seconds a message to ``chat`` would wait for its turn if sent now (0: none)."""
        ...


@runtime_checkable
class ChatTurns(Protocol):
    """A chat's turn to be sent to, taken before the message is composed."""

    async def reserve(self, chat: ChatRef) -> float:
        """Wait for ``chat``'s turn and keep it for the next send to the chat; return the
        seconds waited (0: the chat keeps up)."""
        ...

    def release(self, chat: ChatRef) -> None:
        """Give back a turn ``reserve`` kept and no send used (nothing if none is kept)."""
        ...
