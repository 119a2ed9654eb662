"""``delivery_timeline``: one delivery as its page in the console shows it: a header and its
history, oldest first, in the staff member's words and the business's time zone.

::

    found = await delivery_timeline(store, catalogue, zone, typed)
    if found is None: ...                        # no delivery of this bot has that id
    elif isinstance(found, TimelineRefused): ... # found.reason: not a reference, or ambiguous
    else: found.header, found.entries

``typed`` is a full id or a reference as chats show it (``3F2A9C1E``: a prefix of the id),
read as operators' commands read one (``ops.*`` refusals: at least ``MIN_REF`` characters; a
prefix of several deliveries is refused naming them), but looked up in the store.

The history holds, each at its time: every webhook event the relay finished (its type, the
status it moved to, the service's ``summary``, ``customer_message_hint`` and ``agent_notes``),
every message the relay sent about the delivery to the customer or the operators (its text as
sent, or that its send failed; the fee question the customer was asked is one of them), the
audit entries about it (an operator's assign or unassign, the customer's answer to the fee
question, ...), and the messages of the customer's hand-offs to staff that were open while
the delivery was (from its creation to its last change, or now while it is open): a hand-off
is a chat's, not a delivery's, and that is the one link the store can vouch for.

The drop-off code is never here: the relay keeps neither an ``otp_issued`` event's code nor
the text of a message that carries it or the link that opens it (``bot.relay.planner``: such
a message is listed with ``withheld`` set and no text), and nothing is read from the OTP
tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo
from enum import StrEnum
from typing import Final

from bot.chat_ref import ChatRef
from bot.staff_console.deliveries_page import DeliveryRow, delivery_row
from bot.store import FINAL_STATUSES, Store
from bot.store.audit import AuditEntry
from bot.store.delivery_history import (
    OPERATORS,
    HandoffLine,
    HistoryEvent,
    HistoryMessage,
    Place,
)
from bot.store.delivery_list import ListedDelivery, ListQuery
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

MIN_REF: Final = 6
"""The shortest reference looked up, as for operators' commands: shorter would match too much."""
NAMED_AT_MOST: Final = 5
"""How many deliveries a refusal of an ambiguous reference names."""
_REF: Final = re.compile(r"[0-9a-f][0-9a-f-]*", re.IGNORECASE)
_ECHOED: Final = 40
_QUOTE_QUESTION: Final = "quote_question"  # ``bot.relay.planner.QUOTE_QUESTION``


class EntryKind(StrEnum):
    """What an entry of the history is."""

    EVENT = "event"
    MESSAGE = "message"
    HANDOFF = "handoff"
    AUDIT = "audit"


@dataclass(frozen=True)
class MapPlace:
    """A pickup or drop-off for the page and its map (no map when a coordinate is missing)."""

    address: str  # in words: the address, or that there is none
    latitude: float | None
    longitude: float | None

    @property
    def on_map(self) -> bool:
        """Whether the map can pin it."""
        return self.latitude is not None and self.longitude is not None


@dataclass(frozen=True)
class TimelineHeader:
    """The delivery as the list shows it (``row``), with its places as the newest event
    showed them (None before any event)."""

    row: DeliveryRow
    pickup: MapPlace | None
    dropoff: MapPlace | None


@dataclass(frozen=True)
class EventEntry:
    """A webhook event the bot received for the delivery."""

    at: datetime  # the service's time of the event, in the business's zone
    at_label: str
    headline: str  # its type and its status change, in words
    event_type: str
    status: str
    status_label: str
    previous_status: str | None
    summary: str
    customer_message_hint: str | None
    agent_notes: tuple[str, ...]
    kind: EntryKind = EntryKind.EVENT


@dataclass(frozen=True)
class MessageEntry:
    """A message the bot sent about the delivery (or failed to)."""

    at: datetime
    at_label: str
    headline: str  # to whom, and whether it went
    chat: ChatRef
    to_operators: bool
    message_kind: str  # the relay's kind (``update``, ``operator``, ``quote_question`` ...)
    text: str  # as sent; empty when withheld
    withheld: bool  # it carried the drop-off code (or its link): never shown
    failure: str | None
    kind: EntryKind = EntryKind.MESSAGE


