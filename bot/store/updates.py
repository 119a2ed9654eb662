"""Telegram update ids already handled, so a repeated ``update_id`` is ignored.

Telegram resends an update when a webhook answer was lost or slow, and long polling can hand
one out twice around a restart. Ids are kept for a while and then pruned by age: Telegram may
restart its numbering at random after a week without updates, so age, not id, says what is old.

One commit per turn: ``begin`` only reads. It notes the update as the one being answered in its
chat (``answering_in``), and the turn's first write of that chat's session (``store.sessions``,
which is handed the chat with every call) records the id in the same commit as the session.
``finish``, after the handlers, records it alone when no session write did (a command that
changes no session, an update from no chat). An update is thus marked handled together with its
effect: a crash before that commit leaves it unmarked, and Telegram's repeat is handled then.
A chat has at most one update being answered at a time, and repeats of one chat never race: the
Telegram adapter (``bot.telegram.application``: ``gatekeeper`` begins, ``recorder`` finishes)
runs a chat's updates one at a time under the chat's lock, each from ``begin`` to ``finish``,
and that is also how long ``store.sessions`` keeps the chat's session in memory (read once per
turn).

``committed`` lets the webhook wait a moment for the turn's commit instead of storing the update
on its own (``bot.telegram.stored_updates.hand_in``): an update whose id is committed here was
handled, which is more than stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
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
    """An update being answered (in ``chat``, when it has one), and whether its id is
    recorded yet."""

    update_id: int
    chat: ChatRef | None = None
    recorded: bool = False


class SeenUpdates:
    """``store.updates``: dedupe of Telegram updates."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._on_finish: list[Callable[[AnsweredUpdate], None]] = []
        # chat -> the update being answered in it, from ``begin`` to ``finish``
        self._answering: dict[ChatRef, AnsweredUpdate] = {}
        # update id -> the futures ``committed`` handed out for it (a repeat may wait too)
        self._awaited: dict[int, list[asyncio.Future[None]]] = {}

    async def seen(self, update_id: int) -> bool:
        """Record ``update_id``; True when it had been recorded before (a repeat to ignore)."""
        repeat = await self._db.execute(_RECORD, (update_id, self._clock())) == 0
        self._resolve(update_id)
        return repeat

    async def begin(self, update_id: int, chat: ChatRef | None = None) -> bool:
        """Start answering ``update_id`` (from ``chat``); False when it was handled before.

        Nothing is written: the id is recorded with the first write of ``chat``'s session, or
        by ``finish``. Call ``finish`` once the update's handlers are done.
        """
        if await self._db.fetch_one(_IS_SEEN, (update_id,)) is not None:
            self._resolve(update_id)  # a repeat: committed before
            return False
        if chat is not None:
            self._answering[chat] = AnsweredUpdate(update_id, chat)
        return True

    def answering_in(self, chat: ChatRef) -> AnsweredUpdate | None:
        """The update being answered in ``chat``, while its handlers run."""
        return self._answering.get(chat)

    def unrecorded_in(self, chat: ChatRef) -> AnsweredUpdate | None:
        """The update being answered in ``chat``, when its id is not recorded yet."""
        answering = self._answering.get(chat)
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

    async def finish(self, update_id: int, chat: ChatRef | None = None) -> None:
        """The handlers of ``update_id`` (from ``chat``, as ``begin`` was told) are done:
        record its id if no session write did."""
        answering = None if chat is None else self._answering.pop(chat, None)
        if answering is None:
            answering = AnsweredUpdate(update_id, chat)  # no chat: nothing recorded it yet
        for listener in self._on_finish:
            listener(answering)
        if not answering.recorded:
            await self.record(self._db, answering)
            self.recorded(answering)

    async def prune(self, before: float) -> int:
        """Forget ids first seen before ``before``; return how many."""
        return await self._db.execute(_PRUNE, (before,))
