"""What the console shows of a hand-off: who asked, who has it, where their order waits with
its answers so far, the customer's latest deliveries, and what was said both ways.

It reads what the Telegram card reads (``HandoffDesk.facts``, ``card.order_at``), in the
business's words, so the two doors show one hand-off alike. A message is shown by its words:
a text, a photo's caption or "a photo", a map pin by its coordinates; never the channel's
file id. The customer is named by their display name only, as on the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Final

from bot.handoff.bodies import LOCATION, Body, coordinates, kind_of, text_of
from bot.handoff.card import order_at
from bot.handoff.desk import HandoffDesk
from bot.staff_console.deliveries_page import channel_label
from bot.store.handoffs import TO_STAFF, Handoff, HandoffMessage
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

LISTED_MESSAGES: Final = 3  # the last messages each hand-off shows in the list
PAGE_MESSAGES: Final = 500  # a hand-off's page shows its whole conversation, up to this many


@dataclass(frozen=True)
class SaidLine:
    """One message of the conversation: when, who said it (customer or team), its words."""

    at: datetime
    at_label: str
    from_customer: bool
    who: str
    text: str


@dataclass(frozen=True)
class CustomerDelivery:
    """One of the customer's latest deliveries: its id (for its page), reference, status."""

    delivery_id: str
    ref: str
    status_label: str


@dataclass(frozen=True)
class HandoffView:
    """A hand-off as a page or a list entry shows it."""

    ref: str
    customer: str
    channel_label: str
    state: str
    state_label: str
    owner_name: str | None
    opened_label: str
    where: str
    answers: tuple[tuple[str, str], ...]
    messages: tuple[SaidLine, ...]
    more_before: bool  # older messages were left out
    deliveries: tuple[CustomerDelivery, ...]
    takes_place: bool  # the order waits on a place question (a map pick can answer it)
    question: str | None  # that question, in words

    @property
    def waiting(self) -> bool:
        """Whether it is not closed (staff may still act on it)."""
        return self.state != "closed"


async def handoff_view(
    desk: HandoffDesk, catalogue: Catalogue, zone: tzinfo, handoff: Handoff, *, messages: int
) -> HandoffView:
    """``handoff`` with its last ``messages`` messages, said from ``catalogue`` in ``zone``."""
    facts = await desk.facts(handoff, messages=messages + 1)
    when = _When(catalogue, zone)
    said = facts.recent[-messages:] if messages else ()
    where = order_at(catalogue, desk.chats.engine, facts.session)
    takes_place = handoff.waiting and await desk.takes_place(handoff)
    return HandoffView(
        ref=handoff.ref,
        customer=handoff.name,
        channel_label=channel_label(catalogue, handoff.chat.channel),
        state=handoff.state,
        state_label=_state_label(catalogue, handoff),
        owner_name=handoff.owner_name,
        opened_label=when(handoff.opened_at)[1],
        where=(
            catalogue.say("staff.card_no_order")
            if where is None
            else catalogue.say("staff.card_where", flow=where[0], question=where[1])
        ),
        answers=tuple(facts.answers),
        messages=tuple(_line(catalogue, when, message) for message in said),
        more_before=len(facts.recent) > messages,
        deliveries=tuple(
            CustomerDelivery(
                link.delivery_id, short_ref(link.delivery_id), status_label(catalogue, link.status)
            )
            for link in facts.deliveries
        ),
        takes_place=takes_place,
        question=where[1] if where is not None else None,
    )


def _state_label(catalogue: Catalogue, handoff: Handoff) -> str:
    if handoff.state == "taken":
        return catalogue.say("staff.card_taken", owner=handoff.owner_name or "-")
    if handoff.state == "closed":
        return catalogue.say("staff.card_closed")
    return catalogue.say("staff.card_open")


def _line(catalogue: Catalogue, when: _When, message: HandoffMessage) -> SaidLine:
    at, label = when(message.created_at)
    from_customer = message.way == TO_STAFF
    who = catalogue.say("staff.said_customer" if from_customer else "staff.said_staff")
    return SaidLine(at, label, from_customer, who, _words(catalogue, message.body))


def _words(catalogue: Catalogue, body: Body) -> str:
    """A message's words: its text or caption, else what it was (a pin, a photo)."""
    text = text_of(body).strip()
    if text:
        return text
    if kind_of(body) == LOCATION:
        lat, lng = coordinates(body)
        return catalogue.say("console_web.timeline.handoff_pin", lat=f"{lat:.5f}", lng=f"{lng:.5f}")
    return catalogue.say("console_web.timeline.handoff_other")


class _When:
    """Moments in ``catalogue``'s words and ``zone``'s time; each day is said once (a long
    conversation has many messages on few days, and saying a day is Babel's slow part)."""

    def __init__(self, catalogue: Catalogue, zone: tzinfo) -> None:
        self._catalogue = catalogue
        self._zone = zone
        self._days: dict[date, str] = {}

    def __call__(self, moment: float) -> tuple[datetime, str]:
        at = datetime.fromtimestamp(moment, self._zone)
        day = self._days.get(at.date())
        if day is None:
            day = self._days[at.date()] = self._catalogue.day(at.date())
        label = self._catalogue.say("console_web.timeline.at", day=day, time=f"{at:%H:%M:%S}")
        return at, label
