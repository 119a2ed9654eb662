"""Pickup & delivery: a rider collects a package and brings it to a receiver.

The whole graph, in the order the customer meets it::

    delivery_mode ─┬─ pickup ──── pickup_place (+ unit / address / found place)
                   └─ warehouse ─ warehouse
    dropoff_place (+ unit / address / found place)
    sender_name ─ sender_phone ─ sender_email
    pickup_contact (pickup mode) ─┬─ me
                                  └─ someone else ─ pickup_contact_name ─ pickup_contact_phone
    receiver_name ─ receiver_phone
    package_description ─ package_size ─ fragile ─ photos
    payment ─ pod_amount (when POD is on) ─ summary ─> create

Pre-set, not asked on the way (the summary shows them and changes them): a rider picks the
package up (the pickup place also offers "I'll drop it at a warehouse", which answers the
delivery mode when the business allows it), "Me" hands it over, not fragile, no cash to
collect, and no email. The capabilities name no default delivery mode; a rider going to an
address is the service's ordinary ``pickup``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from pydantic import JsonValue

from conversations import rules
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Branch, Condition, Flow, by_answer
from conversations.order.kinds import ServiceKind
from conversations.places import warehouse_named, warehouse_options, warehouse_place
from conversations.steps import (
    choice,
    package_photos,
    package_size,
    payment,
    pickup_contact,
    place_steps,
    receiver,
    sender,
    summary,
    text,
    yes_no,
)
from conversations.steps.names import (
    PACKAGE_PHOTOS,
    PACKAGE_SIZE,
    PAYMENT,
    PICKUP_CONTACT,
    RECEIVER_NAME,
    SENDER_NAME,
    SUMMARY,
)
from conversations.steps.place_steps import Instead
from conversations.texts import dialogue
from conversations.texts.said import said

KIND: ServiceKind = "pickup_delivery"


class State(StrEnum):
    DELIVERY_MODE = "delivery_mode"
    WAREHOUSE = "warehouse"
    PICKUP = "pickup"  # the place group: pickup_place, pickup_unit, ...
    DROPOFF = "dropoff"
    DESCRIPTION = "package_description"
    FRAGILE = "fragile"


def delivery_modes(ctx: Context) -> list[Option]:
    modes = [Option(id="pickup", label=ctx.catalogue.say("flows.pickup_delivery.mode.pickup"))]
    if warehouse_options(ctx):
        modes.append(
            Option(id="warehouse", label=ctx.catalogue.say("flows.pickup_delivery.mode.warehouse"))
        )
    return modes


def drop_at_warehouse(ctx: Context) -> Option | None:
    """The pickup place's way to the warehouse drop-off, when the business allows it."""
    offered = [option for option in delivery_modes(ctx) if option.id == "warehouse"]
    return offered[0] if offered else None


def in_pickup_mode(ctx: Context) -> bool:
    return ctx.answers.option(State.DELIVERY_MODE) == "pickup"


def guard(ctx: Context) -> str | None:
    return rules.ordering_problem(ctx.catalogue, ctx.caps, KIND)


def write_warehouse(ctx: Context, value: JsonValue) -> Mapping[str, object]:
    """The chosen row's id, and its address and pin as the pickup (never re-geocoded)."""
    found = warehouse_place(ctx, str(value))
    if found is None:
        return {}  # no longer usable: the summary asks again before anything is sent
    row, place = found
    return {"warehouseId": row.id, "pickupAddress": place.address, "pickupCoords": place.coords}


DROPOFF = place_steps(
    State.DROPOFF,
    title=said("flows.title.dropoff_place"),
    question=said("flows.pickup_delivery.dropoff_question"),
    fields=("deliveryAddress", "deliveryCoords"),
    next=SENDER_NAME,
)
PICKUP = place_steps(
    State.PICKUP,
    title=said("flows.title.pickup_place"),
    question=said("flows.pickup_delivery.pickup_question"),
    fields=("pickupAddress", "pickupCoords"),
    instead=Instead(State.DELIVERY_MODE, drop_at_warehouse),
    depends_on=(State.DELIVERY_MODE,),
    next=DROPOFF.first,
)

PICKUP_DELIVERY = Flow(
    name=KIND,
    title=said("flows.pickup_delivery.title"),
    label=rules.SERVICE_KIND_LABELS[KIND],
    listed=True,
    version=2,
    start=State.DELIVERY_MODE,
    guard=guard,
    service_kind=KIND,
    steps=(
        choice(
            State.DELIVERY_MODE,
            title=said("flows.pickup_delivery.title.mode"),
            question=said("flows.pickup_delivery.mode_question"),
            options=delivery_modes,
            preset=lambda ctx: "pickup",
            single=said("flows.pickup_delivery.mode_single"),
            fields=("deliveryMode",),
            next=Branch(
                "delivery mode",
                by_answer(State.DELIVERY_MODE),
                {"pickup": PICKUP.first, "warehouse": State.WAREHOUSE},
            ),
        ),
        choice(
            State.WAREHOUSE,
            title=said("flows.pickup_delivery.title.warehouse"),
            question=said("flows.pickup_delivery.warehouse_question"),
            options=warehouse_options,
            single=said("flows.pickup_delivery.warehouse_single"),  # chosen for them: say where
            # The business stopped warehouse drop-off after it was chosen (settings changed):
            # a rider picks up instead, and only the pickup place is asked again.
            empty=dialogue.NO_WAREHOUSE_NOW,
            empty_reasks=State.DELIVERY_MODE,
            depends_on=(State.DELIVERY_MODE,),
            fields=("warehouseId", "pickupAddress", "pickupCoords"),
            write=write_warehouse,
            describe=warehouse_named,
            next=DROPOFF.first,
        ),
        *PICKUP.steps,
        *DROPOFF.steps,
        *sender(next=PICKUP_CONTACT).steps,
        *pickup_contact(
            when=Condition("the rider picks up from an address", in_pickup_mode),
            next=RECEIVER_NAME,
        ).steps,
        *receiver(next=State.DESCRIPTION).steps,
        text(
            State.DESCRIPTION,
            title=said("flows.pickup_delivery.title.package"),
            question=said("flows.pickup_delivery.description_question"),
            length=(2, 500),
            fields=("packageDescription",),
            next=PACKAGE_SIZE,
        ),
        package_size(question=said("flows.size_question"), next=State.FRAGILE),
        yes_no(
            State.FRAGILE,
            title=said("flows.pickup_delivery.title.fragile"),
            question=said("flows.pickup_delivery.fragile_question"),
            preset="no",
            fields=("isFragile",),
            next=PACKAGE_PHOTOS,
        ),
        package_photos(called=said("flows.called.package"), next=PAYMENT),
        *payment(kind=KIND, next=SUMMARY).steps,
        summary(heading=said("flows.pickup_delivery.summary")),
    ),
)
