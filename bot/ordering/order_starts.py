"""``OrderStarts``: the turns that begin an order (``ChatService``'s ``start``, ``new_order``,
``repeat`` and ``before_start``).

Each runs under the chat's lock, in the customer's language, after the guards (a blocked
customer, ``[limits] drafts_per_hour``), with the create's checkpoint as the engine's
``before_create``; its turn's effects are carried out by ``TurnEffects``. A new order of a
customer who ordered before is filled in with what they told last time (``CustomerMemory``).
"""

from __future__ import annotations

from bot.chat_ref import ChatRef, UserRef
from bot.chatlocks import ChatTurnLocks
from bot.clocks import Clock
from bot.funnel.recorder import FunnelRecorder
from bot.ordering.create_checkpoint import CreateCheckpoint
from bot.ordering.history import OrderHistory, customer_ref
from bot.ordering.later_resends import LoadSession
from bot.ordering.returning_customers import CustomerMemory
from bot.ordering.turn_catalogue import TurnCatalogues
from bot.ordering.turn_context import TurnContext
from bot.ordering.turn_effects import TurnEffects
from bot.ordering.turn_guards import LimitHits, TurnGuards
from conversations import Engine, Turn
from conversations.returning import with_proven_phone
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue


class OrderStarts:
    """Begins orders for ``ChatService``, with its units (see the module docstring)."""

    def __init__(
        self,
        engine: Engine,
        locks: ChatTurnLocks,
        *,
        guards: TurnGuards,
        checkpoint: CreateCheckpoint,
        effects: TurnEffects,
        history: OrderHistory,
        memory: CustomerMemory,
        funnel: FunnelRecorder,
        load: LoadSession,
        clock: Clock,
        catalogues: TurnCatalogues,
    ) -> None:
        self._engine = engine
        self._locks = locks
        self._guards = guards
        self._checkpoint = checkpoint
        self._effects = effects
        self._history = history
        self._memory = memory
        self._funnel = funnel
        self._load = load
        self._clock = clock
        self._catalogues = catalogues

    async def before_start(
        self, user: UserRef, language: str | None, hits: LimitHits = None
    ) -> Turn | None:
        """What a new order of ``user``'s gets instead of starting, or None (counted); a limit
        hit is added to ``hits``."""
        catalogue = self._catalogues.pick(language)
        if (refused := await self._guards.refusal(user, catalogue)) is not None:
            return refused
        return await self._guards.draft_limited(user, catalogue, hits)

    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        flow: str | None,
        language: str | None,
        counted: bool,
        hits: LimitHits = None,
    ) -> Turn:
        """A new order in the entry flow (or ``flow``); ``counted``: by ``before_start``; a
        limit hit is added to ``hits``."""
        catalogue = self._catalogues.pick(language)
        return await self._start(chat, user, flow, catalogue, counted, hits)

    async def _start(
        self,
        chat: ChatRef,
        user: UserRef,
        flow: str | None,
        catalogue: Catalogue,
        counted: bool,
        hits: LimitHits = None,
    ) -> Turn:
        async with self._locks.hold(chat):
            if (refused := await self._guards.refusal(user, catalogue)) is not None:
                return refused
            limited = None if counted else await self._guards.draft_limited(user, catalogue, hits)
            if limited is not None:
                return limited
            turn = TurnContext.now(chat, user, self._clock, catalogue)
            session, done = await self._engine.start(
                catalogue,
                flow,
                customer=customer_ref(user),
                before_create=self._checkpoint.before_create(turn),
                remembered=await self._memory.recall(user),
                sender_phone_owner=self._guards.phone_owner(user),
                creates=turn.creates,
            )
            await self._effects.after_turn(turn, session, done)
            self._funnel.turn(None, session, done)
            return done

    async def new_order(
        self, chat: ChatRef, user: UserRef, flow: str | None, language: str | None
    ) -> Turn:
        """A new order, but over an open order whose answers would be lost, asked first."""
        catalogue = self._catalogues.pick(language)
        async with self._locks.hold(chat):
            if (refused := await self._guards.refusal(user, catalogue)) is not None:
                return refused
            session = await self._load(chat)
            if session is not None and not session.finished:
                turn = TurnContext.now(chat, user, self._clock, catalogue)
                save = self._checkpoint.before_create(turn)
                done = await self._engine.start_over(
                    catalogue, session, flow, before_create=save, creates=turn.creates
                )
                await self._effects.after_turn(turn, session, done)
                return done
        return await self._start(chat, user, flow, catalogue, counted=False)

    async def repeat(self, chat: ChatRef, user: UserRef, language: str | None) -> Turn:
        """The user's last order again, in the flow that made it (or a new order, saying so)."""
        catalogue = self._catalogues.pick(language)
        async with self._locks.hold(chat):
            if (refused := await self._guards.refusal(user, catalogue)) is not None:
                return refused
            order = await self._history.last_order(user)
            if order is None:
                done = await self._start(chat, user, None, catalogue, counted=False)
                said = (dialogue.NOTHING_TO_REPEAT.render(catalogue), *done.messages)
                return done.model_copy(update={"messages": said})
            if (limited := await self._guards.draft_limited(user, catalogue)) is not None:
                return limited
            turn = TurnContext.now(chat, user, self._clock, catalogue)
            remembered = await self._memory.recall(user)
            owner = self._guards.phone_owner(user)
            if owner is not None:
                order = with_proven_phone(order, remembered)
            session, done = await self._engine.replay(
                catalogue,
                order,
                customer=customer_ref(user),
                before_create=self._checkpoint.before_create(turn),
                remembered=remembered,
                sender_phone_owner=owner,
                creates=turn.creates,
            )
            await self._effects.after_turn(turn, session, done)
            self._funnel.turn(None, session, done)
            return done
