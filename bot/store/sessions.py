"""Conversation sessions, one per chat, saved after every turn so a restart resumes each chat.

The session itself is the conversations package's pydantic model; the store keeps its JSON text
and never imports the model, so the persistence layer does not depend on the flow engine.
A row exists while a conversation is open: the adapter deletes it when the conversation ends.

A save or delete made while answering a Telegram update (``SeenUpdates.begin``) also records
that update's id, in the same transaction: one commit per turn, and the update counts as
handled exactly when its effect on the session is stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.clocks import Clock
from bot.store.database import Database, Row
from bot.store.updates import SeenUpdates


@dataclass(frozen=True)
class SessionRecord:
    """A stored session: ``data`` is the JSON text the adapter saved."""

    chat_id: int
    user_id: int
    data: str
    updated_at: float


_GET = "SELECT chat_id, user_id, data, updated_at FROM sessions WHERE chat_id = ?"
_SAVE = """INSERT INTO sessions (chat_id, user_id, data, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (chat_id) DO UPDATE
    SET user_id = excluded.user_id, data = excluded.data, updated_at = excluded.updated_at"""
_DELETE = "DELETE FROM sessions WHERE chat_id = ?"
_LIST = "SELECT chat_id, user_id, data, updated_at FROM sessions ORDER BY updated_at, chat_id"
_PURGE_IDLE = "DELETE FROM sessions WHERE updated_at < ?"


class Sessions:
    """``store.sessions``: the open conversation of each chat."""

    def __init__(self, db: Database, clock: Clock, updates: SeenUpdates) -> None:
        self._db = db
        self._clock = clock
        self._updates = updates

    async def get(self, chat_id: int) -> SessionRecord | None:
        """The chat's saved session, or None when it has no open conversation."""
        row = await self._db.fetch_one(_GET, (chat_id,))
        return _record(row) if row else None

    async def save(self, chat_id: int, user_id: int, data_json: str) -> None:
        """Replace the chat's session with ``data_json`` (stamped with the store's clock)."""
        await self._write(_SAVE, (chat_id, user_id, data_json, self._clock()))

    async def delete(self, chat_id: int) -> bool:
        """Forget the chat's session; True when there was one."""
        return await self._write(_DELETE, (chat_id,)) > 0

    async def list_open(self) -> list[SessionRecord]:
        """Every saved session, least recently updated first (to resume after a restart)."""
        return [_record(row) for row in await self._db.fetch_all(_LIST)]

    async def purge_idle(self, before: float) -> int:
        """Delete sessions last saved before ``before`` (abandoned chats); return how many."""
        return await self._db.execute(_PURGE_IDLE, (before,))


    async def _write(self, sql: str, params: tuple[object, ...]) -> int:
        """One statement, together with the id of the update being answered, if unrecorded."""
        answering = self._updates.unrecorded()
        if answering is None:
            return await self._db.execute(sql, params)
        async with self._db.transaction() as tx:
            changed = await tx.execute(sql, params)
            await self._updates.record(tx, answering)
        answering.recorded = True
        return changed


def _record(row: Row) -> SessionRecord:
    return SessionRecord(
        chat_id=int(row[0]), user_id=int(row[1]), data=str(row[2]), updated_at=float(row[3])
    )
