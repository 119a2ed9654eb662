"""``TurnEffects``: what a turn's runner does once the engine answered, in one place.

A turn says what it needs as typed ``Turn.effects``, carried out by ``carry_out``:

* ``DeliveryCreated``: the delivery is linked to the chat in ``store.deliveries`` (the relay
  finds the chat of each webhook event there, and the language the order was said in, which
  it speaks to the customer), with the flow and answers that made it, which is the customer's
  order history (``repeat`` replays the last one into the same flow), and the customer's name,
  phone and places are remembered for their next order (``CustomerMemory``);
* ``AnswerLost`` (the customer was told it is being checked): the create is kept in
  ``store.unconfirmed`` with the request, its key and the saved order, its first follow-up due
  ``first_follow_up_seconds`` later, and ``on_unconfirmed`` wakes the worker that finishes it
  (``bot.ordering.unconfirmed_worker``);
* ``OperatorAlert``: to the operators, once in a while (``alerting``);
* ``ResendAfter``: the create is sent again once the rate limit allows it (``later_resends``).

``after_turn`` keeps what must outlive the session first, then writes the session (or deletes
it once the order is over) while the turn's reply is sent, then carries out the rest. A
created delivery's intent stays, answered, until the turn's reply went out (the turn's
``RepliesOwed``, ``TurnCreates.owed``), so a crash between the answer and the reply still gets
the customer told.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.clocks import Clock
from bot.ordering.alerting import OperatorAlerts
from bot.ordering.duplicate_hold import content_fingerprint
from bot.ordering.history import OrderHistory
from bot.ordering.later_resends import LaterResends
from bot.ordering.returning_customers import CustomerMemory
from bot.ordering.turn_context import Reply, TurnContext
from bot.partner.listed import listed_details
from bot.store import Store
from conversations import (
    AnswerLost,
    DeliveryCreated,
    Effect,
    OperatorAlert,
    ResendAfter,
    Session,
    Turn,
    UnconfirmedOrder,
)


class TurnEffects:
    """Carries out each turn's effects; ``clock`` dates the links and follow-ups."""

    def __init__(
        self,
        store: Store,
        *,
        history: OrderHistory,
        memory: CustomerMemory,
        alerts: OperatorAlerts,
        resends: LaterResends,
        clock: Clock,
        on_unconfirmed: Callable[[], None] | None,
        first_follow_up_seconds: float,
    ) -> None:
        self._store = store
        self._history = history
        self._memory = memory
        self._alerts = alerts
        self._resends = resends
        self._clock = clock
        self._on_unconfirmed = on_unconfirmed
        self._first_follow_up = first_follow_up_seconds

    async def after_turn(
        self, turn: TurnContext, session: Session, done: Turn, reply: Reply | None = None
    ) -> None:
        """``done`` (the engine's turn over ``session``) kept: its session written, its
        effects carried out; ``reply`` shows it while its session is written (see
        ``ChatService.handle``)."""
        # What must outlive the session is kept before it is written (or deleted): a crash
        # in between leaves the key in the saved session. The rest waits for the write.
        first = [e for e in done.effects if isinstance(e, DeliveryCreated | AnswerLost)]
        for kept in first:
            await self._keep(kept, turn, session)
        written: Awaitable[object] = (
            self._store.sessions.delete(turn.chat)
            if session.finished
            else self._store.sessions.save(turn.chat, turn.user.id, session.stored_json())
        )
        if reply is None:
            await written
        else:
            await _while_written(written, reply(done))
        # The reply is out (or, without ``reply``, handed back to an adapter that shows it
        # at once): a create of the turn needs no notice from the follow-up.
        if (owed := turn.creates.owed) is not None:
            await owed.told()
        for effect in done.effects:
            if effect not in first:
                await self.carry_out(effect, turn, session)

    async def carry_out(self, effect: Effect, turn: TurnContext, session: Session) -> None:
        """What the runner does for each effect of a turn (``Turn.effects``), in one place."""
        match effect:
            case DeliveryCreated() | AnswerLost():
                await self._keep(effect, turn, session)
            case OperatorAlert(text=text):
                await self._alerts.alert(text)
            case ResendAfter(seconds=seconds):
                self._resends.schedule(turn.chat, turn.user, turn.catalogue, session, seconds)

    async def _keep(
        self, effect: DeliveryCreated | AnswerLost, turn: TurnContext, session: Session
    ) -> None:
        """What must outlive the session: the created delivery's link, or the create whose
        answer was lost (``after_turn`` keeps these before the session is written)."""
        match effect:
            case DeliveryCreated():
                await self._link(effect, turn, session)
            case AnswerLost(unconfirmed=unconfirmed):
                await self._keep_unconfirmed(turn, unconfirmed)

    async def _link(self, created: DeliveryCreated, turn: TurnContext, session: Session) -> None:
        """The created delivery linked to the chat, and its customer remembered."""
        delivery, order, told = created.delivery, created.order, created.told
        at = delivery.created_at.timestamp() if delivery.created_at else self._clock()
        customer = delivery.customer
        linked = await self._store.deliveries.add(
            delivery.id,
            turn.chat,
            turn.user.id,
            at,
            customer.receiver_phone if customer else None,
            delivery.tracking_url,
            delivery.status,
            saved_order=self._history.kept(order),
            # The created turn's message carries the link (``dialogue.created``): once.
            tracking_sent=delivery.tracking_url is not None,
            # The relay says the delivery's news in the language the order was said in.
            language=turn.language,
            told=told,
            details=listed_details(delivery),
        )
        if not linked and told:
            # Linked already (the recorded create's settle links it in the create's own
            # commit): what the created turn tells is still told once only.
            await self._store.deliveries.note_told(delivery.id, told)
        # A session that asked for a proven phone took none other.
        proven = session.sender_phone_owner is not None
        await self._memory.remember(turn.user, order, phone_verified=proven)

    async def _keep_unconfirmed(self, turn: TurnContext, unconfirmed: UnconfirmedOrder) -> None:
        """Keep a create whose answer was lost, due soon, and wake its worker. Before the
        session is deleted: a crash in between leaves the key in the saved session."""
        request = unconfirmed.request
        assert request.idempotencyKey is not None  # the engine always sends its key
        await self._store.unconfirmed.add(
            request.idempotencyKey,
            turn.chat,
            turn.user.id,
            request=request.model_dump_json(),
            saved_order=self._history.kept(unconfirmed.order),
            fingerprint=content_fingerprint(request),
            created_at=turn.started,
            next_attempt_at=self._clock() + self._first_follow_up,
            language=turn.language,
        )
        # Kept as unconfirmed: its intent is settled (a crash in between leaves both; the
        # intent's hand-over then finds the key kept already).
        await self._store.create_intents.drop(request.idempotencyKey)
        if self._on_unconfirmed is not None:
            self._on_unconfirmed()


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
