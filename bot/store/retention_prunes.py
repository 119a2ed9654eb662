"""Retention: what is past its time is removed, one kind of personal data at a time
(``store.retention``; the limits are ``[privacy]``'s, the hourly job ``bot.privacy.retention``).

Each kind is one method taking the moment before which its rows are past their time, and
returning how many rows it removed (or, for finished deliveries, anonymised). The same SQL runs on
both backends. Every statement takes at most ``RETENTION_BATCH`` rows, oldest first, and
the method repeats it until less comes back: a first pass after an upgrade, or after a limit
was shortened, may find years of rows, and one long statement would hold SQLite's writer (or
PostgreSQL's row locks) while the customers' turns wait. Each statement checks its condition
again on the rows it takes, so a row used meanwhile (a session saved, a delivery moved on) is
left alone, and two passes at once only find less to do.

Agent conversations and customers go last, after what stands on them: a conversation once its
transcript and events went by age (so it was silent that long) and no draft, delivery,
hand-off or create is on its chat; its customer once nothing names them. An agent's call for
a conversation gone is answered as for one that never was; a turn already under way in the
millisecond it goes may leave an entry or a draft behind, which their own kinds remove. A
conversation is opened only while its customer's row is there (``AgentConversations.open``
makes the customer again when this kind took it meanwhile); the database's reference from a
conversation to its customer covers what is left, the instant on PostgreSQL between the
insert's read and its check, by failing one statement (the agent's call, or this kind until
the next pass) rather than pointing at nobody.

==================  =========================================================================
kind                what goes
==================  =========================================================================
drafts              unfinished orders (sessions) not answered since
transcripts         agent conversations' transcripts whose last entry is older; agent events;
                    then the conversations themselves (created before, their transcript and
                    events gone, no draft, delivery, hand-off or create on their chat)
finished_orders     delivered and cancelled deliveries unchanged since: their customer's
                    name, phones, order answers, tracking link, route, their timeline's texts
                    and addresses, their drop-off code's and rider's rows; and their chat link
                    (``chat_id``/``user_id``, and the customer's chat among those told in their
                    timeline), which becomes a tombstone as "forget me" makes it: on WhatsApp
                    it is a phone number. The row stays with what the books need; it leaves
                    the customer's "my deliveries", which has nothing of it left to show
customer_details    remembered details not refreshed by an order since; verified phones not
                    verified again, used by an order nor received a delivery since; agent
                    channels' customers (their channel's reference for them) first seen
                    before, once no row names them: no conversation, delivery, details,
                    phone, block, order counted or waiting erasure; the marks of chats found
                    unreachable (Telegram's ``Forbidden``, WhatsApp's 131026) before, on chats
                    that ordered nothing since (on WhatsApp the chat is the phone number)
inbox               relayed partner events, the relay's sent markers, WhatsApp's sent messages
photos              re-hosted photos past their expiry (set when each was stored)
audit               audit trail entries
handoffs            hand-offs to staff closed since, and those never closed (staff never
                    answered, or no channel shows hand-offs to staff) silent since: their
                    last message or change was before; with their messages. A chat whose
                    hand-off goes that way waits for nobody after it: its next message is the
                    order's, as after any hand-off (the hand-off desk closes a silent one much
                    sooner where staff see them: ``[operators] handoff_idle_hours``)
==================  =========================================================================
"""

from __future__ import annotations

import secrets
from typing import Final, Literal, get_args

from bot.chat_ref import AGENTS, ChatRef
from bot.chatlocks import ChatTurnLocks
from bot.store.blocked import BlockedChats
from bot.store.customer_data import TOMBSTONE_CEILING, is_tombstone, tombstone
from bot.store.database import Executor, Row
from bot.store.delivery_changes import NEXT_CHANGE, note_chat_changed
from bot.store.handoffs import Handoffs
from bot.store.media_files import MediaStore
from bot.store.sessions import Sessions
from bot.store.store_backend import StoreDatabase

RetentionKind = Literal[
    "drafts",
    "transcripts",
    "finished_orders",
    "customer_details",
    "inbox",
    "photos",
    "audit",
    "handoffs",
]
RETENTION_KINDS: Final[tuple[RetentionKind, ...]] = get_args(RetentionKind)
"""Every kind, in the order a pass prunes them (also the metric's ``kind`` label values)."""

