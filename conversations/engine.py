"""The engine: runs a flow one answer at a time over a session that is plain data.

::

    engine = Engine(default_registry(), services, default_phone_region="NG")
    session, turn = await engine.start("order", customer="42")
    turn = await engine.handle(session, ChoiceAnswer(option="errand", step=..., version=...))
    turn = await engine.resume(session)  # after a restart: the open question again

``handle`` updates ``session`` in place, and only when the turn completes: if a service is down
the session is left as it was and the turn says so, so the last prompt stays valid. The runner
saves the session after every turn; the engine itself keeps nothing between turns.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

from conversations.dialog import Answer, Turn
from conversations.flow import FlowRegistry
from conversations.run import Run
from conversations.services import Services, ServiceUnavailable
from conversations.session import Session
from conversations.texts import dialogue as wording


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
        self, flow: str, session_id: str | None = None, *, customer: str | None = None
    ) -> tuple[Session, Turn]:
        """A new session of ``flow`` (a registered name; KeyError otherwise) and its first turn.

        ``customer`` is who is ordering, an opaque reference the session keeps for the
        services (``OrderHistory``); without it, the customer has no earlier orders.
        """
        entry = self.registry[flow]
        session = Session(
            id=session_id or self.new_session_id(),
            entry_flow=entry.name,
            flow=entry.name,
            flow_version=entry.version,
            customer=customer,
        )
        return session, await self._turn(session, lambda run: run.begin())

    async def handle(self, session: Session, answer: Answer) -> Turn:
        """Apply one answer to ``session`` (updated in place) and say what comes next."""
        return await self._turn(session, lambda run: run.handle(answer))

    async def resume(self, session: Session) -> Turn:
        """The open question again, e.g. after the bot restarted or the customer said /start."""
        return await self._turn(session, lambda run: run.resume())

    async def _turn(self, session: Session, act: Callable[[Run], Awaitable[None]]) -> Turn:
        work = session.working_copy()
        run = Run(self, work)
        try:
            await act(run)
        except ServiceUnavailable:
            return Turn(messages=(wording.SERVICE_DOWN,), status=session.status)
        for name in Session.model_fields:
            setattr(session, name, getattr(work, name))
        return run.turn()
