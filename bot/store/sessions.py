"""Conversation sessions, one per chat, saved after every turn so a restart resumes each chat.

The session itself is the conversations package's pydantic model; the store is handed its JSON
text and never imports the model, so the persistence layer does not depend on the flow engine.
SQLite keeps that text deflated (``session_packing``); PostgreSQL keeps it as it is.
A row exists while a conversation is open: the adapter deletes it when the conversation ends.

A save or delete of a chat's session while a Telegram update is answered in that chat
(``SeenUpdates.begin``; found by the chat each call is handed, ``answering_in``) also records
that update's id in the same commit (a save: in the same statement, the backend's ``save_turn``):
one commit per turn, and the update counts as handled exactly when its effect on the session
is stored.

While such an update is answered, its chat's session is also kept in memory: read at most once
per turn, whatever asks for it (the adapter, then the chat service), and replaced by every
save or delete of that chat. It is forgotten when the update's handlers are done, which is
when the adapter lets go of the chat, so only the chats being answered right now are held.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store.database import Executor, Row
from bot.store.session_packing import pack, unpack
from bot.store.store_backend import Backend, StoreDatabase
from bot.store.updates import AnsweredUpdate, SeenUpdates


@dataclass(frozen=True)
class SessionRecord:
    """A stored session: ``data`` is the JSON text the adapter saved; ``user_id`` is the
    customer's id in the chat's channel."""

    chat: ChatRef
    user_id: int
    data: str
    updated_at: float

    @property
    def user(self) -> UserRef:
        """The customer the session is with."""
        return self.chat.user(self.user_id)


_GET = """SELECT channel, chat_id, user_id, data, updated_at FROM sessions
    WHERE channel = ? AND chat_id = ?"""
_SAVE = """INSERT INTO sessions (channel, chat_id, user_id, data, updated_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (channel, chat_id) DO UPDATE
    SET user_id = excluded.user_id, data = excluded.data, updated_at = excluded.updated_at"""
_DELETE = "DELETE FROM sessions WHERE channel = ? AND chat_id = ?"
_LIST = """SELECT channel, chat_id, user_id, data, updated_at FROM sessions
    ORDER BY updated_at, channel, chat_id"""
# A batch at a time, oldest first, so one long DELETE never holds the writer while turns wait
# (a first pass after an upgrade may find years of abandoned chats). The outer condition is
# checked again on each row: on PostgreSQL a session saved meanwhile by another instance's turn
# is re-read under its row lock and kept.
_PURGE_IDLE = """DELETE FROM sessions WHERE updated_at < ? AND (channel, chat_id) IN (
    SELECT channel, chat_id FROM sessions WHERE updated_at < ? ORDER BY updated_at LIMIT ?)"""
PURGE_BATCH = 500


class Sessions:
    """``store.sessions``: the open conversation of each chat."""

    def __init__(
        self, db: StoreDatabase, clock: Clock, updates: SeenUpdates, backend: Backend
    ) -> None:
        self._db = db
        self._backend = backend
        self._clock = clock
        self._updates = updates
        # chat -> (the update being answered in it, its session as stored; None: no session)
        self._held: dict[ChatRef, tuple[AnsweredUpdate, SessionRecord | None]] = {}
        updates.on_finish(self._let_go)

    async def get(self, chat: ChatRef) -> SessionRecord | None:
        """The chat's saved session, or None when it has no open conversation."""
        held = self._held.get(chat)
        answering = self._updates.answering_in(chat)
        if held is not None and held[0] is answering:
            return held[1]
        row = await self._db.fetch_one(_GET, (chat.channel, chat.id))
        record = _record(row) if row else None
        if answering is not None:
            self._held[chat] = (answering, record)
        return record

    async def save(self, chat: ChatRef, user_id: int, data_json: str) -> None:
        """Replace the chat's session with ``data_json`` (stamped with the store's clock);
        ``user_id`` is the customer's id in the chat's channel."""
        written = await self._write(self._db, chat, user_id, data_json)
        written()

    @contextlib.asynccontextmanager
    async def saving(self, chat: ChatRef, user_id: int, data_json: str) -> AsyncIterator[Executor]:
        """``save``, in a transaction the block adds its own writes to: all of them are one
        commit (a create's intent and the session's move to "creating",
        ``store.create_intents.record``), or none is kept."""
        async with self._db.transaction() as tx:
            written = await self._write(tx, chat, user_id, data_json)
            yield tx
        written()

    async def _write(
        self, executor: Executor, chat: ChatRef, user_id: int, data_json: str
    ) -> Callable[[], None]:
        """Write the session through ``executor`` (with the id of the update being answered,
        when it is not recorded yet); what to note once that write is committed."""
        now = self._clock()
        own = self._hold(chat, SessionRecord(chat, user_id, data_json, now))
        stored: str | bytes = pack(data_json) if self._backend.packs_sessions else data_json
        answering = self._updates.unrecorded_in(chat)
        session = (chat.channel, chat.id, user_id, stored, now)
        if answering is None:
            await executor.execute(_SAVE, session)
        else:
            await self._backend.save_turn(executor, session, answering.update_id)

        def written() -> None:
            if answering is not None:
                self._updates.recorded(answering)  # resolves a push waiting for it
            if not own:
                self._let_go_of(chat)

        return written

    async def delete(self, chat: ChatRef) -> bool:
        """Forget the chat's session; True when there was one."""
        own = self._hold(chat, None)
        answering = self._updates.unrecorded_in(chat)
        key = (chat.channel, chat.id)
        if answering is None:
            deleted = await self._db.execute(_DELETE, key)
        else:  # once per order: a transaction is cheap enough here
            async with self._db.transaction() as tx:
                deleted = await tx.execute(_DELETE, key)
                await self._updates.record(tx, answering)
            self._updates.recorded(answering)
        if not own:
            self._let_go_of(chat)
        return deleted > 0

    async def list_open(self) -> list[SessionRecord]:
        """Every saved session, least recently updated first (to resume after a restart)."""
        return [_record(row) for row in await self._db.fetch_all(_LIST)]

    async def purge_idle(self, before: float, *, batch: int = PURGE_BATCH) -> int:
        """Delete sessions last saved before ``before`` (abandoned chats), ``batch`` rows a
        statement so the turns' writes go on in between; return how many."""
        purged = 0
        try:
            while True:
                deleted = await self._db.execute(_PURGE_IDLE, (before, before, batch))
                purged += deleted
                if deleted < batch:
                    return purged
        finally:
            self._held.clear()  # rare: the turns under way read their chat once more

    def _hold(self, chat: ChatRef, record: SessionRecord | None) -> bool:
        """Before a write of ``record``: when an update is being answered in ``chat``, that
        update holds ``record`` at once (its turn reads what it is writing, even while the
        write is under way: ``ChatService`` draws the reply meanwhile); True then."""
        answering = self._updates.answering_in(chat)
        if answering is not None:
            self._held[chat] = (answering, record)
            return True
        return False

    def _let_go_of(self, chat: ChatRef) -> None:
        """After a write from elsewhere (another task): the update answered in the chat drops
        what it held rather than keep it stale (after the write, so that a read in between
        cannot hold the old row again)."""
        self._held.pop(chat, None)

    def _let_go(self, answered: AnsweredUpdate) -> None:
        if answered.chat is not None:
            held = self._held.get(answered.chat)
            if held is not None and held[0] is answered:
                del self._held[answered.chat]


def _record(row: Row) -> SessionRecord:
    return SessionRecord(
        chat=ChatRef(str(row[0]), int(row[1])),
        user_id=int(row[2]),
        data=unpack(row[3]),
        updated_at=float(row[4]),
    )