RETENTION_BATCH: Final = 500
"""The most rows one statement takes (a delivery's timeline rows come along with it)."""

_FINISHED: Final = "status IN ('delivered', 'cancelled')"
_PERSONAL_COLUMNS: Final = (
    "customer_name",
    "sender_phone",
    "receiver_phone",
    "saved_order",
    "tracking_url",
    "pickup_lat",
    "pickup_lng",
    "dropoff_lat",
    "dropoff_lng",
)
_STILL_PERSONAL: Final = " OR ".join(f"{column} IS NOT NULL" for column in _PERSONAL_COLUMNS)
_NULLED: Final = ", ".join(f"{column} = NULL" for column in _PERSONAL_COLUMNS)
_STILL_LINKED: Final = f"chat_id > {TOMBSTONE_CEILING} OR user_id > {TOMBSTONE_CEILING}"
# The tables whose rows stand on an agent conversation's chat, or on an agent customer: those
# rows go first (each by its own kind, or when their work ends), the conversation or the
# customer after them.
_ON_CHAT: Final = (
    "agent_events",
    "sessions",
    "deliveries",
    "handoffs",
    "create_intents",
    "unconfirmed_creates",
)
_NOTHING_ON_CHAT: Final = " AND ".join(
    f"NOT EXISTS (SELECT 1 FROM {table} x WHERE x.channel = '{AGENTS}' AND x.chat_id = c.seq)"  # noqa: S608 - the fixed names above
    for table in _ON_CHAT
)
_OF_CUSTOMER: Final = (
    "customer_details",
    "contacts",
    "customer_blocks",
    "customer_drafts",
    "forget_requests",
)
_NOTHING_OF_CUSTOMER: Final = " AND ".join(
    f"NOT EXISTS (SELECT 1 FROM {table} x WHERE x.channel = '{AGENTS}' AND x.user_id = k.seq)"  # noqa: S608 - the fixed names above
    for table in _OF_CUSTOMER
)

# A transcript goes whole, once its conversation's last entry is past its time: a conversation
# still under way keeps the turns its open question stands on.
_TRANSCRIPTS = """DELETE FROM agent_transcript WHERE at < ? AND conversation_seq IN (
    SELECT conversation_seq FROM agent_transcript GROUP BY conversation_seq
    HAVING MAX(at) < ? ORDER BY conversation_seq LIMIT ?)"""
_AGENT_EVENTS = """DELETE FROM agent_events WHERE created_at < ? AND seq IN (
    SELECT seq FROM agent_events WHERE created_at < ? ORDER BY seq LIMIT ?)"""

# An agent conversation goes once nothing of it is left (its transcript and events went by
# age: it has been silent since) and nothing of the bot's stands on its chat; one that never
# had a turn, once it is as old. Its customer's other conversations are theirs to keep.
_CONVERSATIONS = f"""DELETE FROM agent_conversations WHERE seq IN (
    SELECT c.seq FROM agent_conversations c WHERE c.created_at < ?
        AND NOT EXISTS (SELECT 1 FROM agent_transcript t WHERE t.conversation_seq = c.seq)
        AND {_NOTHING_ON_CHAT}
    ORDER BY c.seq LIMIT ?)"""  # noqa: S608 - constant text
# An agent channel's customer (the channel's own reference for them) goes once no row of the
# bot names them: no conversation (a session, a hand-off, a create are a conversation's), no
# delivery, remembered details, proven phone, block, order counted or waiting erasure; and
# not before they were first seen that long ago.
_AGENT_CUSTOMERS = f"""DELETE FROM agent_customers WHERE seq IN (
    SELECT k.seq FROM agent_customers k WHERE k.created_at < ?
        AND NOT EXISTS (SELECT 1 FROM agent_conversations c WHERE c.customer_seq = k.seq)
        AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.user_id = k.seq
            AND d.channel = '{AGENTS}')
        AND {_NOTHING_OF_CUSTOMER}
    ORDER BY k.seq LIMIT ?)"""  # noqa: S608 - constant text
