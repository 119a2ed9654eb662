"""A delivery's history as the operators' console reads it: its events, the messages the relay
sent about it, its audit entries and its customer's hand-off messages while it was open.

The inbox drops an event's body once the event is relayed (it may hold the drop-off code), so
the relay writes what staff read of each event here, in the commit that finishes it
(``store.relayed.finish_event``), and each message it sent with the commit that marks it
(``SentReceipt.told``); a failed send is written on its own (``record_failed``). The drop-off
code never reaches these rows: the relay leaves it out of an event and masks it in a text
(``bot.relay.planner``).

::

    events = await store.history.events(delivery_id)       # oldest first
    messages = await store.history.messages(delivery_id)   # oldest first
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.store.audit import AuditEntry
from bot.store.database import Executor, Row

CUSTOMER = "customer"
OPERATORS = "operators"


@dataclass(frozen=True)
class Place:
    """A pickup or drop-off as an event showed it."""

    address: str | None
    latitude: float | None
    longitude: float | None


@dataclass(frozen=True)
class HistoryEvent:
    """What staff read of one webhook event (never its drop-off code)."""

    event_id: str
    delivery_id: str
    event_type: str
    created: int  # the service's second
    received_at: float
    status: str
    previous_status: str | None
    summary: str
    customer_message_hint: str | None
    agent_notes: tuple[str, ...]
    pickup: Place
    dropoff: Place


@dataclass(frozen=True)
class HistoryMessage:
    """A message the relay sent about a delivery (``failure`` says why it did not go)."""

    delivery_id: str
    event_id: str  # what caused it
    chat: ChatRef
    kind: str  # the sent marker's kind (``update``, ``operator``, ``otp`` ...)
    audience: str  # ``CUSTOMER`` or ``OPERATORS``
    text: str  # as sent, the drop-off code masked
    at: float
    failure: str | None = None


@dataclass(frozen=True)
class HandoffLine:
    """One message of a hand-off of the delivery's customer."""

    ref: str
    way: str  # ``to_staff`` or ``to_customer``
    body: dict[str, object]  # as the hand-off keeps it (``bot.handoff.bodies``)
    at: float


_NOTE_EVENT = """INSERT INTO timeline_events (event_id, delivery_id, event_type, created,
        received_at, status, previous_status, summary, customer_message_hint, agent_notes,
        pickup_address, pickup_lat, pickup_lng, dropoff_address, dropoff_lat, dropoff_lng)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (event_id) DO NOTHING"""
