"""Events for agent conversations: kept once each, read in order (SSE), and posted once in
effect to the channel's webhook.

The relay adds each event it owes an agent conversation here through the agent channel's
``send`` (under the relay's sent markers); ``(chat, event_key)`` is unique, so a send
repeated after a crash adds nothing. ``seq`` orders a conversation's events for the SSE stream
(its ``id:``, so a reconnect with ``Last-Event-ID`` resumes after the last one seen). The
``hook_*`` columns are the channel webhook's own outbox: due at once, marked when the channel
answered 2xx, retried later otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import AGENTS, ChatRef
from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase


@dataclass(frozen=True)
class AgentEvent:
    """One stored event: its stream position, conversation's chat and JSON body."""

    seq: int
    chat: ChatRef
    body: str


@dataclass(frozen=True)
class DueHook:
    """An event still owed to ``channel``'s webhook."""

    seq: int
    channel: str
    body: str
    attempts: int
    event_id: str


_ADD = """INSERT INTO agent_events (channel, chat_id, event_key, body, created_at, hook_next_at)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel, chat_id, event_key) DO NOTHING"""
_AFTER = """SELECT seq, channel, chat_id, body FROM agent_events
    WHERE channel = ? AND chat_id = ? AND seq > ? ORDER BY seq LIMIT ?"""
# An agent conversation's chat id is its seq (``AgentConversation.chat``).
_DUE = """SELECT e.seq, k.channel, e.body, e.hook_attempts, e.event_key FROM agent_events e
    JOIN agent_conversations c ON e.channel = ? AND c.seq = e.chat_id
    JOIN agent_customers k ON k.seq = c.customer_seq
    WHERE e.hook_sent_at IS NULL AND e.hook_next_at <= ? AND k.channel IN ({channels})
    ORDER BY e.seq LIMIT ?"""
_NEXT_DUE = """SELECT MIN(e.hook_next_at) FROM agent_events e
    JOIN agent_conversations c ON e.channel = ? AND c.seq = e.chat_id
    JOIN agent_customers k ON k.seq = c.customer_seq
    WHERE e.hook_sent_at IS NULL AND k.channel IN ({channels})"""
_SENT = "UPDATE agent_events SET hook_sent_at = ? WHERE seq = ? AND hook_sent_at IS NULL"
_FAILED = """UPDATE agent_events SET hook_attempts = hook_attempts + 1, hook_next_at = ?
    WHERE seq = ? AND hook_sent_at IS NULL"""
_GIVE_UP = "UPDATE agent_events SET hook_sent_at = -1 WHERE seq = ? AND hook_sent_at IS NULL"


class AgentEvents:
    """``store.agent_events``: see the module docstring."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def add(self, chat: ChatRef, event_key: str, body: str) -> bool:
        """Keep ``body`` for ``chat`` under ``event_key``; False when it was kept before."""
        now = self._clock()
        params = (chat.channel, chat.id, event_key, body, now, now)
        return await self._db.execute(_ADD, params) > 0

    async def after(self, chat: ChatRef, seq: int, limit: int) -> list[AgentEvent]:
        """The chat's events after stream position ``seq``, oldest first, at most ``limit``."""
        rows = await self._db.fetch_all(_AFTER, (chat.channel, chat.id, seq, limit))
        return [
            AgentEvent(int(row[0]), ChatRef(str(row[1]), int(row[2])), str(row[3])) for row in rows
        ]

    async def due_hooks(self, channels: list[str], limit: int) -> list[DueHook]:
        """Events owed to the webhooks of ``channels`` and due now, oldest first."""
        if not channels:
            return []
        sql = _DUE.format(channels=", ".join("?" * len(channels)))
        rows = await self._db.fetch_all(sql, (AGENTS, self._clock(), *channels, limit))
        return [DueHook(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in rows]

    async def next_hook_at(self, channels: list[str]) -> float | None:
        """When the next owed webhook falls due (None: none is owed)."""
        if not channels:
            return None
        sql = _NEXT_DUE.format(channels=", ".join("?" * len(channels)))
        row = await self._db.fetch_one(sql, (AGENTS, *channels))
        return None if row is None or row[0] is None else float(row[0])

    async def hook_sent(self, seq: int) -> None:
        """The channel's webhook answered 2xx for event ``seq``."""
        await self._db.execute(_SENT, (self._clock(), seq))

    async def hook_failed(self, seq: int, retry_at: float) -> None:
        """The webhook did not take event ``seq``; try again at ``retry_at``."""
        await self._db.execute(_FAILED, (retry_at, seq))

    async def hook_given_up(self, seq: int) -> None:
        """Stop posting event ``seq`` (it stays readable over SSE)."""
        await self._db.execute(_GIVE_UP, (seq,))