# Deliveries: the row stays (id, status, dates, fee, currency, payment, language, rider), its
# chat and customer become tombstones; a change number tells the console's live list its row
# changed. Rows stripped by an older bot, which kept the chat link, are found by the link.
_FINISHED_DUE = f"""SELECT delivery_id, channel, chat_id, user_id FROM deliveries
    WHERE {_FINISHED} AND updated_at < ? AND ({_STILL_PERSONAL} OR {_STILL_LINKED})
    ORDER BY updated_at, delivery_id LIMIT ?"""  # noqa: S608 - constant text
_ANONYMISE_FINISHED = f"""UPDATE deliveries SET {_NULLED}, chat_id = ?, user_id = ?,
        change_seq = {NEXT_CHANGE}
    WHERE {_FINISHED} AND updated_at < ? AND channel = ? AND chat_id = ? AND user_id = ?
        AND delivery_id IN ({{ids}})
    RETURNING delivery_id"""  # noqa: S608 - constant text
# ``summary`` and ``text`` are NOT NULL (empty once stripped); ``agent_notes`` is a JSON list.
_STRIP_TIMELINE_EVENTS = """UPDATE timeline_events SET summary = '', customer_message_hint = NULL,
    agent_notes = '[]', pickup_address = NULL, pickup_lat = NULL, pickup_lng = NULL,
    dropoff_address = NULL, dropoff_lat = NULL, dropoff_lng = NULL
    WHERE delivery_id IN ({ids})"""
_STRIP_TIMELINE_MESSAGES = "UPDATE timeline_messages SET text = '' WHERE delivery_id IN ({ids})"
# Who was told: the customer's chat (a number on WhatsApp) takes the delivery's tombstone.
_TIMELINE_CHAT = """UPDATE timeline_messages SET chat_id = ?
    WHERE channel = ? AND chat_id = ? AND delivery_id IN ({ids})"""
# Whatever else of a finished delivery names someone (a receiver's phone and the chat its code
# went to; a rider's last fix): gone with its personal fields, as "forget me" does.
_FINISHED_AFTERMATH = (
    "DELETE FROM otp_handoffs WHERE delivery_id IN ({ids})",
    "DELETE FROM rider_positions WHERE delivery_id IN ({ids})",
)
_CUSTOMER_DETAILS = """DELETE FROM customer_details WHERE updated_at < ? AND (channel, user_id) IN (
    SELECT channel, user_id FROM customer_details WHERE updated_at < ?
    ORDER BY updated_at LIMIT ?)"""
# A verified phone is in use while its customer orders, or while deliveries are sent to it
# (its drop-off codes go to the chat that proved it).
_CONTACTS = """DELETE FROM contacts WHERE verified_at < ? AND (channel, user_id) IN (
    SELECT c.channel, c.user_id FROM contacts c WHERE c.verified_at < ?
        AND NOT EXISTS (SELECT 1 FROM deliveries d
            WHERE d.channel = c.channel AND d.user_id = c.user_id AND d.created_at >= ?)
        AND NOT EXISTS (SELECT 1 FROM deliveries d
            WHERE d.receiver_phone = c.phone_e164 AND d.created_at >= ?)
    ORDER BY c.verified_at LIMIT ?)"""
_INBOX = """DELETE FROM inbox WHERE processed_at < ? AND seq IN (
    SELECT seq FROM inbox WHERE processed_at IS NOT NULL AND processed_at < ?
    ORDER BY processed_at LIMIT ?)"""
_SENT_MARKERS = """DELETE FROM sent_messages WHERE claimed_at < ?
    AND (event_id, channel, chat_id, kind) IN (
        SELECT event_id, channel, chat_id, kind FROM sent_messages WHERE claimed_at < ?
        ORDER BY claimed_at LIMIT ?)"""
_WHATSAPP_SENT = """DELETE FROM whatsapp_sent WHERE sent_at < ? AND message_id IN (
    SELECT message_id FROM whatsapp_sent WHERE sent_at < ? ORDER BY sent_at LIMIT ?)"""
_AUDIT = """DELETE FROM audit_trail WHERE at < ? AND seq IN (
    SELECT seq FROM audit_trail WHERE at < ? ORDER BY at LIMIT ?)"""
_CLOSED_HANDOFFS = """SELECT ref FROM handoffs WHERE state = 'closed' AND closed_at < ?
    ORDER BY closed_at, ref LIMIT ?"""
