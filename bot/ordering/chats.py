"""``ChatService``: runs the conversation engine for every chat, with the sessions in SQLite.

One per process, shared by every adapter (Telegram, the console). It holds no conversation in
memory: each call loads the chat's session from ``store.sessions``, runs one turn, and saves it
again (or deletes it once the conversation is over), so a restart resumes every chat at its
step. Calls for one chat run one at a time (a per-chat lock); different chats run concurrently.
The lock is the store's ``chat_locks``, held by every process on the store, so a turn that does
not come through Telegram's update processor (an agent's answer over the JSON API or MCP, a
create re-sent after a rate limit) waits for the chat's turn everywhere too. The lock is
re-entrant for the task holding it: a Telegram turn already holds its chat.

Around each turn it does what the engine leaves to its runner:

* the idempotency key is saved *before* the create goes out (the engine's checkpoint), so a
  crash during the create cannot lead to a second delivery after the restart: the session
  with its new key is saved in the same commit as the create's intent (``recorded_creates``),
  so a failure or a crash keeps both or neither;
* a created delivery is linked to the chat in ``store.deliveries`` (the relay finds the chat
  of each webhook event there, and the language the order was said in, which it speaks to the
  customer), with the flow and answers that made it, which is the
  customer's order history (``repeat`` replays the last one into the same flow), and the
  customer's name, phone and places are remembered for their next order (``CustomerMemory``);
* every create is recorded before it is sent, as this chat's (``recorded_creates``: the turn
  runs ``creating_for`` the chat), so another instance finishes it if this one dies; its
  intent stays, answered, until the turn's reply went out (``replies_owed``), so a crash
  between the answer and the reply still gets the customer told (by the follow-up);
* a create whose answer was lost (``AnswerLost``: the customer was told it is being
  checked) is kept in ``store.unconfirmed`` with the request, its key and the saved order, its
  first follow-up due ``first_follow_up_seconds`` later, and ``on_unconfirmed`` wakes the
  worker that finishes it (``bot.ordering.unconfirmed_worker``);
* a customer an operator blocked (``bot.safety.customer_blocking``) gets one polite sentence
  instead of any turn: no flow runs and nothing is created. The block is read under the chat's
  lock, so a block made while a turn waits for its chat is seen by that turn;
* an ``OperatorAlert`` (e.g. the photo host is not allowlisted) goes to ``alert_operators``,
  the same text at most once every ``ALERT_REPEAT_SECONDS``, by any process on the store
  (``store.operator_alerts``; a misconfigured business is met
  by every customer who tries, and the operators need to hear it once, not once a customer);
* after a rate limit the create is sent again once the service allows it, when the adapter
  gave ``deliver_later`` to show the customer that later turn;
* a create the API key's request limit will hold back for more than a few seconds is said to
  the customer first (``create_wait``: ``bot.ordering.create_wait.CreateWaitNotice``).

A turn says what it needs as typed ``effects`` (``DeliveryCreated``, ``AnswerLost``,
``OperatorAlert``, ``ResendAfter``), all carried out in one place, ``_carry_out``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pydantic

from bot.chat_ref import ChatRef, UserRef
from bot.chatlocks import ChatTurnLocks
from bot.clocks import Clock, Sleep
from bot.config.limits_section import LimitsConfig
from bot.funnel.recorder import FunnelRecorder
from bot.funnel.steps import mark
from bot.log_context import log_context
from bot.metrics.recording import creating_in
from bot.ordering.create_wait import CreateWaitNotice
from bot.ordering.duplicate_hold import content_fingerprint
from bot.ordering.history import OrderHistory, customer_ref
from bot.ordering.owed_replies import replies_owed, replies_sent
from bot.ordering.recorded_creates import (
    CreateFor,
    CreatingSession,
    create_for_rest_of_turn,
    creating_for,
)
from bot.ordering.returning_customers import PROVES_PHONES, CustomerMemory
from bot.ordering.unconfirmed_worker import FIRST_FOLLOW_UP_SECONDS
from bot.safety.customer_blocking import CustomerBlocking
from bot.safety.customer_limits import CustomerLimits
from bot.store import Store
from conversations import (
    CONFIRM,
    AnswerLost,
    ChoiceAnswer,
    CommandAnswer,
    DeliveryCreated,
    Effect,
    Engine,
    OperatorAlert,
    ResendAfter,
    SavedOrder,
    Session,
    Turn,
    UnconfirmedOrder,
)
from conversations.dialog import Answer
from conversations.returning import with_proven_phone
from conversations.texts import dialogue
from conversations.texts.catalogue import speaking_language, spoken_language

logger = logging.getLogger(__name__)

AlertOperators = Callable[[str], Awaitable[None]]
DeliverLater = Callable[[ChatRef, Turn], Awaitable[None]]
Reply = Callable[[Turn], Awaitable[None]]


def no_open_order() -> Turn:
    """The turn for an answer when no order is open, in the language being spoken."""
    return Turn(messages=(dialogue.CLOSED,), status="ended")


@asynccontextmanager
async def _spoken(language: str | None) -> AsyncIterator[None]:
    """The turn in ``language`` (a client's code: ``fr``, ``en-GB``); None keeps the one
    already being spoken (the adapter's, or the business default)."""
    if language is None:
        yield
        return
    with speaking_language(language):
        yield


ALERT_REPEAT_SECONDS = 15 * 60


class ChatService:
    """The engine behind every chat. See the module docstring for what happens around a turn.

    ``deliver_later(chat, turn)`` shows a turn that happens without a customer message (the
    create re-sent after a rate limit); without it the customer re-sends from the summary.
    ``sleep`` waits for that. ``on_unconfirmed`` is called once a create whose answer was lost
    is kept (the follow-up worker's ``wake``); its first follow-up falls due
    ``first_follow_up_seconds`` later (see ``FIRST_FOLLOW_UP_SECONDS``).

    Every call takes ``language``, the customer's language code as their client gives it
    (Telegram's ``language_code``, an agent's ``language``): the turn is said in that shipped
    language, or in the business default (``[texts] locale``) when it is missing or not
    shipped. Left out, the turn is said in the language already being spoken
    (``conversations.texts.catalogue.speaking_language``, entered by the adapter).
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
    ) -> None:
        self.engine = engine
        self.store = store
        self.history = OrderHistory(store)
        self.memory = CustomerMemory(store)
        self.blocking = CustomerBlocking(store)
        # No limits unless given ([limits] in the config): a tool's own service takes all.
        self.limits = (
            None if limits is None else CustomerLimits(store, limits, self._tell_operators)
        )
        self._verify_phones = limits is not None and limits.verify_sender_phone
        self.funnel = FunnelRecorder(store.funnel, clock)
        self._alert_operators = alert_operators
        self._clock = clock
        self._deliver_later = deliver_later
        self._sleep = sleep
        self._on_unconfirmed = on_unconfirmed
        self._create_wait = create_wait
        self._first_follow_up = first_follow_up_seconds
        self._locks: ChatTurnLocks = store.chat_locks
        self._later: set[asyncio.Task[None]] = set()

    # --- the adapters' calls ----------------------------------------------------------------

    async def before_start(self, user: UserRef, *, language: str | None = None) -> Turn | None:
        """What a new order of ``user``'s gets instead of starting (they are blocked, or over
        ``[limits] drafts_per_hour``), or None: it may start, and it is counted as started.
        For a caller that writes something of its own before ``start`` (an agent channel's
        conversation): its ``start`` then passes ``counted=True``."""
        async with _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                return refused
            return await self._draft_limited(user)

    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        *,
        flow: str | None = None,
        language: str | None = None,
        counted: bool = False,
    ) -> Turn:
        """A new order in the entry flow (or ``flow``, a registered name: a deep link, a menu
        command); an order still open in this chat is dropped. ``counted``: ``before_start``
        let it through already (the block is read again, under the chat's lock)."""
        async with self._locks.hold(chat), _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                return refused
            if not counted and (limited := await self._draft_limited(user)) is not None:
                return limited
            started = self._clock()
            session, turn = await self.engine.start(
                flow,
                customer=customer_ref(user),
                before_create=self._saver(chat, user),
                remembered=await self.memory.recall(user),
                sender_phone_owner=self._phone_owner(user),
            )
            await self._after_turn(chat, user, session, turn, started)
            self.funnel.turn(None, session, turn)
            return turn

    async def new_order(
        self, chat: ChatRef, user: UserRef, *, flow: str | None = None, language: str | None = None
    ) -> Turn:
        """What a customer's "new order" does (``/new``, a flow's command): a new order in the
        entry flow (or ``flow``), but over an open order whose answers would be lost the turn
        asks first (yes starts the new one, no goes on), as ``cancel`` does."""
        async with self._locks.hold(chat), _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                return refused
            session = await self._load(chat)
            if session is not None and not session.finished:
                started = self._clock()
                turn = await self.engine.start_over(
                    session, flow, before_create=self._saver(chat, user)
                )
                await self._after_turn(chat, user, session, turn, started)
                return turn
        return await self.start(chat, user, flow=flow, language=language)

    async def repeat(self, chat: ChatRef, user: UserRef, *, language: str | None = None) -> Turn:
        """The user's last order again, in the flow that made it (a new order when there is
        none to repeat, saying so); an order still open in this chat is dropped."""
        async with self._locks.hold(chat), _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                return refused
            order = await self.history.last_order(user)
            if order is None:
                turn = await self.start(chat, user, language=language)
                said = (dialogue.NOTHING_TO_REPEAT, *turn.messages)
                return turn.model_copy(update={"messages": said})
            if (limited := await self._draft_limited(user)) is not None:
                return limited
            started = self._clock()
            remembered = await self.memory.recall(user)
            owner = self._phone_owner(user)
            if owner is not None:
                order = with_proven_phone(order, remembered)
            session, turn = await self.engine.replay(
                order,
                customer=customer_ref(user),
                before_create=self._saver(chat, user),
                remembered=remembered,
                sender_phone_owner=owner,
            )
            await self._after_turn(chat, user, session, turn, started)
            self.funnel.turn(None, session, turn)
            return turn

    async def resume(
        self, chat: ChatRef, user: UserRef, *, language: str | None = None
    ) -> Turn | None:
        """The open question again (after a restart, or /start), or None with no open order."""
        async with self._locks.hold(chat), _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                return refused
            session = await self._load(chat)
            if session is None:
                return None
            turn = await self.engine.resume(session)
            await self._after_turn(chat, user, session, turn, self._clock())
            return turn

    async def handle(
        self,
        chat: ChatRef,
        user: UserRef,
        answer: Answer,
        *,
        language: str | None = None,
        reply: Reply | None = None,
    ) -> Turn:
        """One customer answer; with no open order, the turn says so and nothing else.

        ``reply``, when given, shows the turn (it is called only when there was an order to
        answer) while the turn's session is being written, so the customer's reply does not
        wait for the commit. That keeps to what a turn's commit promises (docs/operators.md):
        until it is done the update counts as not handled, so a crash in between repeats the
        update, and the customer may see a reply twice but never loses an answer.
        """
        async with self._locks.hold(chat), _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                if reply is not None:
                    await reply(refused)
                return refused
            session = await self._load(chat)
            if session is None:
                return no_open_order()
            limited = await self._over_limit(user, session, answer)
            if limited is not None:
                if reply is not None:
                    await reply(limited)
                return limited
            return await self._answer(chat, user, session, answer, reply)

    async def cancel(
        self, chat: ChatRef, user: UserRef, *, language: str | None = None
    ) -> Turn | None:
        """Cancel the open order (the engine asks first when answers would be lost: the turn
        then carries that question); None when there is none."""
        async with self._locks.hold(chat), _spoken(language):
            if (refused := await self.blocking.refusal(user)) is not None:
                return refused
            session = await self._load(chat)
            if session is None:
                return None
            return await self._answer(chat, user, session, CommandAnswer(name="cancel"))

    def _phone_owner(self, user: UserRef) -> int | None:
        """The account whose own shared contact alone gives ``user``'s phone: theirs, when
        ``[limits] verify_sender_phone`` asks it and their channel can prove a number."""
        return user.id if self._verify_phones and user.channel in PROVES_PHONES else None

    def hold(self, chat: ChatRef) -> contextlib.AbstractAsyncContextManager[None]:
        """The chat's turn for the block: a caller that reads and writes around a turn (an
        agent channel's transcript) keeps it whole. The calls above, made inside, go on at
        once (the lock is the current task's already)."""
        return self._locks.hold(chat)

    async def session(self, chat: ChatRef) -> Session | None:
        """The chat's open session, as saved after its last turn."""
        return await self._load(chat)

    async def settle(self) -> None:
        """Return once every turn scheduled for later (re-sent creates) has run."""
        while self._later:
            await asyncio.gather(*self._later, return_exceptions=True)

    async def aclose(self) -> None:
        """Drop the turns scheduled for later (a restart resumes from the saved sessions);
        write the funnel events still buffered."""
        for task in list(self._later):
            task.cancel()
        await asyncio.gather(*self._later, return_exceptions=True)
        await self.funnel.aclose()

    # --- around each turn -------------------------------------------------------------------

    async def _draft_limited(self, user: UserRef) -> Turn | None:
        """Over ``[limits] drafts_per_hour``: why no order starts; else the start is counted."""
        if self.limits is None:
            return None
        hit = await self.limits.before_draft(user)
        return None if hit is None else Turn(messages=(hit.said(),), status="ended")

    async def _over_limit(self, user: UserRef, session: Session, answer: Answer) -> Turn | None:
        """At the summary's Confirm of a customer over a ``[limits]`` limit: the summary again
        after why (nothing is created; they confirm once the limit frees up)."""
        confirms = isinstance(answer, ChoiceAnswer) and answer.option == CONFIRM
        if self.limits is None or not confirms or answer.step != session.step:
            return None
        hit = await self.limits.before_create(user)
        if hit is None:
            return None
        again = await self.engine.resume(session)
        return again.model_copy(update={"messages": (hit.said(), *again.messages)})

    async def _answer(
        self,
        chat: ChatRef,
        user: UserRef,
        session: Session,
        answer: Answer,
        reply: Reply | None = None,
    ) -> Turn:
        started = self._clock()
        with log_context(flow=session.flow, step=session.step):
            before = mark(session)
            save = self._saver(chat, user)
            async with replies_owed(self.store.create_intents):
                with creating_for(self._create_for(chat, user, session)):
                    turn = await self.engine.handle(session, answer, before_create=save)
                await self._after_turn(chat, user, session, turn, started, reply)
        self.funnel.turn(before, session, turn)
        return turn

    def _saver(self, chat: ChatRef, user: UserRef) -> Callable[[Session], Awaitable[None]]:
        """The engine's ``before_create`` for this chat: the session with its new idempotency
        key is saved before the create goes out, with its intent (``CreatingSession``)."""

        async def save(session: Session) -> None:
            data = session.stored_json()

            async def save_alone() -> None:
                await self.store.sessions.save(chat, user.id, data)

            # Saved with the create's intent, in one commit, just before the request leaves.
            creating = CreatingSession(data, save_alone)
            create_for_rest_of_turn(self._create_for(chat, user, session, creating))
            creating_in(session.flow)  # the create's metric is labelled with its flow
            if self._create_wait is not None:
                await self._create_wait.before_create(chat)

        return save

    def _create_for(
        self,
        chat: ChatRef,
        user: UserRef,
        session: Session,
        creating: CreatingSession | None = None,
    ) -> CreateFor:
        """Whose create the turn over ``session`` would send (``recorded_creates``);
        ``creating``: the session with the create's new key, to save before it leaves."""

        def saved_order() -> str:
            flow = self.engine.registry.get(session.flow)
            answers = {k: v for k, v in session.answers.items() if flow is None or k in flow}
            order = SavedOrder(flow=session.flow, flow_version=session.flow_version,
                               answers=answers)  # fmt: skip
            return self.history.kept(order)

        return CreateFor(chat, user.id, saved_order, creating)

    async def _after_turn(
        self,
        chat: ChatRef,
        user: UserRef,
        session: Session,
        turn: Turn,
        started: float,
        reply: Reply | None = None,
    ) -> None:
        """``started``: when the turn began, before any create of it went out; ``reply``
        shows the turn while its session is written (see ``handle``)."""
        # What must outlive the session is kept before it is written (or deleted): a crash
        # in between leaves the key in the saved session. The rest waits for the write.
        first = [e for e in turn.effects if isinstance(e, DeliveryCreated | AnswerLost)]
        for kept in first:
            await self._carry_out(kept, chat, user, session, started)
        written: Awaitable[object] = (
            self.store.sessions.delete(chat)
            if session.finished
            else self.store.sessions.save(chat, user.id, session.stored_json())
        )
        if reply is None:
            await written
        else:
            await _while_written(written, reply(turn))
        # The reply is out (or, without ``reply``, handed back to an adapter that shows it
        # at once): a create of the turn needs no notice from the follow-up.
        await replies_sent()
        for effect in turn.effects:
            if effect not in first:
                await self._carry_out(effect, chat, user, session, started)

    async def _carry_out(
        self, effect: Effect, chat: ChatRef, user: UserRef, session: Session, started: float
    ) -> None:
        """What the runner does for each effect of a turn (``Turn.effects``), in one place."""
        match effect:
            case DeliveryCreated(delivery=delivery, order=order, told=told):
                created = delivery.created_at.timestamp() if delivery.created_at else self._clock()
                customer = delivery.customer
                linked = await self.store.deliveries.add(
                    delivery.id,
                    chat,
                    user.id,
                    created,
                    customer.receiver_phone if customer else None,
                    delivery.tracking_url,
                    delivery.status,
                    saved_order=self.history.kept(order),
                    # The created turn's message carries the link (``dialogue.created``): once.
                    tracking_sent=delivery.tracking_url is not None,
                    # The relay says the delivery's news in the language the order was said in.
                    language=spoken_language(),
                    told=told,
                )
                if not linked and told:
                    # Linked already (the recorded create's settle links it in the create's
                    # own commit): what the created turn tells is still told once only.
                    await self.store.deliveries.note_told(delivery.id, told)
                # A session that asked for a proven phone took none other.
                proven = session.sender_phone_owner is not None
                await self.memory.remember(user, order, phone_verified=proven)
            case AnswerLost(unconfirmed=unconfirmed):
                await self._keep_unconfirmed(chat, user, unconfirmed, started)
            case OperatorAlert(text=text):
                await self._alert(text)
            case ResendAfter(seconds=seconds):
                if self._deliver_later is not None:
                    self._resend_later(chat, user, session, seconds)

    async def _keep_unconfirmed(
        self, chat: ChatRef, user: UserRef, unconfirmed: UnconfirmedOrder, started: float
    ) -> None:
        """Keep a create whose answer was lost, due soon, and wake its worker. Before the
        session is deleted: a crash in between leaves the key in the saved session."""
        request = unconfirmed.request
        assert request.idempotencyKey is not None  # the engine always sends its key
        await self.store.unconfirmed.add(
            request.idempotencyKey,
            chat,
            user.id,
            request=request.model_dump_json(),
            saved_order=self.history.kept(unconfirmed.order),
            fingerprint=content_fingerprint(request),
            created_at=started,
            next_attempt_at=self._clock() + self._first_follow_up,
            language=spoken_language(),
        )
        # Kept as unconfirmed: its intent is settled (a crash in between leaves both; the
        # intent's hand-over then finds the key kept already).
        await self.store.create_intents.drop(request.idempotencyKey)
        if self._on_unconfirmed is not None:
            self._on_unconfirmed()

    async def _alert(self, text: str) -> None:
        # Kept in the store: each process sharing it would otherwise send it once more.
        if not await self.store.operator_alerts.take(text, repeat_after=ALERT_REPEAT_SECONDS):
            logger.info("operator alert not repeated (sent in the last %d s)", ALERT_REPEAT_SECONDS)
            return
        if self._alert_operators is None:
            logger.error("operator alert (no operator channel): %s", text)
            return
        try:
            await self._alert_operators(text)
        except Exception:
            # The customer's turn is saved already; a failed alert must not undo it.
            logger.exception("could not alert the operators: %s", text)

    async def _tell_operators(self, text: str) -> None:
        """An alert already limited by its sender (a limit: once per customer per day)."""
        if self._alert_operators is None:
            logger.warning("operator alert (no operator channel): %s", text)
            return
        try:
            await self._alert_operators(text)
        except Exception:
            logger.exception("could not alert the operators: %s", text)

    async def _load(self, chat: ChatRef) -> Session | None:
        record = await self.store.sessions.get(chat)
        if record is None:
            return None
        try:
            return Session.model_validate_json(record.data)
        except pydantic.ValidationError:
            logger.warning("chat %s had an unreadable session; it was dropped", chat)
            await self.store.sessions.delete(chat)
            return None

    # --- the create re-sent after a rate limit ------------------------------------------------

    def _resend_later(self, chat: ChatRef, user: UserRef, session: Session, delay: float) -> None:
        step, version, key = session.step, session.prompt_version, session.idempotency_key
        if step is None or key is None:
            return

        async def resend() -> None:
            await self._sleep(delay)
            async with self._locks.hold(chat):
                current = await self._load(chat)
                if current is None or (
                    (current.step, current.prompt_version, current.idempotency_key)
                    != (step, version, key)
                ):
                    return  # the customer moved on (or sent it again) meanwhile
                confirm = ChoiceAnswer(option=CONFIRM, step=step, version=version)
                assert self._deliver_later is not None
                # Shown as the reply of the turn: a delivery it made is told once, by it.
                await self._answer(
                    chat, user, current, confirm, functools.partial(self._deliver_later, chat)
                )

        task = asyncio.create_task(resend())
        self._later.add(task)
        task.add_done_callback(self._later.discard)


async def _while_written(written: Awaitable[object], reply: Awaitable[None]) -> None:
    """Await ``reply`` while ``written`` runs, then ``written`` (its failure is raised)."""
    writing = asyncio.ensure_future(written)
    # One step for the write, which queues its statement on the database's thread and waits:
    # the reply is then drawn and sent while the database works.
    await asyncio.sleep(0)
    try:
        await reply
    finally:
        await writing