_NOTE_MESSAGE = """INSERT INTO timeline_messages (delivery_id, event_id, channel, chat_id, kind,
        audience, text, at, failure)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
_EVENTS = """SELECT event_id, delivery_id, event_type, created, received_at, status,
        previous_status, summary, customer_message_hint, agent_notes, pickup_address,
        pickup_lat, pickup_lng, dropoff_address, dropoff_lat, dropoff_lng
    FROM timeline_events WHERE delivery_id = ? ORDER BY created, received_at, event_id"""
_MESSAGES = """SELECT delivery_id, event_id, channel, chat_id, kind, audience, text, at, failure
    FROM timeline_messages WHERE delivery_id = ? ORDER BY at, seq"""
_AUDIT = """SELECT at, actor, action, subject, outcome, detail FROM audit_trail
    WHERE subject = ? ORDER BY at, seq"""
# A hand-off of the chat counts when it was open at some moment of [start, end].
_HANDOFF_LINES = """SELECT m.ref, m.way, m.body, m.created_at
    FROM handoffs h JOIN handoff_messages m ON m.ref = h.ref
    WHERE h.channel = ? AND h.chat_id = ? AND h.opened_at <= ?
      AND (h.closed_at IS NULL OR h.closed_at >= ?)
    ORDER BY m.created_at, m.seq"""


async def note_event(db: Executor, event: HistoryEvent) -> None:
    """Keep ``event`` (once: a redelivered or retried event changes nothing)."""
    await db.execute(
        _NOTE_EVENT,
        (
            event.event_id,
            event.delivery_id,
            event.event_type,
            event.created,
            event.received_at,
            event.status,
            event.previous_status,
            event.summary,
            event.customer_message_hint,
            json.dumps(list(event.agent_notes), ensure_ascii=False),
            event.pickup.address,
            event.pickup.latitude,
            event.pickup.longitude,
            event.dropoff.address,
            event.dropoff.latitude,
            event.dropoff.longitude,
        ),
    )


async def note_messages(db: Executor, messages: Sequence[HistoryMessage]) -> None:
    """Keep each of ``messages``."""
    for message in messages:
        await db.execute(
            _NOTE_MESSAGE,
            (
                message.delivery_id,
                message.event_id,
                message.chat.channel,
                message.chat.id,
                message.kind,
                message.audience,
                message.text,
                message.at,
                message.failure,
            ),
        )


class DeliveryHistory:
    """``store.history``: a delivery's kept events and messages, its audit entries and its
    customer's hand-off messages, each oldest first."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    async def events(self, delivery_id: str) -> list[HistoryEvent]:
        """The delivery's events the relay finished, by the service's time then arrival."""
        return [_event(row) for row in await self._db.fetch_all(_EVENTS, (delivery_id,))]

    async def messages(self, delivery_id: str) -> list[HistoryMessage]:
        """The messages sent (or failed) about the delivery, in the order they were."""
        return [_message(row) for row in await self._db.fetch_all(_MESSAGES, (delivery_id,))]

    async def record_failed(self, messages: Sequence[HistoryMessage]) -> None:
        """Keep messages whose send failed (each attempt is one entry)."""
        await note_messages(self._db, messages)

    async def audit_about(self, subjects: Sequence[str]) -> list[AuditEntry]:
        """The audit entries whose subject is one of ``subjects``, oldest first."""
        entries: list[AuditEntry] = []
        for subject in dict.fromkeys(subjects):
            rows = await self._db.fetch_all(_AUDIT, (subject,))
            entries += [_audit(row) for row in rows]
        return sorted(entries, key=lambda entry: entry.at)

    async def handoff_lines(self, chat: ChatRef, start: float, end: float) -> list[HandoffLine]:
        """The messages of ``chat``'s hand-offs that were open at some moment between
        ``start`` and ``end``, oldest first."""
        rows = await self._db.fetch_all(_HANDOFF_LINES, (chat.channel, chat.id, end, start))
        return [
            HandoffLine(str(row[0]), str(row[1]), dict(json.loads(str(row[2]))), float(row[3]))
            for row in rows
        ]


def _place(address: object, latitude: object, longitude: object) -> Place:
    return Place(
        None if address is None else str(address),
        None if latitude is None else float(str(latitude)),
        None if longitude is None else float(str(longitude)),
    )


def _event(row: Row) -> HistoryEvent:
    notes = json.loads(str(row[9]))
    return HistoryEvent(
        event_id=str(row[0]),
        delivery_id=str(row[1]),
        event_type=str(row[2]),
        created=int(row[3]),
        received_at=float(row[4]),
        status=str(row[5]),
        previous_status=None if row[6] is None else str(row[6]),
        summary=str(row[7]),
        customer_message_hint=None if row[8] is None else str(row[8]),
        agent_notes=tuple(str(note) for note in notes),
        pickup=_place(row[10], row[11], row[12]),
        dropoff=_place(row[13], row[14], row[15]),
    )


def _message(row: Row) -> HistoryMessage:
    return HistoryMessage(
        delivery_id=str(row[0]),
        event_id=str(row[1]),
        chat=ChatRef(str(row[2]), int(row[3])),
        kind=str(row[4]),
        audience=str(row[5]),
        text=str(row[6]),
        at=float(row[7]),
        failure=None if row[8] is None else str(row[8]),
    )


def _audit(row: Row) -> AuditEntry:
    return AuditEntry(
        float(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        str(row[4]),
        None if row[5] is None else str(row[5]),
    )
