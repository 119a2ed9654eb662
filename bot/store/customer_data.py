"""One customer's data rights over the store: everything kept about them (``export``), and
their erasure (``forget``), for "my data" and "forget me" in every channel and for operators.

::

    exported = await store.customer_data.export(user)    # .document, .photo_files
    outcome = await store.customer_data.forget(user)     # one transaction
    await delete_files(store.media_dir, outcome.files)   # the photos, after the commit

What ``forget`` does with each table (a customer's rows are found as
``bot.store.customer_chats`` says: by the customer, or by one of their chats):

**Erased**: ``customer_details``, ``contacts``, ``customer_drafts``, ``sessions``;
``handoffs`` and ``handoff_messages``; ``agent_transcript``; settled ``create_intents`` and
``unconfirmed_creates`` (their notice is not sent any more); and in each of their chats with
no work under way: ``media`` (the files are the caller's to delete: ``ForgetOutcome.files``),
``agent_events`` and ``agent_conversations`` (then ``agent_customers``), ``blocked_chats``,
``otp_invitations``, ``telegram_update_inbox``, ``whatsapp_windows``, ``whatsapp_sent``, and
on PostgreSQL the send limits' ``telegram_sends``/``holds`` and ``whatsapp_sends``/``holds``.

**Anonymised** (kept for the business's books): their delivered and cancelled
``deliveries`` keep id, status, dates, fee, currency, payment, language, the facts told and
the rider; their phones, name, order, tracking link and route are nulled (the receiver's phone
too: it is on the customer's order), and ``chat_id``/``user_id`` become tombstones (below).
Those deliveries' ``timeline_events`` lose their texts, addresses and coordinates,
``timeline_messages`` their text (and the customer's chat id its tombstone),
``otp_handoffs`` and ``rider_positions`` go. In their idle chats ``sent_messages`` keep
their keys under the chat's tombstone (a partner event delivered again is still known as
sent), and so do ``whatsapp_inbox`` rows without their body (a message WhatsApp pushes again
is still known). ``audit_trail`` entries name them by their tombstone (``channel:<tombstone>``)
as subject or actor, and an entry about them loses its ``detail`` (a free-text reason).

**Left, and why**: ``customer_blocks``: the block stays (else being forgotten would lift
it), its free-text reason erased; on WhatsApp its key is the customer's number. Deliveries
still open, and in chats with work under way (an open delivery, a create not settled)
whatever that work needs: such a forget is *pending* (``forget_requests``, schema step 29)
and ``complete_pending`` (the retention job) finishes it when the work has ended. A customer
who is only someone's receiver (``deliveries.receiver_phone``, ``otp_handoffs``) is not found
by a ``UserRef``: those rows go with the ordering customer's, or with their retention.
``inbox`` (partner events: bodies dropped once relayed), ``seen_updates``, ``funnel_events``
(a random session id), ``operator_alerts`` (hashes), partner budgets, ``store_owner`` and the
staff tables hold nothing of a customer.

A tombstone is a negative number no real id can be (``is_tombstone``: at most ``-2**53``;
Telegram's ids have at most 52 bits), derived from a random key drawn once per customer's
erasure and one of their ids, so each of their chats has its own and their private chat's
equals their user's, as a real one does. The key is kept only while the erasure is pending,
so the deliveries anonymised before and after count as one anonymous customer; then nothing
links a tombstone to anyone.

SQLite keeps erased bytes in free pages until they are reused or the file is vacuumed, and
PostgreSQL in dead tuples until vacuum: the operators' documentation says so.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.chat_ref import AGENTS, TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.clocks import Clock
from bot.store.blocked import BlockedChats
from bot.store.customer_chats import FINAL_SQL, CustomerChats, customer_chats
from bot.store.customer_export import export_document
from bot.store.database import Executor
from bot.store.delivery_changes import NEXT_CHANGE
from bot.store.store_backend import StoreDatabase

TOMBSTONE_CEILING: Final = -(2**53)
"""Every tombstone is at most this; no channel's real id is."""

_PENDING_BATCH: Final = 100

_REQUEST: Final = "SELECT tombstone_key FROM forget_requests WHERE channel = ? AND user_id = ?"
_ASK: Final = """INSERT INTO forget_requests (channel, user_id, requested_at, tombstone_key)
    VALUES (?, ?, ?, ?) ON CONFLICT (channel, user_id) DO NOTHING"""
