"""``TurnCreates``: what one customer turn hands the engine for the creates it may send.

``PartnerCreator`` knows the request, not the chat; the turn-taker (``ChatService``,
``OrderStarts``) knows the chat, not the request. So the turn-taker makes a ``TurnCreates``
when the turn begins and gives it to the engine (``Engine.handle``'s ``creates``), which hands
it, unread, to the creator with each create (``DeliveryCreator.create``'s ``turn``); the units
of the turn write and read its fields, each named below with who sets it and who reads it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.ordering.owed_replies import RepliesOwed
from bot.partner.request_limiter import HeldBack
from conversations.texts.catalogue import Catalogue


@dataclass
class CreatingSession:
    """The chat's session as the turn moved it to "creating" (its new idempotency key): saved
    before the create leaves, in the intent's own commit when the create is recorded, else on
    its own (``save_alone``); once."""

    data: str
    save_alone: Callable[[], Awaitable[None]]
    saved: bool = False

    def take(self) -> str | None:
        """The session's JSON, to be saved by the caller; None when it was taken already."""
        if self.saved:
            return None
        self.saved = True
        return self.data


@dataclass(frozen=True)
class CreateFor:
    """Whose create a turn would send: the chat, the customer (their id in the chat's channel)
    and the saved order of the session being run (made only when a create is recorded);
    ``creating``, once the turn made a new key, the session to save before the create."""

    chat: ChatRef
    user_id: int
    saved_order: Callable[[], str]
    creating: CreatingSession | None = None


@dataclass(eq=False)
class TurnCreates:
    """The creates of one turn: whose they are, and what the turn's units tell each other
    about them.

    * ``catalogue``: the turn's, picked by the turn-taker when the turn begins; read by
      ``CreateRecorder``, which keeps its language with the create's intent and says from it
      the notice a customer whose reply went astray gets.
    * ``who``: set by the turn-taker when the turn begins (``CreateCheckpoint.create_for``;
      None for a turn that begins an order), and again by ``CreateCheckpoint.before_create``
      once the turn made a new key, with the session to save; read by ``CreateRecorder``,
      which records the create as ``who``'s (None: sent unrecorded).
    * ``owed``: set by ``ChatService`` around a customer's answer (``replies_owed``); read by
      ``CreateRecorder`` (a delivery's intent is kept answered until the reply went out) and
      by ``TurnEffects``, which ends those intents once the reply went out.
    * ``held_back``: set by ``CreateCheckpoint.before_create`` from ``CreateWaitNotice``
      when no wait is foreseen; read by ``PartnerCreator``, which hands it with the create's
      request to the client's rate limiter.
    * ``refusal``: set by ``CountedCreator`` when the service refused the create for
      certain; read by ``ChatService`` for the funnel, which counts the re-ask it leads to.
    """

    catalogue: Catalogue
    who: CreateFor | None = None
    owed: RepliesOwed | None = None
    held_back: HeldBack | None = None
    refusal: str | None = None


def of_turn(turn: object) -> TurnCreates | None:
    """The ``TurnCreates`` a creator was handed (its ``turn``), or None: a create sent outside
    a chat's turn (the follow-up, a test's engine)."""
    return turn if isinstance(turn, TurnCreates) else None
