"""``ChatService``: takes every chat's turns, with the sessions in the store.

One per process, shared by every adapter (Telegram, the console, the agents). It holds no
conversation in memory: each call loads the chat's session from ``store.sessions``, runs one
turn and saves it again (or deletes it once the order is over), so a restart resumes every chat
at its step. Calls for one chat run one at a time, under the store's ``chat_locks``, held by
every process on the store and re-entrant for the task holding it (a Telegram turn already
holds its chat). A turn passes the guards (``turn_guards``: a blocked customer, ``[limits]``),
runs the engine with the create's checkpoint (``create_checkpoint``: the key is saved before
the create goes out), and ends with its effects (``turn_effects``: the session written while
the reply is sent, a delivery linked, an unconfirmed create kept, operators alerted, a create
re-sent after a rate limit); each is handed the turn's ``TurnContext``. The turns that begin an
order are ``order_starts``'.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable

from bot.channel_kind import CapabilitiesOf, no_capabilities
from bot.chat_ref import ChatRef, UserRef
from bot.chatlocks import ChatTurnLocks
from bot.clocks import Clock, Sleep
from bot.config.limits_section import LimitsConfig
from bot.funnel.recorder import FunnelRecorder
from bot.funnel.steps import mark
from bot.log_context import log_context
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.ordering.alerting import AlertOperators, OperatorAlerts
from bot.ordering.create_checkpoint import CreateCheckpoint
from bot.ordering.create_wait import CreateWaitNotice
from bot.ordering.history import OrderHistory
from bot.ordering.later_resends import DeliverLater, LaterResends
from bot.ordering.order_starts import OrderStarts
from bot.ordering.owed_replies import replies_owed
from bot.ordering.returning_customers import CustomerMemory
from bot.ordering.saved_sessions import load_session
from bot.ordering.turn_catalogue import TurnCatalogues
from bot.ordering.turn_context import Reply, TurnContext
from bot.ordering.turn_effects import TurnEffects
from bot.ordering.turn_guards import LimitHits, TurnGuards
from bot.ordering.unconfirmed_worker import FIRST_FOLLOW_UP_SECONDS
from bot.store import Store
from conversations import CommandAnswer, Engine, Session, Turn
from conversations.dialog import Answer
from conversations.texts import dialogue
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue

__all__ = ["AlertOperators", "ChatService", "DeliverLater", "Reply", "no_open_order"]


def no_open_order(catalogue: Catalogue) -> Turn:
    """The turn for an answer when no order is open, said from ``catalogue``."""
    return Turn(messages=(dialogue.CLOSED.render(catalogue),), status="ended")


class ChatService:
    """The engine behind every chat (see the module docstring).

    ``deliver_later(chat, turn)`` shows a turn that happens without a customer message (the
    create re-sent after a rate limit; ``sleep`` waits for it); ``on_unconfirmed`` wakes the
    follow-up worker once a create whose answer was lost is kept, due
    ``first_follow_up_seconds`` later. Every call takes ``language``, the customer's language
    code as their client gives it (Telegram's ``language_code``, an agent's ``language``): the
    turn is said in that shipped language, or in the business default (``[texts] locale``)
    when it is missing, not shipped or left out (``texts``: the business's, ``BotCore.texts``;
    left out, the shipped ones). The turn's catalogue is picked once (``TurnCatalogues``) and
    passed to whatever says something in the turn.
    ``metrics`` are the business's: its funnel's step events are counted there.
    ``channel_capabilities`` says what each customer's channel can do (its registration's,
    ``bot.channels.Channels.capabilities``; left out, nothing is proven).
    """

    def __init__(
        self,
        engine: Engine,
        store: Store,
        *,
        alert_operators: AlertOperators | None = None,
        clock: Clock = time.time,
        deliver_later: DeliverLater | None = None,
        sleep: Sleep = asyncio.sleep,
        on_unconfirmed: Callable[[], None] | None = None,
        create_wait: CreateWaitNotice | None = None,
        first_follow_up_seconds: float = FIRST_FOLLOW_UP_SECONDS,
        limits: LimitsConfig | None = None,
        metrics: Metrics = NO_METRICS,
        channel_capabilities: CapabilitiesOf = no_capabilities,
        texts: BusinessTexts | None = None,
    ) -> None:
        self.engine, self.store = engine, store
        self.catalogues = TurnCatalogues(texts or BusinessTexts(DEFAULT_TEXTS))
        self.history, self.memory = OrderHistory(store), CustomerMemory(store)
        alerts = OperatorAlerts(store, alert_operators)
        self.guards = TurnGuards(
            store, engine, limits, alerts.tell, channel_capabilities, texts=self.catalogues.texts
        )
        self.blocking, self.limits = self.guards.blocking, self.guards.limits
        self.funnel = FunnelRecorder(store.funnel, clock, metrics)
        self._clock = clock
        self._locks: ChatTurnLocks = store.chat_locks
        self._load = functools.partial(load_session, store)
        self._checkpoint = CreateCheckpoint(store, engine, self.history, create_wait)
        self._resends = LaterResends(
            self._locks, load=self._load, answer=self._answer,
            deliver_later=deliver_later, sleep=sleep,
        )  # fmt: skip
        self._effects = TurnEffects(
            store, history=self.history, memory=self.memory, alerts=alerts,
            resends=self._resends, clock=clock, on_unconfirmed=on_unconfirmed,
            first_follow_up_seconds=first_follow_up_seconds,
        )  # fmt: skip
        self._starts = OrderStarts(
            engine, self._locks, guards=self.guards, checkpoint=self._checkpoint,
            effects=self._effects, history=self.history, memory=self.memory,
            funnel=self.funnel, load=self._load, clock=clock, catalogues=self.catalogues,
        )  # fmt: skip

    # --- the adapters' calls ----------------------------------------------------------------

    async def before_start(
        self, user: UserRef, *, language: str | None = None, limit_hits: LimitHits = None
    ) -> Turn | None:
        """What a new order of ``user``'s gets instead of starting (they are blocked, or over
        ``[limits] drafts_per_hour``), or None: it may start, and it is counted as started.
        For a caller that writes something of its own before ``start`` (an agent channel's
        conversation): its ``start`` then passes ``counted=True``. ``limit_hits`` (here, in
        ``start`` and in ``handle``): where the limits the call hit are added, for a caller
        that answers in its own terms (``bot.safety.customer_limits``)."""
        return await self._starts.before_start(user, language, limit_hits)

    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        *,
        flow: str | None = None,
        language: str | None = None,
        counted: bool = False,
        limit_hits: LimitHits = None,
    ) -> Turn:
        """A new order in the entry flow (or ``flow``, a registered name: a deep link, a menu
        command); an order still open in this chat is dropped. ``counted``: ``before_start``
        let it through already (the block is read again, under the chat's lock)."""
        return await self._starts.start(chat, user, flow, language, counted, limit_hits)

    async def new_order(
        self, chat: ChatRef, user: UserRef, *, flow: str | None = None, language: str | None = None
    ) -> Turn:
        """What a customer's "new order" does (``/new``, a flow's command): a new order in the
        entry flow (or ``flow``), but over an open order whose answers would be lost the turn
        asks first (yes starts the new one, no goes on), as ``cancel`` does."""
        return await self._starts.new_order(chat, user, flow, language)

    async def repeat(self, chat: ChatRef, user: UserRef, *, language: str | None = None) -> Turn:
        """The user's last order again, in the flow that made it (a new order when there is
        none to repeat, saying so); an order still open in this chat is dropped."""
        return await self._starts.repeat(chat, user, language)

    async def resume(
        self, chat: ChatRef, user: UserRef, *, language: str | None = None
    ) -> Turn | None:
        """The open question again (after a restart, or /start), or None with no open order."""
        catalogue = self.catalogues.pick(language)
        async with self._locks.hold(chat):
            if (refused := await self.guards.refusal(user, catalogue)) is not None:
                return refused
            session = await self._load(chat)
            if session is None:
                return None
            done = await self.engine.resume(catalogue, session)
            turn = TurnContext.now(chat, user, self._clock, catalogue)
            await self._effects.after_turn(turn, session, done)
            return done

    async def handle(
        self,
        chat: ChatRef,
        user: UserRef,
        answer: Answer,
        *,
        language: str | None = None,
        reply: Reply | None = None,
        limit_hits: LimitHits = None,
        restart: Reply | None = None,
    ) -> Turn:
        """One customer answer; with no open order, the turn says so and nothing else.

        ``restart``, when given: the answer is to a question the chat still shows, drawn longer
        ago than an order is kept. With no open order (housekeeping dropped it), a new order
        starts instead, as ``new_order`` starts it; ``restart`` shows its first turn, which is
        also returned.

        ``reply``, when given, shows the turn (it is called only when there was an order to
        answer) while the turn's session is being written, so the customer's reply does not
        wait for the commit. That keeps to what a turn's commit promises (docs/operators.md):
        until it is done the update counts as not handled, so a crash in between repeats the
        update, and the customer may see a reply twice but never loses an answer.
        """
        catalogue = self.catalogues.pick(language)
        async with self._locks.hold(chat):
            if (refused := await self.guards.refusal(user, catalogue)) is not None:
                if reply is not None:
                    await reply(refused)
                return refused
            session = await self._load(chat)
            if session is None:
                if restart is None:
                    return no_open_order(catalogue)
                started = await self.new_order(chat, user, language=language)
                await restart(started)
                return started
            limited = await self.guards.over_limit(catalogue, user, session, answer, limit_hits)
            if limited is not None:
                if reply is not None:
                    await reply(limited)
                return limited
            return await self._answer(chat, user, catalogue, session, answer, reply)

    async def cancel(
        self, chat: ChatRef, user: UserRef, *, language: str | None = None
    ) -> Turn | None:
        """Cancel the open order (the engine asks first when answers would be lost: the turn
        then carries that question); None when there is none."""
        catalogue = self.catalogues.pick(language)
        async with self._locks.hold(chat):
            if (refused := await self.guards.refusal(user, catalogue)) is not None:
                return refused
            session = await self._load(chat)
            if session is None:
                return None
            cancel = CommandAnswer(name="cancel")
            return await self._answer(chat, user, catalogue, session, cancel)

    async def session(self, chat: ChatRef) -> Session | None:
        """The chat's open session, as saved after its last turn."""
        return await self._load(chat)

    async def settle(self) -> None:
        """Return once every turn scheduled for later (re-sent creates) has run."""
        await self._resends.settle()

    async def aclose(self) -> None:
        """Drop the turns scheduled for later (a restart resumes from the saved sessions);
        write the funnel events still buffered."""
        await self._resends.aclose()
        await self.funnel.aclose()

    # --- one answer -------------------------------------------------------------------------

    async def _answer(
        self,
        chat: ChatRef,
        user: UserRef,
        catalogue: Catalogue,
        session: Session,
        answer: Answer,
        reply: Reply | None = None,
    ) -> Turn:
        turn = TurnContext.now(chat, user, self._clock, catalogue)
        creates = turn.creates
        with log_context(flow=session.flow, step=session.step):
            before = mark(session)
            save = self._checkpoint.before_create(turn)
            async with replies_owed(self.store.create_intents) as creates.owed:
                creates.who = self._checkpoint.create_for(turn, session)
                done = await self.engine.handle(
                    turn.catalogue, session, answer, before_create=save, creates=creates
                )
                await self._effects.after_turn(turn, session, done, reply)
        self.funnel.turn(before, session, done, creates.refusal)
        return done