_DONE: Final = "DELETE FROM forget_requests WHERE channel = ? AND user_id = ?"
_READY: Final = f"""SELECT f.channel, f.user_id FROM forget_requests f
    WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.channel = f.channel
            AND d.user_id = f.user_id AND d.status NOT IN ({FINAL_SQL}))
        AND NOT EXISTS (SELECT 1 FROM create_intents c WHERE c.channel = f.channel
            AND c.user_id = f.user_id AND c.notice IS NULL)
        AND NOT EXISTS (SELECT 1 FROM unconfirmed_creates u WHERE u.channel = f.channel
            AND u.user_id = f.user_id AND u.notice IS NULL)
    ORDER BY f.requested_at LIMIT ?"""  # noqa: S608 (fixed text only)

# Rows of the customer (channel, user_id), erased whatever is under way.
_BY_USER: Final = (
    ("customer_details", "DELETE FROM customer_details WHERE channel = ? AND user_id = ?"),
    ("contacts", "DELETE FROM contacts WHERE channel = ? AND user_id = ?"),
    ("customer_drafts", "DELETE FROM customer_drafts WHERE channel = ? AND user_id = ?"),
    ("sessions", "DELETE FROM sessions WHERE channel = ? AND user_id = ?"),
    (
        "handoff_messages",
        """DELETE FROM handoff_messages WHERE ref IN
            (SELECT ref FROM handoffs WHERE channel = ? AND user_id = ?)""",
    ),
    ("handoffs", "DELETE FROM handoffs WHERE channel = ? AND user_id = ?"),
    (
        "create_intents",
        "DELETE FROM create_intents WHERE channel = ? AND user_id = ? AND notice IS NOT NULL",
    ),
    (
        "unconfirmed_creates",
        "DELETE FROM unconfirmed_creates WHERE channel = ? AND user_id = ? AND notice IS NOT NULL",
    ),
)
_TRANSCRIPTS: Final = """DELETE FROM agent_transcript WHERE conversation_seq IN
    (SELECT seq FROM agent_conversations WHERE customer_seq = ?)"""
_BLOCK_REASON: Final = """UPDATE customer_blocks SET reason = NULL
    WHERE channel = ? AND user_id = ? AND reason IS NOT NULL"""
_AUDIT_SUBJECT: Final = "UPDATE audit_trail SET subject = ?, detail = NULL WHERE subject = ?"
_AUDIT_ACTOR: Final = "UPDATE audit_trail SET actor = ? WHERE actor = ?"

# A chat's finished deliveries, anonymised; then whatever hangs off them, found again by the
# tombstoned customer (only the rows this erasure anonymised, or an earlier one of theirs
# with the same key), so a delivery ending meanwhile is either all anonymised or not at all.
_ANONYMISE: Final = f"""UPDATE deliveries SET chat_id = ?, user_id = ?, receiver_phone = NULL,
        customer_name = NULL, sender_phone = NULL, saved_order = NULL, tracking_url = NULL,
        pickup_lat = NULL, pickup_lng = NULL, dropoff_lat = NULL, dropoff_lng = NULL,
        change_seq = {NEXT_CHANGE}
    WHERE channel = ? AND user_id = ? AND chat_id = ? AND status IN ({FINAL_SQL})"""  # noqa: S608
_ANONYMISED: Final = "SELECT delivery_id FROM deliveries WHERE channel = ? AND user_id = ?"
_BY_ANONYMISED: Final = (
    (
        "timeline_events",
        f"""UPDATE timeline_events SET summary = '', customer_message_hint = NULL,
            agent_notes = '[]', pickup_address = NULL, pickup_lat = NULL, pickup_lng = NULL,
            dropoff_address = NULL, dropoff_lat = NULL, dropoff_lng = NULL
        WHERE delivery_id IN ({_ANONYMISED}) AND (summary <> '' OR agent_notes <> '[]'
            OR customer_message_hint IS NOT NULL OR pickup_address IS NOT NULL
            OR pickup_lat IS NOT NULL OR dropoff_address IS NOT NULL
            OR dropoff_lat IS NOT NULL)""",  # noqa: S608 (fixed text only)
    ),
    (
        "timeline_messages",
        f"""UPDATE timeline_messages SET text = ''
        WHERE delivery_id IN ({_ANONYMISED}) AND text <> ''""",  # noqa: S608 (fixed text only)
    ),
    ("otp_handoffs", f"DELETE FROM otp_handoffs WHERE delivery_id IN ({_ANONYMISED})"),  # noqa: S608
    ("rider_positions", f"DELETE FROM rider_positions WHERE delivery_id IN ({_ANONYMISED})"),  # noqa: S608
)
_MESSAGES_CHAT: Final = f"""UPDATE timeline_messages SET chat_id = ?
    WHERE channel = ? AND chat_id = ? AND delivery_id IN ({_ANONYMISED})"""  # noqa: S608