_HANDOFF_MESSAGES = "DELETE FROM handoff_messages WHERE ref IN ({refs})"
_HANDOFFS = "DELETE FROM handoffs WHERE state = 'closed' AND ref IN ({refs})"
# A hand-off nobody closed (no staff channel shows them, or staff never answered) goes once
# silent as long: one at a time, under its chat's lock, checked again as it goes.
_SILENT_HANDOFFS = """SELECT ref, channel, chat_id FROM handoffs
    WHERE state <> 'closed' AND active_at < ? ORDER BY active_at, ref LIMIT ?"""
# Closed first, which checks it again and holds its row; then it goes as a closed one does.
_SILENT_CLOSE = """UPDATE handoffs SET state = 'closed', closed_at = active_at
    WHERE ref = ? AND state <> 'closed' AND active_at < ?"""
_ONE_HANDOFF = (
    "DELETE FROM handoff_messages WHERE ref = ?",
    "DELETE FROM handoffs WHERE ref = ?",
)


class RetentionPrunes:
    """``store.retention``: one prune per kind of personal data (see the module docstring)."""

    def __init__(
        self,
        db: StoreDatabase,
        sessions: Sessions,
        media: MediaStore,
        *,
        handoffs: Handoffs,
        chat_locks: ChatTurnLocks,
        blocked: BlockedChats,
        batch: int = RETENTION_BATCH,
    ) -> None:
        self._db = db
        self._blocked = blocked  # marks of unreachable chats: its memory copy is told too
        self._sessions = sessions
        self._media = media
        self._handoffs = handoffs  # told of a waiting chat's hand-off deleted
        self._chat_locks = chat_locks  # a waiting chat's turns: its hand-off goes between them
        self._batch = batch

    async def drafts(self, before: float) -> int:
        """Drop the unfinished orders last saved before ``before``."""
        return await self._sessions.purge_idle(before, batch=self._batch)

    async def transcripts(self, before: float) -> int:
        """Drop the transcripts of agent conversations whose last entry is before ``before``,
        the agent events stored before it, then the conversations created before it that
        have neither left and nothing on their chat (see ``_CONVERSATIONS``)."""
        entries = await self._batched(_TRANSCRIPTS, (before, before))
        entries += await self._batched(_AGENT_EVENTS, (before, before))
        return entries + await self._batched(_CONVERSATIONS, (before,))

    async def finished_orders(self, before: float) -> int:
        """Anonymise the delivered and cancelled deliveries unchanged since before ``before``:
        their personal fields emptied, with their timelines' texts and addresses, their chat
        and customer replaced by tombstones (``bot.store.customer_data``) under a key drawn
        for this call and then dropped; how many deliveries."""
        key = secrets.token_bytes(32)
        anonymised = 0
        while True:
            async with self._db.transaction() as tx:
                due = await tx.fetch_all(_FINISHED_DUE, (before, self._batch))
                ids: list[str] = []
                for link, rows in _by_link(due).items():
                    ids += await _anonymise(tx, key, link, rows, before)
                if ids:
                    marks = ", ".join("?" * len(ids))
                    await tx.execute(_STRIP_TIMELINE_EVENTS.format(ids=marks), ids)
                    await tx.execute(_STRIP_TIMELINE_MESSAGES.format(ids=marks), ids)
                    for statement in _FINISHED_AFTERMATH:
                        await tx.execute(statement.format(ids=marks), ids)
            anonymised += len(ids)
            if len(due) < self._batch:
                return anonymised

    async def customer_details(self, before: float) -> int:
        """Drop remembered details not refreshed by an order since ``before``, verified
        phones neither verified again, nor used by an order, nor sent a delivery since, and
        the agent channels' customers first seen before it whom no row names any more, and
        the marks of chats found unreachable before it that ordered nothing since."""
        details = await self._batched(_CUSTOMER_DETAILS, (before, before))
        details += await self._batched(_CONTACTS, (before, before, before, before))
        details += await self._blocked.prune(before, batch=self._batch)
        return details + await self._batched(_AGENT_CUSTOMERS, (before,))

    async def inbox(self, before: float) -> int:
        """Drop the partner events relayed before ``before``, the sent markers claimed before
        it and the WhatsApp messages sent before it."""
        removed = await self._batched(_INBOX, (before, before))
        removed += await self._batched(_SENT_MARKERS, (before, before))
        return removed + await self._batched(_WHATSAPP_SENT, (before, before))

    async def photos(self, now: float) -> int:
        """Delete the photos expired by ``now`` (each expires ``[privacy] photos_hours`` after
        it was stored) and any orphaned files."""
        return await self._media.purge_expired(now)

    async def audit(self, before: float) -> int:
        """Drop the audit trail's entries recorded before ``before``."""
        return await self._batched(_AUDIT, (before, before))

    async def handoffs(self, before: float) -> int:
        """Drop the hand-offs closed before ``before``, and those never closed whose last
        message or change was before it, with their messages; rows of both."""
        removed = 0
        while True:
            async with self._db.transaction() as tx:
                rows = await tx.fetch_all(_CLOSED_HANDOFFS, (before, self._batch))
                refs = [str(row[0]) for row in rows]
                if refs:
                    marks = ", ".join("?" * len(refs))
                    removed += await tx.execute(_HANDOFF_MESSAGES.format(refs=marks), refs)
                    removed += await tx.execute(_HANDOFFS.format(refs=marks), refs)
            if len(refs) < self._batch:
                break
        while True:
            silent = await self._db.fetch_all(_SILENT_HANDOFFS, (before, self._batch))
            for ref, channel, chat_id in silent:
                removed += await self._silent_handoff(
                    str(ref), ChatRef(str(channel), int(chat_id)), before
                )
            if len(silent) < self._batch:
                return removed

    async def _silent_handoff(self, ref: str, chat: ChatRef, before: float) -> int:
        """Delete the hand-off ``ref`` of ``chat`` if it is still not closed and silent since
        before ``before``, with its messages, under the chat's lock (a turn of the chat finds
        it waiting, or not at all); its rows removed. The chat's next message is the order's:
        its customer writes to the bot again, as after any hand-off."""
        removed = 0
        async with self._chat_locks.hold(chat):
            async with self._db.transaction() as tx:
                if await tx.execute(_SILENT_CLOSE, (ref, before)) == 0:
                    return 0  # a message came meanwhile, or staff closed it
                for statement in _ONE_HANDOFF:
                    removed += await tx.execute(statement, (ref,))
                await note_chat_changed(tx, chat)  # the console lists the chat waiting no more
            self._handoffs.deleted(chat)
        return removed

    async def _batched(self, statement: str, cutoffs: tuple[float, ...]) -> int:
        """Run ``statement`` (its parameters ``cutoffs`` and the batch size) until a run
        takes less than a batch; the rows it took in all."""
        removed = 0
        while True:
            taken = await self._db.execute(statement, (*cutoffs, self._batch))
            removed += taken
            if taken < self._batch:
                return removed


