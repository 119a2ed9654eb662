"""``CreateCheckpoint``: a turn's idempotency key is saved *before* its create goes out.

The engine calls its runner's ``before_create`` once it made a create's key (the engine's
checkpoint). Here that hands the session with its new key over as ``CreatingSession``: it is
saved in the same commit as the create's intent (``recorded_creates``), so a failure or a
crash keeps both or neither, and a crash during the create cannot lead to a second delivery
after the restart. Every create is recorded as this chat's (``CreateFor``: whose create it is
and the order it keeps), so another instance finishes it if this one dies. A create the API
key's request limit will hold back for more than a few seconds is said to the customer first
(``create_wait``: ``bot.ordering.create_wait.CreateWaitNotice``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.ordering.create_wait import CreateWaitNotice
from bot.ordering.history import OrderHistory
from bot.ordering.turn_context import TurnContext
from bot.ordering.turn_creates import CreateFor, CreatingSession
from bot.store import Store
from conversations import Engine, SavedOrder, Session

BeforeCreate = Callable[[Session], Awaitable[None]]


class CreateCheckpoint:
    """The ``before_create`` of each turn, and whose create a turn would send."""

    def __init__(
        self,
        store: Store,
        engine: Engine,
        history: OrderHistory,
        create_wait: CreateWaitNotice | None,
    ) -> None:
        self._store = store
        self._engine = engine
        self._history = history
        self._create_wait = create_wait

    def before_create(self, turn: TurnContext) -> BeforeCreate:
        """The engine's ``before_create`` for ``turn``: the session with its new idempotency
        key is saved before the create goes out, with its intent (``CreatingSession``, set as
        the turn's ``creates.who``); a wait for the rate budget nobody foresaw is watched
        (``creates.held_back``)."""

        async def save(session: Session) -> None:
            data = session.stored_json()

            async def save_alone() -> None:
                await self._store.sessions.save(turn.chat, turn.user.id, data)

            # Saved with the create's intent, in one commit, just before the request leaves.
            creating = CreatingSession(data, save_alone)
            turn.creates.who = self.create_for(turn, session, creating)
            if self._create_wait is not None:
                foreseen = await self._create_wait.before_create(turn.chat, turn.catalogue)
                turn.creates.held_back = foreseen.held_back

        return save

    def create_for(
        self, turn: TurnContext, session: Session, creating: CreatingSession | None = None
    ) -> CreateFor:
        """Whose create ``turn`` over ``session`` would send (``TurnCreates.who``);
        ``creating``: the session with the create's new key, to save before it leaves."""

        def saved_order() -> str:
            flow = self._engine.registry.get(session.flow)
            answers = {k: v for k, v in session.answers.items() if flow is None or k in flow}
            order = SavedOrder(flow=session.flow, flow_version=session.flow_version,
                               answers=answers)  # fmt: skip
            return self._history.kept(order)

        return CreateFor(turn.chat, turn.user.id, saved_order, creating)
