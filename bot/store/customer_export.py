"""Everything the store keeps about one customer, as one JSON-able document ("my data").

``export_document`` reads every row of theirs (``bot.store.customer_chats`` says where they
are) into sections by area; ``CustomerData.export`` (``bot.store.customer_data``) hands it
out with the names of the photo files still kept, so a channel can attach them.

What the document leaves out, and why: secrets that are not theirs to carry around (a photo's
URL token, a drop-off code and its link token, a code invitation's token: each opens
something); other people's data (the staff member who took a hand-off or blocked them, the
operators' chat a message went to: an audit entry's actor other than them is ``staff``); and
the bookkeeping that holds nothing of them but their chat's id (sent markers: only counted).
JSON texts the store keeps (details, sessions, orders, messages) are given parsed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from bot.chat_ref import AGENTS, TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.store.customer_chats import CustomerChats
from bot.store.database import Executor, Row
from bot.store.session_packing import unpack

# Actors that are nobody's data: the bot, the shell, and "customer", the customer themself
# (their own "my data" or "forget me": ``bot.privacy.customer_requests.CUSTOMER_ACTOR``).
_SYSTEM_ACTORS: Final = frozenset({"bot", "shell", "customer"})

_DELIVERY_COLUMNS: Final = (
    "delivery_id",
    "channel",
    "chat_id",
    "created_at",
    "updated_at",
    "status",
    "receiver_phone",
    "customer_name",
    "sender_phone",
    "saved_order",
    "tracking_url",
    "tracking_sent_at",
    "fee",
    "currency",
    "paid_at",
    "language",
    "rider_name",
    "pickup_lat",
    "pickup_lng",
    "dropoff_lat",
    "dropoff_lng",
)
_THEIR_DELIVERIES: Final = "SELECT delivery_id FROM deliveries WHERE channel = ? AND user_id = ?"
_DELIVERIES: Final = f"""SELECT {", ".join(_DELIVERY_COLUMNS)} FROM deliveries
    WHERE channel = ? AND user_id = ? ORDER BY created_at, delivery_id"""  # noqa: S608
_EVENTS: Final = f"""SELECT delivery_id, event_type, created, status, summary,
        customer_message_hint, agent_notes, pickup_address, pickup_lat, pickup_lng,
        dropoff_address, dropoff_lat, dropoff_lng
    FROM timeline_events WHERE delivery_id IN ({_THEIR_DELIVERIES})
    ORDER BY delivery_id, created, received_at, event_id"""  # noqa: S608 (fixed text only)
_MESSAGES: Final = f"""SELECT delivery_id, kind, audience, text, at, failure
    FROM timeline_messages WHERE delivery_id IN ({_THEIR_DELIVERIES})
    ORDER BY delivery_id, at, seq"""  # noqa: S608 (fixed text only)
_CODES: Final = f"""SELECT delivery_id, receiver_phone, created, delivered_at
    FROM otp_handoffs WHERE delivery_id IN ({_THEIR_DELIVERIES})"""  # noqa: S608
_DETAILS: Final = "SELECT data, updated_at FROM customer_details WHERE channel = ? AND user_id = ?"
_PHONES: Final = "SELECT phone_e164, verified_at FROM contacts WHERE channel = ? AND user_id = ?"
_SESSIONS: Final = """SELECT channel, chat_id, data, updated_at FROM sessions
    WHERE channel = ? AND user_id = ? ORDER BY updated_at"""
_DRAFTS: Final = """SELECT started_at FROM customer_drafts WHERE channel = ? AND user_id = ?
    ORDER BY started_at"""
_INTENTS: Final = """SELECT 'sending', request, saved_order, created_at, delivery_id, notice
    FROM create_intents WHERE channel = ? AND user_id = ?
    UNION ALL SELECT 'unconfirmed', request, saved_order, created_at, delivery_id, notice
    FROM unconfirmed_creates WHERE channel = ? AND user_id = ? ORDER BY 4"""
_HANDOFFS: Final = """SELECT ref, channel, chat_id, customer_name, state, flow, step, language,
        opened_at, taken_at, closed_at
    FROM handoffs WHERE channel = ? AND user_id = ? ORDER BY opened_at, ref"""
_HANDOFF_MESSAGES: Final = """SELECT m.ref, m.way, m.body, m.created_at, m.delivered_at
    FROM handoff_messages m JOIN handoffs h ON h.ref = m.ref
    WHERE h.channel = ? AND h.user_id = ? ORDER BY m.seq"""
_AGENT_NAME: Final = "SELECT channel, customer FROM agent_customers WHERE seq = ?"
_CONVERSATIONS: Final = """SELECT seq, id, flow, language, created_at FROM agent_conversations
    WHERE customer_seq = ? ORDER BY seq"""
_TRANSCRIPT: Final = """SELECT t.conversation_seq, t.entry, t.at FROM agent_transcript t
    JOIN agent_conversations c ON c.seq = t.conversation_seq
    WHERE c.customer_seq = ? ORDER BY t.conversation_seq, t.n"""
_AGENT_EVENTS: Final = """SELECT body, created_at FROM agent_events
    WHERE channel = ? AND chat_id = ? ORDER BY seq"""
_BLOCK: Final = """SELECT reason, blocked_at FROM customer_blocks
    WHERE channel = ? AND user_id = ?"""
_PHOTOS: Final = """SELECT file_name, content_type, size, created_at, expires_at FROM media
    WHERE channel = ? AND chat_id = ? ORDER BY created_at, file_name"""
_AUDIT: Final = f"""SELECT at, actor, action, subject, outcome, detail FROM audit_trail
        WHERE subject = ? OR actor = ?
    UNION SELECT at, actor, action, subject, outcome, detail FROM audit_trail
        WHERE subject IN ({_THEIR_DELIVERIES})
    UNION SELECT at, actor, action, subject, outcome, detail FROM audit_trail
        WHERE subject IN (SELECT 'hand-off ' || ref FROM handoffs
            WHERE channel = ? AND user_id = ?)
    ORDER BY 1"""  # noqa: S608 (fixed text only)
_BLOCKED_CHAT: Final = "SELECT blocked_at FROM blocked_chats WHERE channel = ? AND chat_id = ?"
_INVITATION: Final = "SELECT expires_at FROM otp_invitations WHERE channel = ? AND chat_id = ?"
_SENT_MARKERS: Final = "SELECT count(*) FROM sent_messages WHERE channel = ? AND chat_id = ?"
_TELEGRAM_WAITING: Final = """SELECT body, received_at FROM telegram_update_inbox
    WHERE channel = ? AND chat_id = ? ORDER BY update_id"""
_WHATSAPP_WAITING: Final = """SELECT body, received_at FROM whatsapp_inbox
    WHERE chat_id = ? AND body IS NOT NULL ORDER BY seq"""
_WHATSAPP_WINDOW: Final = "SELECT last_message_at FROM whatsapp_windows WHERE wa_id = ?"
_WHATSAPP_SENT: Final = """SELECT kind, reference, body, status, sent_at FROM whatsapp_sent
    WHERE wa_id = ? ORDER BY sent_at, message_id"""
_FORGET_REQUEST: Final = """SELECT requested_at FROM forget_requests
    WHERE channel = ? AND user_id = ?"""


async def export_document(
    db: Executor, where: CustomerChats, media_dir: Path, now: float
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The document of ``where.user``'s rows as ``db`` has them now, and the file names (in
    ``media_dir``) of their photos still kept."""
    user = where.user
    key = (user.channel, user.id)
    document: dict[str, Any] = {"customer": await _customer(db, user), "exported_at": now}
    details = await db.fetch_one(_DETAILS, key)
    document["details"] = None if details is None else _dated(_parsed(details[0]), details[1])
    document["phones"] = [
        {"phone": str(row[0]), "verified_at": float(row[1])}
        for row in await db.fetch_all(_PHONES, key)
    ]
    document["sessions"] = [
        {"chat": str(ChatRef(str(row[0]), int(row[1]))), **_dated(_parsed(unpack(row[2])), row[3])}
        for row in await db.fetch_all(_SESSIONS, key)
    ]
    document["orders_started_at"] = [float(row[0]) for row in await db.fetch_all(_DRAFTS, key)]
    document["deliveries"] = await _deliveries(db, key)
    document["creates"] = [
        {
            "state": str(row[0]),
            "request": _parsed(row[1]),
            "saved_order": _parsed(row[2]),
            "created_at": float(row[3]),
            "delivery_id": row[4],
            "notice": _parsed(row[5]),
        }
        for row in await db.fetch_all(_INTENTS, key * 2)
    ]
    document["handoffs"] = await _handoffs(db, key)
    document["agent_conversations"] = await _conversations(db, user)
    block = await db.fetch_one(_BLOCK, key)
    document["block"] = None if block is None else {"reason": block[0], "blocked_at": block[1]}
    photos, files = await _photos(db, where, media_dir)
    document["photos"] = photos
    document["audit"] = [
        _audit_entry(row, str(user))
        for row in await db.fetch_all(_AUDIT, (str(user), str(user), *key, *key))
    ]
    document["chats"] = [await _chat(db, chat) for chat in where.chats]
    request = await db.fetch_one(_FORGET_REQUEST, key)
    document["forget_requested_at"] = None if request is None else float(request[0])
    return document, files


