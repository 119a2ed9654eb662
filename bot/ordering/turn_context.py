"""``TurnContext``: whose turn it is, handed as an argument to every unit a turn goes through.

The turn-takers (``bot.ordering.chats.ChatService``, ``bot.ordering.order_starts``) make one
when a turn begins and pass it on: the create's checkpoint (``create_checkpoint``) and the
turn's effects (``turn_effects``) read the chat, the customer, when the turn began and the
language it is said in from it, not from the task's context; its ``creates`` (``TurnCreates``)
go to the engine with the turn, and from there to the creator.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.ordering.turn_creates import TurnCreates
from bot.turn_speech import speaking_language, spoken_language
from conversations import Turn

#: Shows a turn while its session is written (``ChatService.handle``'s ``reply``).
Reply = Callable[[Turn], Awaitable[None]]


@dataclass(frozen=True)
class TurnContext:
    """One turn of one chat.

    ``started``: when the turn began, before any create of it went out (an unconfirmed
    create's ``created_at``). ``language``: the shipped language the customer's client asked
    for (``spoken_language``; None for the business default), kept with a delivery or an
    unconfirmed create so what is said about it later is said in the order's language.
    ``creates``: the turn's creates, handed to the engine (``TurnCreates`` says who sets and
    who reads each of its fields)."""

    chat: ChatRef
    user: UserRef
    started: float
    language: str | None
    creates: TurnCreates = field(default_factory=TurnCreates)

    @classmethod
    def now(cls, chat: ChatRef, user: UserRef, clock: Clock) -> TurnContext:
        """The turn beginning now, in the language being spoken (``speaking``)."""
        return cls(chat, user, started=clock(), language=spoken_language())


@asynccontextmanager
async def speaking(language: str | None) -> AsyncIterator[None]:
    """The turn in ``language`` (a client's code: ``fr``, ``en-GB``); None keeps the one
    already being spoken (the adapter's, or the business default)."""
    if language is None:
        yield
        return
    with speaking_language(language):
        yield