_Link = tuple[str, int, int]  # a delivery's channel, chat id and customer id


def _by_link(rows: list[Row]) -> dict[_Link, list[str]]:
    """The deliveries ``rows`` (id, channel, chat id, customer id), grouped by their link."""
    grouped: dict[_Link, list[str]] = {}
    for delivery_id, channel, chat_id, user_id in rows:
        link = (str(channel), int(chat_id), int(user_id))
        grouped.setdefault(link, []).append(str(delivery_id))
    return grouped


async def _anonymise(
    tx: Executor, key: bytes, link: _Link, ids: list[str], before: float
) -> list[str]:
    """Anonymise one chat's finished deliveries ``ids`` (still past ``before``: one that
    moved on meanwhile is left) and the chat's copies in their timelines; those anonymised."""
    channel, chat_id, user_id = link
    chat_stone = _stone(key, chat_id)
    marks = ", ".join("?" * len(ids))
    params = (chat_stone, _stone(key, user_id), before, channel, chat_id, user_id, *ids)
    rows = await tx.fetch_all(_ANONYMISE_FINISHED.format(ids=marks), params)
    done = [str(row[0]) for row in rows]
    if done and chat_stone != chat_id:
        marks = ", ".join("?" * len(done))
        moved = (chat_stone, channel, chat_id, *done)
        await tx.execute(_TIMELINE_CHAT.format(ids=marks), moved)
    return done


def _stone(key: bytes, number: int) -> int:
    """``number``'s tombstone under ``key``; a tombstone already stays as it is."""
    return number if is_tombstone(number) else tombstone(key, number)