async def _customer(db: Executor, user: UserRef) -> dict[str, Any]:
    """Who the document is about; an agent channel's customer also by that channel's name."""
    customer: dict[str, Any] = {"channel": user.channel, "id": user.id}
    if user.channel == AGENTS:
        row = await db.fetch_one(_AGENT_NAME, (user.id,))
        if row is not None:
            customer |= {"agent_channel": str(row[0]), "reference": str(row[1])}
    return customer


async def _deliveries(db: Executor, key: tuple[str, int]) -> list[dict[str, Any]]:
    """Every delivery of theirs, each with its events, messages and drop-off code's fate."""
    deliveries = await db.fetch_all(_DELIVERIES, key)
    events = await db.fetch_all(_EVENTS, key)
    messages = await db.fetch_all(_MESSAGES, key)
    codes = await db.fetch_all(_CODES, key)
    # Thousands of rows and JSON texts for a long-standing customer (a second's work for ten
    # thousand deliveries): on a thread, so the event loop goes on serving every other chat.
    return await asyncio.to_thread(_assembled, deliveries, events, messages, codes)


def _assembled(
    deliveries: list[Row], events: list[Row], messages: list[Row], codes: list[Row]
) -> list[dict[str, Any]]:
    """The deliveries' section from its rows (``_DELIVERIES``, ``_EVENTS``, ``_MESSAGES``,
    ``_CODES``)."""
    by_id: dict[str, dict[str, Any]] = {}
    for row in deliveries:
        delivery = dict(zip(_DELIVERY_COLUMNS, row, strict=True))
        delivery["saved_order"] = _parsed(delivery["saved_order"])
        delivery |= {"timeline": [], "messages": [], "drop_off_code": None}
        by_id[str(row[0])] = delivery
    for row in events:
        by_id[str(row[0])]["timeline"].append(
            {
                "event_type": row[1],
                "created": row[2],
                "status": row[3],
                "summary": row[4],
                "customer_message_hint": row[5],
                "agent_notes": _parsed(row[6]),
                "pickup": {"address": row[7], "lat": row[8], "lng": row[9]},
                "dropoff": {"address": row[10], "lat": row[11], "lng": row[12]},
            }
        )
    for row in messages:
        message = dict(zip(("kind", "audience", "text", "at", "failure"), row[1:], strict=True))
        by_id[str(row[0])]["messages"].append(message)
    for row in codes:
        code = {"receiver_phone": row[1], "created": row[2], "handed_over_at": row[3]}
        by_id[str(row[0])]["drop_off_code"] = code
    return list(by_id.values())