# Rows of one idle chat (channel, chat_id).
_BY_CHAT: Final = (
    ("agent_events", "DELETE FROM agent_events WHERE channel = ? AND chat_id = ?"),
    ("blocked_chats", "DELETE FROM blocked_chats WHERE channel = ? AND chat_id = ?"),
    ("otp_invitations", "DELETE FROM otp_invitations WHERE channel = ? AND chat_id = ?"),
    (
        "telegram_update_inbox",
        "DELETE FROM telegram_update_inbox WHERE channel = ? AND chat_id = ?",
    ),
)
_PHOTOS: Final = "DELETE FROM media WHERE channel = ? AND chat_id = ? RETURNING file_name"
_SENT_CHAT: Final = "UPDATE sent_messages SET chat_id = ? WHERE channel = ? AND chat_id = ?"
_CONVERSATION: Final = "DELETE FROM agent_conversations WHERE seq = ?"
_AGENT_CUSTOMER: Final = """DELETE FROM agent_customers WHERE seq = ?
    AND NOT EXISTS (SELECT 1 FROM agent_conversations WHERE customer_seq = ?)"""
# By the customer's number alone (WhatsApp's own tables).
_WHATSAPP_INBOX: Final = "UPDATE whatsapp_inbox SET chat_id = ?, body = NULL WHERE chat_id = ?"
_BY_NUMBER: Final = (
    ("whatsapp_windows", "DELETE FROM whatsapp_windows WHERE wa_id = ?"),
    ("whatsapp_sent", "DELETE FROM whatsapp_sent WHERE wa_id = ?"),
)
# Only where instances share the send limits (PostgreSQL): short-lived, by chat id alone.
_SHARED_LIMITS: Final = {
    TELEGRAM: ("telegram_sends", "telegram_holds"),
    WHATSAPP: ("whatsapp_sends", "whatsapp_holds"),
}


@dataclass(frozen=True)
class CustomerExport:
    """Everything kept about one customer: ``document`` (JSON-able, sections by area: see
    ``bot.store.customer_export``) and ``photo_files``, the names of their photo files still
    in the media directory, for a channel that attaches them."""

    document: dict[str, Any]
    photo_files: tuple[str, ...]


@dataclass(frozen=True)
class ForgetOutcome:
    """What one ``forget`` did: ``erased`` rows by table (rows emptied of their personal
    columns included; tables with none left out), ``anonymised_deliveries``, the deliveries
    still open (left as they are), the media ``files`` to delete now the rows are gone
    (``delete_files``), and whether the request stays ``pending`` until the work under way
    ends (``complete_pending``)."""

    erased: dict[str, int]
    anonymised_deliveries: int
    open_deliveries: tuple[str, ...]
    files: tuple[str, ...]
    pending: bool


def is_tombstone(number: int) -> bool:
    """Whether ``number`` (a chat's or a customer's id) is an erased customer's stand-in:
    nobody to send to."""
    return number <= TOMBSTONE_CEILING


def tombstone(key: bytes, number: int) -> int:
    """The stand-in for the id ``number`` under an erasure's random ``key``."""
    digest = hmac.new(key, str(number).encode(), hashlib.sha256).digest()
    return TOMBSTONE_CEILING - int.from_bytes(digest[:8], "big") % 2**53


async def delete_files(media_dir: Path, files: Iterable[str]) -> int:
    """Delete the photo ``files`` (names in ``media_dir``) an erasure let go of, once it is
    committed; how many were still there."""
    names = list(files)

    def unlink_all() -> int:
        deleted = 0
        for name in names:
            path = media_dir / name
            if path.parent == media_dir and path.is_file():
                path.unlink(missing_ok=True)
                deleted += 1
        return deleted

    return await asyncio.to_thread(unlink_all)