@dataclass(frozen=True)
class HandoffEntry:
    """A message of a hand-off of the delivery's customer to staff."""

    at: datetime
    at_label: str
    headline: str
    handoff_ref: str
    to_staff: bool
    text: str  # its text, a photo's caption, or what it was (a photo, a map pin)
    kind: EntryKind = EntryKind.HANDOFF


@dataclass(frozen=True)
class AuditLine:
    """An audit entry about the delivery: who did what, and how it ended."""

    at: datetime
    at_label: str
    headline: str
    actor: str
    action: str
    outcome: str
    detail: str | None
    kind: EntryKind = EntryKind.AUDIT


TimelineEntry = EventEntry | MessageEntry | HandoffEntry | AuditLine


@dataclass(frozen=True)
class DeliveryTimeline:
    """A delivery's page: its header, and its history oldest first."""

    header: TimelineHeader
    entries: tuple[TimelineEntry, ...]


@dataclass(frozen=True)
class TimelineRefused:
    """What was typed names no single delivery; ``reason`` says why, for the staff member."""

    reason: str


async def delivery_timeline(
    store: Store, catalogue: Catalogue, zone: tzinfo, typed: str
) -> DeliveryTimeline | TimelineRefused | None:
    """The page of the delivery ``typed`` names (its id or its reference), said from
    ``catalogue`` with times in ``zone``; None when no delivery of this bot has it."""
    found = await find_delivery(store, catalogue, typed)
    if not isinstance(found, ListedDelivery):
        return found
    delivery_id = found.delivery_id
    events = await store.history.events(delivery_id)
    messages = await store.history.messages(delivery_id)
    ref = short_ref(delivery_id)
    audit = await store.history.audit_about([delivery_id, f"delivery {ref}", ref])
    # A hand-off counts while the delivery was open: until its last change once it is over.
    end = found.updated_at if found.status in FINAL_STATUSES else store.clock()
    handoffs = await store.history.handoff_lines(found.chat, found.created_at, end)
    said = _Said(catalogue, zone)
    entries: list[tuple[float, int, TimelineEntry]] = []
    entries += [(event.created, 0, said.event(event)) for event in events]
    entries += [(message.at, 1, said.message(message)) for message in messages]
    entries += [(line.at, 2, said.handoff(line)) for line in handoffs]
    entries += [(entry.at, 3, said.audit(entry)) for entry in audit]
    # Oldest first; within one moment an event before what it caused (sorted is stable).
    entries.sort(key=lambda item: (item[0], item[1]))
    header = TimelineHeader(
        delivery_row(catalogue, zone, found),
        _place(catalogue, events[-1].pickup) if events else None,
        _place(catalogue, events[-1].dropoff) if events else None,
    )
    return DeliveryTimeline(header, tuple(entry for _, _, entry in entries))


async def find_delivery(
    store: Store, catalogue: Catalogue, typed: str
) -> ListedDelivery | TimelineRefused | None:
    """The delivery ``typed`` names (as ``delivery_timeline`` reads it), why it names none in
    particular (in ``catalogue``'s words), or None (no delivery of this bot has it)."""
    typed = typed.strip()
    if len(typed) < MIN_REF or len(typed) > _ECHOED or not _REF.fullmatch(typed):
        echo = typed if len(typed) <= _ECHOED else typed[: _ECHOED - 1] + "…"
        return TimelineRefused(catalogue.say("ops.not_a_reference", typed=echo, shortest=MIN_REF))
    listed = await store.delivery_list.page(ListQuery(ref_prefix=typed), limit=NAMED_AT_MOST + 1)
    exact = [delivery for delivery in listed if delivery.delivery_id.casefold() == typed.casefold()]
    if exact:
        return exact[0]
    if len(listed) > 1:
        ids = ", ".join(delivery.delivery_id for delivery in listed[:NAMED_AT_MOST])
        if len(listed) > NAMED_AT_MOST:
            ids += ", …"
        return TimelineRefused(catalogue.say("ops.ambiguous_reference", ref=typed.upper(), ids=ids))
    return listed[0] if listed else None


