"""Conversation sessions, one per chat, saved after every turn so a restart resumes each chat.

The session itself is the conversations package's pydantic model; the store keeps its JSON text
and never imports the model, so the persistence layer does not depend on the flow engine.
A row exists while a conversation is open: the adapter deletes it when the conversation ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase


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

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def get(self, chat_id: int) -> SessionRecord | None:
        """The chat's saved session, or None when it has no open conversation."""
        row = await self._db.fetch_one(_GET, (chat_id,))
        return _record(row) if row else None

    async def save(self, chat_id: int, user_id: int, data_json: str) -> None:
        """Replace the chat's session with ``data_json`` (stamped with the store's clock)."""
        await self._db.execute(_SAVE, (chat_id, user_id, data_json, self._clock()))

    async def delete(self, chat_id: int) -> bool:
        """Forget the chat's session; True when there was one."""
        return await self._db.execute(_DELETE, (chat_id,)) > 0

    async def list_open(self) -> list[SessionRecord]:
        """Every saved session, least recently updated first (to resume after a restart)."""
        return [_record(row) for row in await self._db.fetch_all(_LIST)]

    async def purge_idle(self, before: float) -> int:
        """Delete sessions last saved before ``before`` (abandoned chats); return how many."""
        return await self._db.execute(_PURGE_IDLE, (before,))


def _record(row: Row) -> SessionRecord:
    return SessionRecord(
        chat_id=int(row[0]), user_id=int(row[1]), data=str(row[2]), updated_at=float(row[3])
    )
