"""The card staff see for a hand-off: who, in which language, where their order stands, what
was said lately, and their deliveries.

It names the customer by their display name only: their phone appears only as an answer they
gave in the order. No drop-off code is ever in it (codes are never answers, and never kept in
``store.deliveries``). The card is said from the catalogue it is given: the business's own
(``BusinessTexts.business_catalogue``), whoever's turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.handoff.bodies import one_line
from bot.store.delivery_links import DeliveryLink
from bot.store.handoffs import TO_STAFF, Handoff, HandoffMessage
from conversations import Engine, Session
from conversations.context import Context
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

RECENT_MESSAGES = 5  # the last messages both ways on the card
MAX_LINE = 200  # characters of one answer or message on the card


@dataclass(frozen=True)
class CardFacts:
    """What the card shows besides the hand-off itself."""

    session: Session | None
    answers: Sequence[tuple[str, str]]
    recent: Sequence[HandoffMessage]
    deliveries: Sequence[DeliveryLink]
    blocked: bool = False  # the hand-off was ended by its customer's block


async def draft_summary(
    catalogue: Catalogue, engine: Engine, session: Session
) -> list[tuple[str, str]]:
    """(question, answer) of every answer so far on the draft's route, as the summary says
    them (from ``catalogue``)."""
    flow = engine.registry.get(session.flow)
    if flow is None:
        return []
    caps, warehouses, locations = await engine.services.catalog.catalogue()
    ctx = Context(
        session=session,
        flow=flow,
        caps=caps,
        warehouses=tuple(warehouses),
        locations=tuple(locations),
        phone_region=engine.phone_region,
        geocoder=None,
        catalogue=catalogue,
    )
    return flow.summary_lines(ctx)


def question_title(
    catalogue: Catalogue, engine: Engine, flow_name: str | None, step_name: str | None
) -> str:
    """The question ``step_name`` of ``flow_name``, its title as said from ``catalogue``."""
    flow = engine.registry.get(flow_name) if flow_name else None
    if flow is None or step_name is None or step_name not in flow:
        return step_name or "-"
    return flow.step(step_name).said_title(catalogue)


def order_at(
    catalogue: Catalogue, engine: Engine, session: Session | None
) -> tuple[str, str] | None:
    """Where the customer's order waits, said from ``catalogue``: its flow's title and the
    question it is at; None when no order is open."""
    if session is None or session.step is None:
        return None
    flow = engine.registry.get(session.flow)
    flow_title = flow.menu_label(catalogue) if flow is not None else session.flow
    return flow_title, question_title(catalogue, engine, session.flow, session.step)


def card_text(catalogue: Catalogue, engine: Engine, handoff: Handoff, facts: CardFacts) -> str:
    """The card, plain text, said from ``catalogue`` (the business's)."""
    return "\n".join(_lines(catalogue, engine, handoff, facts))


def _lines(catalogue: Catalogue, engine: Engine, handoff: Handoff, facts: CardFacts) -> list[str]:
    say = catalogue.say
    lines = [
        say("staff.card_title", ref=handoff.ref),
        say("staff.card_who", name=handoff.name, language=handoff.language or "-"),
    ]
    where = order_at(catalogue, engine, facts.session)
    if where is None:
        lines.append(say("staff.card_no_order"))
    else:
        lines.append(say("staff.card_where", flow=where[0], question=where[1]))
    if facts.answers:
        lines += ["", say("staff.card_answers")]
        lines += [f"• {title}: {_cut(answer)}" for title, answer in facts.answers]
    if facts.recent:
        lines += ["", say("staff.card_recent")]
        for message in facts.recent:
            who = say("staff.said_customer" if message.way == TO_STAFF else "staff.said_staff")
            lines.append(f"{who}: {_cut(one_line(message.body))}")
    if facts.deliveries:
        lines += ["", say("staff.card_deliveries")]
        for link in facts.deliveries:
            status = status_label(catalogue, link.status)
            lines.append(
                "• " + say("staff.card_delivery", ref=short_ref(link.delivery_id), status=status)
            )
    # How staff answer is the staff side's to say (a reply, a forum topic, demo commands).
    lines += ["", _state_line(catalogue, handoff, blocked=facts.blocked)]
    return lines


def _state_line(catalogue: Catalogue, handoff: Handoff, *, blocked: bool) -> str:
    say = catalogue.say
    if handoff.state == "closed" and blocked:
        return say("staff.card_blocked")
    if handoff.state == "closed":
        return say("staff.card_closed")
    if handoff.state == "taken":
        return say("staff.card_taken", owner=handoff.owner_name or "-")
    return say("staff.card_open")


def _cut(text: str) -> str:
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"