async def _handoffs(db: Executor, key: tuple[str, int]) -> list[dict[str, Any]]:
    """Their hand-offs to staff, each with what was said through it (not who took it)."""
    handoffs: dict[str, dict[str, Any]] = {}
    columns = ("ref", "chat", "customer_name", "state", "flow", "step", "language")
    for row in await db.fetch_all(_HANDOFFS, key):
        values = (row[0], str(ChatRef(str(row[1]), int(row[2]))), *row[3:8])
        handoff = dict(zip(columns, values, strict=True))
        handoff |= {"opened_at": row[8], "taken_at": row[9], "closed_at": row[10]}
        handoffs[str(row[0])] = handoff | {"messages": []}
    for row in await db.fetch_all(_HANDOFF_MESSAGES, key):
        message = {"way": row[1], "body": _parsed(row[2]), "at": row[3], "delivered_at": row[4]}
        handoffs[str(row[0])]["messages"].append(message)
    return list(handoffs.values())


async def _conversations(db: Executor, user: UserRef) -> list[dict[str, Any]]:
    """An agent channel's customer's conversations, transcripts and events."""
    if user.channel != AGENTS:
        return []
    conversations: dict[int, dict[str, Any]] = {}
    for seq, public_id, flow, language, created_at in await db.fetch_all(
        _CONVERSATIONS, (user.id,)
    ):
        events = await db.fetch_all(_AGENT_EVENTS, (AGENTS, seq))
        conversations[int(seq)] = {
            "id": public_id,
            "flow": flow,
            "language": language,
            "created_at": created_at,
            "transcript": [],
            "events": [_dated(_parsed(body), at) for body, at in events],
        }
    for seq, entry, at in await db.fetch_all(_TRANSCRIPT, (user.id,)):
        conversations[int(seq)]["transcript"].append(_dated(_parsed(entry), at))
    return list(conversations.values())


