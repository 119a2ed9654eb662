"""The engine: runs a flow one answer at a time over a session that is plain data.

::

    engine = Engine(default_registry(), services, default_phone_region="NG")
    session, turn = await engine.start("order", customer="42")
    turn = await engine.handle(session, ChoiceAnswer(option="errand", step=..., version=...),
                               before_create=save)
    turn = await engine.resume(session)  # after a restart: the open question again
    session, turn = await engine.replay(turn.order)  # "repeat my last delivery"

``handle`` updates ``session`` in place, and only when the turn completes: if a service is down
the session is left as it was and the turn says so, so the last prompt stays valid. The runner
saves the session after every turn; ``before_create`` is how it saves it once more, after the
idempotency key is made and before the create goes out. The engine keeps nothing between turns.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

from conversations.dialog import Answer, SavedOrder, Turn
from conversations.engine.turn_run import TurnRun
from conversations.flow import FlowRegistry
from conversations.returning import Remembered
from conversations.services import BeforeCreate, Services, ServiceUnavailable
from conversations.session import Session
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue


def _new_key() -> str:
    return f"chat-{uuid.uuid4().hex}"


def _new_session_id() -> str:
    return uuid.uuid4().hex


class Engine:
    """Runs the flows of ``registry`` with ``services``; holds no per-chat state.

    ``default_phone_region`` is the region phone numbers without a country code belong to.
    ``new_idempotency_key`` and ``new_session_id`` make fresh ids (tests pass predictable ones).
    """

    def __init__(
        self,
        registry: FlowRegistry,
        services: Services,
        *,
        default_phone_region: str = "NG",
        new_idempotency_key: Callable[[], str] = _new_key,
        new_session_id: Callable[[], str] = _new_session_id,
    ) -> None:
        self.registry = registry
        self.services = services
        self.phone_region = default_phone_region
        self.new_idempotency_key = new_idempotency_key
        self.new_session_id = new_session_id

    async def start(
        self,
        catalogue: Catalogue,
        flow: str | None = None,
        session_id: str | None = None,
        *,
        customer: str | None = None,
        before_create: BeforeCreate | None = None,
        remembered: Remembered | None = None,
        sender_phone_owner: int | None = None,
        creates: object = None,
    ) -> tuple[Session, Turn]:
        """A new session of ``flow`` (a registered name, KeyError otherwise; the registry's
        entry flow when None) and its first turn.

        ``customer`` is who is ordering, an opaque reference the session keeps for whoever
        runs it (the bot uses the user id). ``remembered`` is what this customer's last orders
        gave (``conversations.returning``): offered again, never asked for.
        ``sender_phone_owner``: the customer's account whose own shared contact alone gives
        the sender's phone (``Session.sender_phone_owner``); None takes a typed phone.
        """
        session = self._new_session(
            flow or self.registry.entry, session_id, customer, remembered, sender_phone_owner
        )
        turn = await self._turn(catalogue, session, lambda run: run.begin(), before_create, creates)
        return session, turn

    async def replay(
        self,
        catalogue: Catalogue,
        order: SavedOrder,
        session_id: str | None = None,
        *,
        customer: str | None = None,
        before_create: BeforeCreate | None = None,
        remembered: Remembered | None = None,
        sender_phone_owner: int | None = None,
        creates: object = None,
    ) -> tuple[Session, Turn]:
        """A new session that orders ``order`` again, in the flow that made it: its answers are
        given again and only what cannot be reused, or today's settings no longer allow, is
        asked. An order from a flow that is gone or has another version starts a new order
        in the entry flow instead, saying so."""
        flow = self.registry.get(order.flow)
        if flow is None or flow.version != order.flow_version:
            session, turn = await self.start(
                catalogue,
                session_id=session_id,
                customer=customer,
                before_create=before_create,
                remembered=remembered,
                sender_phone_owner=sender_phone_owner,
                creates=creates,
            )
            said = (dialogue.CANNOT_REPEAT.render(catalogue), *turn.messages)
            return session, turn.model_copy(update={"messages": said})
        session = self._new_session(flow.name, session_id, customer, remembered, sender_phone_owner)
        turn = await self._turn(
            catalogue, session, lambda run: run.replay(order), before_create, creates
        )
        return session, turn

    async def handle(
        self,
        catalogue: Catalogue,
        session: Session,
        answer: Answer,
        *,
        before_create: BeforeCreate | None = None,
        creates: object = None,
    ) -> Turn:
        """Apply one answer to ``session`` (updated in place) and say what comes next.

        ``creates`` (here and in ``start``, ``replay``, ``start_over``): the runner's own value
        for the turn's creates, handed to ``DeliveryCreator.create`` as its ``turn``, unread."""
        return await self._turn(
            catalogue, session, lambda run: run.handle(answer), before_create, creates
        )

    async def start_over(
        self,
        catalogue: Catalogue,
        session: Session,
        flow: str | None = None,
        *,
        before_create: BeforeCreate | None = None,
        creates: object = None,
    ) -> Turn:
        """A new order in ``flow`` (the entry flow when None) in place of ``session``'s (updated
        in place): when answers would be lost the turn asks first, as ``cancel`` does, and the
        customer's yes starts it."""
        return await self._turn(
            catalogue, session, lambda run: run.start_over(flow), before_create, creates
        )

    async def resume(self, catalogue: Catalogue, session: Session) -> Turn:
        """The open question again, e.g. after the bot restarted or the customer said /start."""
        return await self._turn(catalogue, session, lambda run: run.resume(), None, None)

    def _new_session(
        self,
        flow: str,
        session_id: str | None,
        customer: str | None,
        remembered: Remembered | None = None,
        sender_phone_owner: int | None = None,
    ) -> Session:
        entry = self.registry[flow]
        return Session(
            id=session_id or self.new_session_id(),
            entry_flow=entry.name,
            flow=entry.name,
            flow_version=entry.version,
            customer=customer,
            remembered=remembered,
            sender_phone_owner=sender_phone_owner,
        )

    async def _turn(
        self,
        catalogue: Catalogue,
        session: Session,
        act: Callable[[TurnRun], Awaitable[None]],
        before_create: BeforeCreate | None,
        creates: object,
    ) -> Turn:
        work = session.working_copy()
        run = TurnRun(
            self.registry,
            self.services,
            self.phone_region,
            work,
            catalogue,
            new_idempotency_key=self.new_idempotency_key,
            before_create=before_create,
            creates=creates,
        )
        try:
            await act(run)
        except ServiceUnavailable:
            return Turn(
                messages=(dialogue.SERVICE_DOWN.render(catalogue),),
                status=session.status,
                failures=session.failures,
            )
        # The turn's state into ``session`` at once: as a ``setattr`` of each field (the
        # model validates no assignment), without pydantic's per-field ``__setattr__``.
        session.__dict__.update(work.__dict__)
        session.__pydantic_fields_set__.update(Session.model_fields)
        return run.turn()
