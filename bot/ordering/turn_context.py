"""``TurnContext``: whose turn it is, handed as an argument to every unit a turn goes through.

The turn-takers (``bot.ordering.chats.ChatService``, ``bot.ordering.order_starts``) make one
when a turn begins and pass it on: the create's checkpoint (``create_checkpoint``) and the
turn's effects (``turn_effects``) read the chat, the customer, when the turn began and the
catalogue it is said from (with its language) from it, not from the task's context; its
``creates`` (``TurnCreates``) go to the engine with the turn, and from there to the creator.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.ordering.turn_creates import TurnCreates
from conversations import Turn
from conversations.texts.catalogue import Catalogue

#: Shows a turn while its session is written (``ChatService.handle``'s ``reply``).
Reply = Callable[[Turn], Awaitable[None]]


@dataclass(frozen=True)
class TurnContext:
    """One turn of one chat.

    ``started``: when the turn began, before any create of it went out (an unconfirmed
    create's ``created_at``). ``catalogue``: the turn's, picked once from the business's
    texts by the customer's language code (``bot.ordering.turn_catalogue``). ``creates``: the
    turn's creates, handed to the engine (``TurnCreates`` says who sets and who reads each of
    its fields)."""

    chat: ChatRef
    user: UserRef
    started: float
    catalogue: Catalogue
    creates: TurnCreates

    @classmethod
    def now(cls, chat: ChatRef, user: UserRef, clock: Clock, catalogue: Catalogue) -> TurnContext:
        """The turn beginning now, said from ``catalogue``."""
        return cls(chat, user, clock(), catalogue, TurnCreates(catalogue))

    @property
    def language(self) -> str | None:
        """The shipped language the customer's client asked for (``Catalogue.chosen``; None
        for the business default), kept with a delivery or an unconfirmed create so what is
        said about it later is said in the order's language."""
        return self.catalogue.chosen