async def _photos(
    db: Executor, where: CustomerChats, media_dir: Path
) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """Their photos' rows (with each file's SHA-256, None when the file is gone) and the
    names of the files still there."""
    rows: list[Row] = []
    for chat in where.chats:
        rows += await db.fetch_all(_PHOTOS, (chat.channel, chat.id))
    digests = await asyncio.to_thread(_digests, media_dir, [str(row[0]) for row in rows])
    photos = [
        {
            "file_name": str(row[0]),
            "content_type": row[1],
            "size": row[2],
            "created_at": row[3],
            "expires_at": row[4],
            "sha256": digests.get(str(row[0])),
        }
        for row in rows
    ]
    return photos, tuple(name for name in digests)


async def _chat(db: Executor, chat: ChatRef) -> dict[str, Any]:
    """What is kept of one chat of theirs besides their orders."""
    key = (chat.channel, chat.id)
    found: dict[str, Any] = {"chat": str(chat)}
    blocked = await db.fetch_one(_BLOCKED_CHAT, key)
    found["blocked_the_bot_at"] = None if blocked is None else blocked[0]
    invitation = await db.fetch_one(_INVITATION, key)
    found["code_invitation_expires_at"] = None if invitation is None else invitation[0]
    markers = await db.fetch_one(_SENT_MARKERS, key)
    found["messages_sent_count"] = 0 if markers is None else int(markers[0])
    waiting: list[Row] = []
    if chat.channel == TELEGRAM:
        waiting = await db.fetch_all(_TELEGRAM_WAITING, key)
    if chat.channel == WHATSAPP:
        waiting = await db.fetch_all(_WHATSAPP_WAITING, (chat.id,))
        window = await db.fetch_one(_WHATSAPP_WINDOW, (chat.id,))
        found["last_message_at"] = None if window is None else window[0]
        found["whatsapp_sent"] = [
            dict(zip(("kind", "reference", "body", "status", "sent_at"), row, strict=True))
            for row in await db.fetch_all(_WHATSAPP_SENT, (chat.id,))
        ]
    found["messages_not_handled_yet"] = [_dated(_parsed(body), at) for body, at in waiting]
    return found


def _audit_entry(row: Row, them: str) -> dict[str, Any]:
    """An audit entry about them; an actor who is neither they nor the bot is ``staff``."""
    at, actor, action, subject, outcome, detail = row
    shown = actor if actor == them or actor in _SYSTEM_ACTORS else "staff"
    return {
        "at": at,
        "actor": shown,
        "action": action,
        "subject": subject,
        "outcome": outcome,
        "detail": detail,
    }


def _digests(media_dir: Path, file_names: Sequence[str]) -> dict[str, str]:
    """Each file still in ``media_dir`` by name, with its bytes' SHA-256 (hex)."""
    digests: dict[str, str] = {}
    for name in file_names:
        try:
            digests[name] = hashlib.sha256((media_dir / name).read_bytes()).hexdigest()
        except FileNotFoundError:
            continue
    return digests


def _dated(value: Any, at: object) -> dict[str, Any]:
    """``value`` and the moment it was kept."""
    return {"at": at, "value": value}


def _parsed(text: object) -> Any:
    """A JSON text the store keeps, parsed; anything else (plain text, None) as it is."""
    if not isinstance(text, str):
        return text
    if text == "[]":  # most events' notes: no parse needed
        return []
    try:
        return json.loads(text)
    except ValueError:
        return text