def _place(catalogue: Catalogue, place: Place) -> MapPlace:
    address = (place.address or "").strip() or catalogue.say("console_web.timeline.no_address")
    return MapPlace(address, place.latitude, place.longitude)


class _Said:
    """Each kind of entry in ``catalogue``'s words, its time in ``zone``."""

    def __init__(self, catalogue: Catalogue, zone: tzinfo) -> None:
        self._catalogue = catalogue
        self._zone = zone

    def _when(self, moment: float) -> tuple[datetime, str]:
        at = datetime.fromtimestamp(moment, self._zone)
        label = self._catalogue.say(
            "console_web.timeline.at",
            day=self._catalogue.day(at.date()),
            time=f"{at:%H:%M:%S}",
        )
        return at, label

    def event(self, event: HistoryEvent) -> EventEntry:
        say = self._catalogue.say
        status = status_label(self._catalogue, event.status)
        previous = event.previous_status
        if previous is not None and previous != event.status:
            headline = say(
                "console_web.timeline.event_moved",
                type=event.event_type,
                previous=status_label(self._catalogue, previous),
                status=status,
            )
        else:
            headline = say("console_web.timeline.event", type=event.event_type, status=status)
        at, label = self._when(event.created)
        return EventEntry(
            at=at,
            at_label=label,
            headline=headline,
            event_type=event.event_type,
            status=event.status,
            status_label=status,
            previous_status=previous,
            summary=event.summary,
            customer_message_hint=event.customer_message_hint,
            agent_notes=event.agent_notes,
        )

    def message(self, message: HistoryMessage) -> MessageEntry:
        to_operators = message.audience == OPERATORS
        withheld = not message.text
        if message.failure is not None:
            key = "console_web.timeline.not_sent"
        elif withheld:
            key = "console_web.timeline.code_withheld"
        elif message.kind == _QUOTE_QUESTION:
            key = "console_web.timeline.quote_asked"
        else:
            key = "console_web.timeline.sent"
        whom = self._catalogue.say(
            "console_web.timeline.to_operators"
            if to_operators
            else "console_web.timeline.to_customer",
            chat=str(message.chat),
        )
        at, label = self._when(message.at)
        return MessageEntry(
            at=at,
            at_label=label,
            headline=self._catalogue.say(key, to=whom, failure=message.failure)
            if message.failure is not None
            else self._catalogue.say(key, to=whom),
            chat=message.chat,
            to_operators=to_operators,
            message_kind=message.kind,
            text=message.text,
            withheld=withheld,
            failure=message.failure,
        )

    def handoff(self, line: HandoffLine) -> HandoffEntry:
        to_staff = line.way == "to_staff"
        key = "console_web.timeline.handoff_in" if to_staff else "console_web.timeline.handoff_out"
        at, label = self._when(line.at)
        return HandoffEntry(
            at=at,
            at_label=label,
            headline=self._catalogue.say(key, ref=line.ref),
            handoff_ref=line.ref,
            to_staff=to_staff,
            text=self._body(line.body),
        )

    def _body(self, body: dict[str, object]) -> str:
        """A hand-off message's words: its text, a photo's caption, or what it was."""
        for words in (body.get("text"), body.get("caption")):
            if isinstance(words, str) and words.strip():
                return words
        if "lat" in body and "lng" in body:
            return self._catalogue.say(
                "console_web.timeline.handoff_pin", lat=body["lat"], lng=body["lng"]
            )
        return self._catalogue.say("console_web.timeline.handoff_other")

    def audit(self, entry: AuditEntry) -> AuditLine:
        at, label = self._when(entry.at)
        headline = self._catalogue.say(
            "console_web.timeline.audit",
            actor=entry.actor,
            action=entry.action,
            outcome=entry.outcome,
        )
        return AuditLine(
            at=at,
            at_label=label,
            headline=headline,
            actor=entry.actor,
            action=entry.action,
            outcome=entry.outcome,
            detail=entry.detail,
        )
