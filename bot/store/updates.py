"""Telegram update ids already handled, so a repeated ``update_id`` is ignored.

Telegram resends an update when a webhook answer was lost or slow, and long polling can hand
one out twice around a restart. Ids are kept for a while and then pruned by age: Telegram may
restart its numbering at random after a week without updates, so age, not id, says what is old.

One commit per turn: ``begin`` only reads. It notes the update as the one the current task
answers (a context variable, so it follows the turn through its awaits and nothing else), and
the turn's first session write (``store.sessions``) records the id in the same commit as the
session. ``finish``, after the handlers, records it alone when no session write did (a
command that changes no session). An update is thus marked handled together with its effect:
a crash before that commit leaves it unmarked, and Telegram's repeat is handled then. Repeats
of one chat never race: the Telegram adapter runs a chat's updates one at a time, each from
``begin`` to ``finish``, and that is also how long ``store.sessions`` keeps the chat's session
in memory (read once per turn).

``committed`` lets the webhook wait a moment for the turn's commit instead of storing the update
on its own (``bot.telegram.stored_updates.hand_in``): an update whose id is committed here was
handled, which is more than stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Executor
from bot.store.store_backend import StoreDatabase

_RECORD = "INSERT INTO seen_updates (update_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
_IS_SEEN = "SELECT 1 FROM seen_updates WHERE update_id = ?"
_PRUNE = "DELETE FROM seen_updates WHERE seen_at < ?"


@dataclass(eq=False)
class AnsweredUpdate:
    """The update the current task answers (in ``chat``, when it has one), whether its
    id is recorded yet, and whether its handlers are still running."""

    update_id: int
    chat: ChatRef | None = None
    recorded: bool = False
    running: bool = True


_answering: ContextVar[AnsweredUpdate | None] = ContextVar("answering_update", default=None)


class SeenUpdates:
    """``store.updates``: dedupe of Telegram updates."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._on_finish: list[Callable[[AnsweredUpdate], None]] = []
        # update id -> the futures ``committed`` handed out for it (a repeat may wait too)
        self._awaited: dict[int, list[asyncio.Future[None]]] = {}

    async def seen(self, update_id: int) -> bool:
        """Record ``update_id``; True when it had been recorded before (a repeat to ignore)."""
        repeat = await self._db.execute(_RECORD, (update_id, self._clock())) == 0
        self._resolve(update_id)
        return repeat

    async def begin(self, update_id: int, chat: ChatRef | None = None) -> bool:
        """Start answering ``update_id`` (from ``chat``) in this task; False when it was
        handled before.

        Nothing is written: the id is recorded with the turn's first session write, or by
        ``finish``. Call ``finish`` once the update's handlers are done.
        """
        if await self._db.fetch_one(_IS_SEEN, (update_id,)) is not None:
            self._resolve(update_id)  # a repeat: committed before
            return False
        _answering.set(AnsweredUpdate(update_id, chat))
        return True

    def answering(self) -> AnsweredUpdate | None:
        """The update this task answers, while its handlers run."""
        answering = _answering.get()
        return answering if answering is not None and answering.running else None

    def unrecorded(self) -> AnsweredUpdate | None:
        """The update this task answers, when its id is not recorded yet."""
        answering = self.answering()
        return answering if answering is not None and not answering.recorded else None

    def on_finish(self, listener: Callable[[AnsweredUpdate], None]) -> None:
        """Call ``listener`` with each update once its handlers are done."""
        self._on_finish.append(listener)

    async def record(self, executor: Executor, answering: AnsweredUpdate) -> None:
        """Record ``answering``'s id through ``executor`` (an open transaction, usually)."""
        await executor.execute(_RECORD, (answering.update_id, self._clock()))

    def recorded(self, answering: AnsweredUpdate) -> None:
        """``answering``'s id is committed (its turn's save, or ``finish``)."""
        answering.recorded = True
        self._resolve(answering.update_id)

    def committed(self, update_id: int) -> asyncio.Future[None]:
        """Resolved once a turn of this process commits ``update_id`` as handled (or finds it
        handled before). Pass it to ``forget`` when no longer waiting."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._awaited.setdefault(update_id, []).append(future)
        return future

    def forget(self, update_id: int, future: asyncio.Future[None]) -> None:
        """Stop waiting with ``future`` (from ``committed``)."""
        waiting = self._awaited.get(update_id, [])
        if future in waiting:
            waiting.remove(future)
            if not waiting:
                del self._awaited[update_id]
        future.cancel()

    def _resolve(self, update_id: int) -> None:
        for future in self._awaited.pop(update_id, []):
            if not future.done():
                future.set_result(None)

    async def finish(self) -> None:
        """The update's handlers are done: record its id if no session write did."""
        answering = self.answering()
        _answering.set(None)
        if answering is None:
            return
        # Tasks the handlers started still see the update; from now on it is over for them.
        answering.running = False
        for listener in self._on_finish:
            listener(answering)
        if not answering.recorded:
            await self.record(self._db, answering)
            self.recorded(answering)

    async def prune(self, before: float) -> int:
        """Forget ids first seen before ``before``; return how many."""
        return await self._db.execute(_PRUNE, (before,))