class CustomerData:
    """``store.customer_data``: see the module docstring."""

    def __init__(
        self,
        db: StoreDatabase,
        clock: Clock,
        *,
        media_dir: Path,
        blocked: BlockedChats,
        shared: bool = False,
    ) -> None:
        self._db = db
        self._clock = clock
        self._media_dir = media_dir
        # Keeps chats' "blocked the bot" marks in memory: told of the marks erased.
        self._blocked = blocked
        self._shared = shared  # PostgreSQL: the shared send limits' tables exist

    async def export(self, user: UserRef) -> CustomerExport:
        """Every row kept about ``user`` (see ``bot.store.customer_export``)."""
        where = await customer_chats(self._db, user)
        document, files = await export_document(self._db, where, self._media_dir, self._clock())
        return CustomerExport(document, files)

    async def forget(self, user: UserRef) -> ForgetOutcome:
        """Erase ``user`` in one transaction (see the module docstring); their photo files
        are the caller's to delete after it (``delete_files(media_dir, outcome.files)``).
        Harmless when repeated, or for a customer the store does not know."""
        async with self._db.transaction() as tx:
            where = await customer_chats(tx, user)
            row = await tx.fetch_one(_REQUEST, (user.channel, user.id))
            key = bytes.fromhex(str(row[0])) if row is not None else secrets.token_bytes(32)
            erasure = _Erasure(tx, where, key, shared=self._shared)
            await erasure.run()
            pending = bool(where.busy)
            if pending:
                request = (user.channel, user.id, self._clock(), key.hex())
                await tx.execute(_ASK, request)
            else:
                await tx.execute(_DONE, (user.channel, user.id))
        for chat in where.idle:
            await self._blocked.clear(chat)  # its mark is gone: the memory follows
        return ForgetOutcome(
            erased={table: rows for table, rows in erasure.erased.items() if rows},
            anonymised_deliveries=erasure.anonymised,
            open_deliveries=where.open_deliveries,
            files=tuple(erasure.files),
            pending=pending,
        )

    async def pending_for(self, user: UserRef) -> bool:
        """Whether ``user`` asked to be forgotten and waits for their open deliveries."""
        return await self._db.fetch_one(_REQUEST, (user.channel, user.id)) is not None

    async def complete_pending(self) -> int:
        """Finish the erasure of every customer waiting for it whose work has all ended
        (and delete their photo files); how many were finished."""
        completed = 0
        while True:
            rows = await self._db.fetch_all(_READY, (_PENDING_BATCH,))
            for channel, user_id in rows:
                outcome = await self.forget(UserRef(str(channel), int(user_id)))
                await delete_files(self._media_dir, outcome.files)
                completed += not outcome.pending
            if len(rows) < _PENDING_BATCH:
                return completed


class _Erasure:
    """The statements of one customer's erasure, in one transaction, and what they did."""

    def __init__(self, tx: Executor, where: CustomerChats, key: bytes, *, shared: bool) -> None:
        self._tx = tx
        self._where = where
        self._key = key
        self._shared = shared
        self.erased: dict[str, int] = {}
        self.anonymised = 0
        self.files: list[str] = []

    async def run(self) -> None:
        user = self._where.user
        them = (user.channel, user.id)
        for table, sql in _BY_USER:
            await self._count(table, sql, them)
        if user.channel == AGENTS:
            await self._count("agent_transcript", _TRANSCRIPTS, (user.id,))
        await self._count("customer_blocks", _BLOCK_REASON, them)
        stand_in = tombstone(self._key, user.id)
        written = str(user)
        written_as = f"{user.channel}:{stand_in}"
        await self._count("audit_trail", _AUDIT_SUBJECT, (written_as, written))
        await self._count("audit_trail", _AUDIT_ACTOR, (written_as, written))
        for chat in self._where.chats:
            changed = (tombstone(self._key, chat.id), stand_in, *them, chat.id)
            self.anonymised += await self._tx.execute(_ANONYMISE, changed)
        anonymised = (user.channel, stand_in)
        for table, sql in _BY_ANONYMISED:
            await self._count(table, sql, anonymised)
        for chat in self._where.chats:
            moved = (tombstone(self._key, chat.id), chat.channel, chat.id, *anonymised)
            await self._count("timeline_messages", _MESSAGES_CHAT, moved)
        for chat in self._where.idle:
            await self._empty(chat)
        if user.channel == AGENTS and not self._where.busy:
            await self._count("agent_customers", _AGENT_CUSTOMER, (user.id, user.id))

    async def _empty(self, chat: ChatRef) -> None:
        """Erase what one chat with no work under way keeps."""
        key = (chat.channel, chat.id)
        stand_in = tombstone(self._key, chat.id)
        photos = await self._tx.fetch_all(_PHOTOS, key)
        self.files += [str(row[0]) for row in photos]
        self._add("media", len(photos))
        for table, sql in _BY_CHAT:
            await self._count(table, sql, key)
        await self._count("sent_messages", _SENT_CHAT, (stand_in, *key))
        if chat.channel == AGENTS:
            await self._count("agent_conversations", _CONVERSATION, (chat.id,))
        if chat.channel == WHATSAPP:
            await self._count("whatsapp_inbox", _WHATSAPP_INBOX, (stand_in, chat.id))
            for table, sql in _BY_NUMBER:
                await self._count(table, sql, (chat.id,))
        if self._shared:
            for table in _SHARED_LIMITS.get(chat.channel, ()):
                # Only the table's name, from the fixed list above, makes up the SQL.
                sql = f"DELETE FROM {table} WHERE chat_id = ?"  # noqa: S608
                await self._count(table, sql, (chat.id,))

    async def _count(self, table: str, sql: str, params: tuple[object, ...]) -> None:
        self._add(table, await self._tx.execute(sql, params))

    def _add(self, table: str, rows: int) -> None:
        self.erased[table] = self.erased.get(table, 0) + rows
