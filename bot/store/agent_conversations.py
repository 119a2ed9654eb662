"""Conversations of agent channels (the JSON API, the MCP server), and their transcripts.

An agent channel orders for its own customers, named by the channel's own reference
(``customer``). The bot's services (``ChatService``, ``CustomerDesk``, the relay) know a
conversation as a chat of the channel ``agents`` (``bot.chat_ref.AGENTS``) and a customer as a
user of it, by this table's sequence numbers (``AgentConversation.chat`` and ``.user``).

A conversation's public ``id`` is unguessable, and every read is by (``id``, ``channel``): a
conversation of another channel is not found, exactly like one that does not exist.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import AGENTS, ChatRef, UserRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase
from bot.store.store_errors import StoreError


@dataclass(frozen=True)
class AgentConversation:
    """One conversation of one agent channel's customer (``channel`` is that agent channel's
    name, ``customer`` its reference), and the chat and customer the bot's services know."""

    id: str
    channel: str
    customer: str
    chat: ChatRef
    user: UserRef
    flow: str | None
    created_at: float
    # The language code the conversation was started in (``fr``, ``en-GB``): its turns and
    # its delivery's events are said in it; None for the business default.
    language: str | None = None


_ATTEMPTS: Final = 3  # a customer removed by the retention at that instant is made again

_ADD_CUSTOMER = """INSERT INTO agent_customers (channel, customer, created_at) VALUES (?, ?, ?)
    ON CONFLICT (channel, customer) DO NOTHING"""
_CUSTOMER = "SELECT seq FROM agent_customers WHERE channel = ? AND customer = ?"
_NAME = "SELECT channel, customer FROM agent_customers WHERE seq = ?"
_CHANNELS_OF = "SELECT channel FROM agent_customers WHERE customer = ? ORDER BY channel"
# Only while the customer's row is there: the retention may remove a customer nothing names
# between finding their number and this insert (``open`` then makes them again).
_ADD = """INSERT INTO agent_conversations (id, customer_seq, flow, created_at, language)
    SELECT ?, seq, ?, ?, ? FROM agent_customers WHERE seq = ?"""
_SELECT = """SELECT c.id, k.channel, k.customer, c.seq, k.seq, c.flow, c.created_at, c.language
    FROM agent_conversations c JOIN agent_customers k ON k.seq = c.customer_seq"""
_BY_ID = _SELECT + " WHERE c.id = ? AND k.channel = ?"
_BY_SEQ = _SELECT + " WHERE c.seq = ?"
_ADD_ENTRY = """INSERT INTO agent_transcript (conversation_seq, n, entry, at)
    SELECT ?, COALESCE(MAX(n), 0) + 1, ?, ? FROM agent_transcript WHERE conversation_seq = ?"""
_TRANSCRIPT = "SELECT entry FROM agent_transcript WHERE conversation_seq = ? ORDER BY n"
_LAST = """SELECT entry FROM agent_transcript WHERE conversation_seq = ?
    ORDER BY n DESC LIMIT 1"""
_FORGET = """DELETE FROM agent_transcript WHERE n = (SELECT MIN(t.n) FROM agent_transcript t
    JOIN agent_conversations c ON c.seq = t.conversation_seq WHERE c.id = ? AND t.entry = ?)
    AND conversation_seq = (SELECT seq FROM agent_conversations WHERE id = ?)"""


class AgentConversations:
    """``store.agents``: agent conversations by (id, channel), and what was said in them."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def user(self, channel: str, customer: str, *, create: bool = False) -> UserRef | None:
        """The user the services know ``channel``'s customer ``customer`` as; made when
        ``create``."""
        if create:
            await self._db.execute(_ADD_CUSTOMER, (channel, customer, self._clock()))
        row = await self._db.fetch_one(_CUSTOMER, (channel, customer))
        return None if row is None else UserRef(AGENTS, int(row[0]))

    async def name_of(self, user: UserRef) -> tuple[str, str] | None:
        """``(channel, customer)`` of the agent channel's customer the services know as
        ``user`` (the reverse of ``user``); None for a user of another channel, or unknown."""
        if user.channel != AGENTS:
            return None
        row = await self._db.fetch_one(_NAME, (user.id,))
        return None if row is None else (str(row[0]), str(row[1]))

    async def channels_of(self, customer: str) -> list[str]:
        """The agent channels that know a customer by the reference ``customer``."""
        rows = await self._db.fetch_all(_CHANNELS_OF, (customer,))
        return [str(row[0]) for row in rows]

    async def open(
        self, channel: str, customer: str, flow: str | None, language: str | None = None
    ) -> AgentConversation:
        """A new conversation of ``channel``'s ``customer``, with a fresh unguessable id, said
        in ``language`` (a client's language code; None for the business default)."""
        public_id = "conv_" + secrets.token_urlsafe(18)
        for _ in range(_ATTEMPTS):
            user = await self.user(channel, customer, create=True)
            assert user is not None  # just made
            params = (public_id, flow, self._clock(), language, user.id)
            if await self._db.execute(_ADD, params):
                found = await self.get(public_id, channel)
                assert found is not None
                return found
        raise StoreError("an agent customer was removed each time a conversation was opened")

    async def get(self, conversation_id: str, channel: str) -> AgentConversation | None:
        """The conversation ``conversation_id`` if it is ``channel``'s, else None."""
        row = await self._db.fetch_one(_BY_ID, (conversation_id, channel))
        return None if row is None else _conversation(row)

    async def by_chat(self, chat: ChatRef) -> AgentConversation | None:
        """The conversation the services know as ``chat`` (None for another channel's)."""
        if chat.channel != AGENTS:
            return None
        row = await self._db.fetch_one(_BY_SEQ, (chat.id,))
        return None if row is None else _conversation(row)

    async def add_entry(self, conversation: AgentConversation, entry_json: str) -> None:
        """Append one transcript entry (JSON text) to the conversation."""
        seq = conversation.chat.id
        await self._db.execute(_ADD_ENTRY, (seq, entry_json, self._clock(), seq))

    async def transcript(self, conversation: AgentConversation) -> list[str]:
        """The conversation's transcript entries, oldest first."""
        rows = await self._db.fetch_all(_TRANSCRIPT, (conversation.chat.id,))
        return [str(row[0]) for row in rows]

    async def last_entry(self, conversation: AgentConversation) -> str | None:
        """The conversation's newest transcript entry (None before its first turn)."""
        row = await self._db.fetch_one(_LAST, (conversation.chat.id,))
        return None if row is None else str(row[0])

    async def forget_entry(self, conversation: AgentConversation, entry_json: str) -> None:
        """Drop the conversation's oldest transcript entry that is ``entry_json`` (which ones
        go is ``bot.agents.transcript_bounds``'s policy)."""
        await self._db.execute(_FORGET, (conversation.id, entry_json, conversation.id))


def _conversation(row: Row) -> AgentConversation:
    return AgentConversation(
        id=str(row[0]),
        channel=str(row[1]),
        customer=str(row[2]),
        chat=ChatRef(AGENTS, int(row[3])),
        user=UserRef(AGENTS, int(row[4])),
        flow=None if row[5] is None else str(row[5]),
        created_at=float(row[6]),
        language=None if row[7] is None else str(row[7]),
    )
