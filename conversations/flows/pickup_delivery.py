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
"""

from __future__ import annotations

from enum import StrEnum

from bot.partner.models import MAX_PACKAGE_IMAGES, CreateDeliveryRequest, ServiceKind
from conversations import rules
from conversations.contacts import person, phone
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Branch, Condition, Flow, FlowError, by_answer
from conversations.flows.shared import SIZES, fee_hints, payment_options
from conversations.photos import photos
from conversations.place_steps import place_steps
from conversations.places import PlaceNames, resolve, warehouse_options, warehouse_place
from conversations.steps import amount, choice, email, summary, text, yes_no

KIND: ServiceKind = "pickup_delivery"


class State(StrEnum):
    DELIVERY_MODE = "delivery_mode"
    WAREHOUSE = "warehouse"
    PICKUP = "pickup"  # the place group: pickup_place, pickup_unit, ...
    DROPOFF = "dropoff"
    SENDER_NAME = "sender_name"
    SENDER_PHONE = "sender_phone"
    SENDER_EMAIL = "sender_email"
    PICKUP_CONTACT = "pickup_contact"
    PICKUP_CONTACT_NAME = "pickup_contact_name"
    PICKUP_CONTACT_PHONE = "pickup_contact_phone"
    RECEIVER_NAME = "receiver_name"
    RECEIVER_PHONE = "receiver_phone"
    DESCRIPTION = "package_description"
    SIZE = "package_size"
    FRAGILE = "fragile"
    PHOTOS = "photos"
    PAYMENT = "payment"
    POD_AMOUNT = "pod_amount"
    SUMMARY = "summary"


PICKUP = PlaceNames.of(State.PICKUP)
DROPOFF = PlaceNames.of(State.DROPOFF)
MAX_POD = 5_000_000.0


def delivery_modes(ctx: Context) -> list[Option]:
    modes = [Option(id="pickup", label="A rider picks it up from an address")]
    if warehouse_options(ctx):
        modes.append(Option(id="warehouse", label="I'll drop it at a warehouse"))
    return modes


def in_pickup_mode(ctx: Context) -> bool:
    return ctx.answers.option(State.DELIVERY_MODE) == "pickup"


def guard(ctx: Context) -> str | None:
    return rules.ordering_problem(ctx.caps, KIND)


def heading(ctx: Context) -> str:
    return "Please check your pickup & delivery:"


def build(ctx: Context) -> CreateDeliveryRequest:
    """The create request, from the answers on the route the customer took."""
    answers = ctx.answers
    dropoff = resolve(answers, State.DROPOFF)
    if dropoff is None:
        raise FlowError("pickup_delivery: the drop-off place is not settled")
    body: dict[str, object] = {}
    if answers.option(State.DELIVERY_MODE) == "warehouse":
        found = warehouse_place(ctx, answers.text(State.WAREHOUSE))
        if found is None:
            raise FlowError("pickup_delivery: the warehouse is not usable")
        row, pickup = found
        body |= {"deliveryMode": "warehouse", "warehouseId": row.id}
    else:
        settled = resolve(answers, State.PICKUP)
        if settled is None:
            raise FlowError("pickup_delivery: the pickup place is not settled")
        pickup = settled
        same = answers.option(State.PICKUP_CONTACT) != "no"
        body |= {"deliveryMode": "pickup", "pickupContactSameAsSender": same}
        if not same:
            body |= {
                "pickupContactName": answers.text(State.PICKUP_CONTACT_NAME),
                "pickupContactPhone": answers.text(State.PICKUP_CONTACT_PHONE),
            }
    pod = answers.number(State.POD_AMOUNT) if rules.pod_allowed(ctx.caps, KIND) else None
    if pod:
        body |= {"isPODEnabled": True, "podAmount": pod}
    return CreateDeliveryRequest.model_validate(
        body
        | {
            "serviceKind": KIND,
            "senderName": answers.text(State.SENDER_NAME),
            "senderPhone": answers.text(State.SENDER_PHONE),
            "senderEmail": answers.text(State.SENDER_EMAIL),
            "receiverName": answers.text(State.RECEIVER_NAME),
            "receiverPhone": answers.text(State.RECEIVER_PHONE),
            "pickupAddress": pickup.address,
            "pickupCoords": pickup.coords,
            "deliveryAddress": dropoff.address,
            "deliveryCoords": dropoff.coords,
            "packageDescription": answers.text(State.DESCRIPTION),
            "packageSize": answers.option(State.SIZE),
            "isFragile": answers.yes(State.FRAGILE),
            "packageImages": answers.texts(State.PHOTOS),
            "customerCollectionMethod": answers.option(State.PAYMENT),
        }
    )


PICKUP_DELIVERY = Flow(
    name=KIND,
    title="Pickup & delivery",
    version=1,
    start=State.DELIVERY_MODE,
    guard=guard,
    build=build,
    steps=(
        choice(
            State.DELIVERY_MODE,
            title="How it's picked up",
            question="How will the rider get the package?",
            options=delivery_modes,
            single="The rider will pick the package up from an address you give.",
            fields=("deliveryMode",),
            next=Branch(
                "delivery mode",
                by_answer(State.DELIVERY_MODE),
                {"pickup": PICKUP.place, "warehouse": State.WAREHOUSE},
            ),
        ),
        choice(
            State.WAREHOUSE,
            title="Warehouse",
            question="Which warehouse will you drop the package at?",
            options=warehouse_options,
            single="You'll drop the package at {label}.",
            depends_on=(State.DELIVERY_MODE,),
            fields=("warehouseId", "pickupAddress", "pickupCoords"),
            next=DROPOFF.place,
        ),
        *place_steps(
            State.PICKUP,
            title="Pickup place",
            question="Where should the rider pick the package up?",
            fields=("pickupAddress", "pickupCoords"),
            depends_on=(State.DELIVERY_MODE,),
            next=DROPOFF.place,
        ),
        *place_steps(
            State.DROPOFF,
            title="Drop-off place",
            question="Where should the rider deliver it?",
            fields=("deliveryAddress", "deliveryCoords"),
            next=State.SENDER_NAME,
        ),
        person(
            State.SENDER_NAME,
            title="Your name",
            question="What is your name? You can also share your contact.",
            phone_step=State.SENDER_PHONE,
            fields=("senderName",),
            next=State.SENDER_PHONE,
        ),
        phone(
            State.SENDER_PHONE,
            title="Your phone",
            question="What is your phone number?",
            fields=("senderPhone",),
            next=State.SENDER_EMAIL,
        ),
        email(
            State.SENDER_EMAIL,
            title="Your email",
            question="An email address for updates? (optional)",
            fields=("senderEmail",),
            next=State.PICKUP_CONTACT,
        ),
        yes_no(
            State.PICKUP_CONTACT,
            title="Pickup contact",
            question="Who will hand the package to the rider?",
            options=(Option(id="yes", label="Me"), Option(id="no", label="Someone else")),
            when=Condition("the rider picks up from an address", in_pickup_mode),
            skip_to=State.RECEIVER_NAME,
            fields=("pickupContactSameAsSender",),
            next=Branch(
                "who hands it over",
                by_answer(State.PICKUP_CONTACT),
                {"yes": State.RECEIVER_NAME, "no": State.PICKUP_CONTACT_NAME},
            ),
        ),
        person(
            State.PICKUP_CONTACT_NAME,
            title="Pickup contact name",
            question="Who will hand it over? Type their name, or share their contact.",
            phone_step=State.PICKUP_CONTACT_PHONE,
            depends_on=(State.PICKUP_CONTACT,),
            fields=("pickupContactName",),
            next=State.PICKUP_CONTACT_PHONE,
        ),
        phone(
            State.PICKUP_CONTACT_PHONE,
            title="Pickup contact phone",
            question="Their phone number?",
            depends_on=(State.PICKUP_CONTACT,),
            fields=("pickupContactPhone",),
            next=State.RECEIVER_NAME,
        ),
        person(
            State.RECEIVER_NAME,
            title="Receiver",
            question="Who receives the package? Type their name, or share their contact.",
            phone_step=State.RECEIVER_PHONE,
            fields=("receiverName",),
            next=State.RECEIVER_PHONE,
        ),
        phone(
            State.RECEIVER_PHONE,
            title="Receiver's phone",
            question="The receiver's phone number?",
            fields=("receiverPhone",),
            next=State.DESCRIPTION,
        ),
        text(
            State.DESCRIPTION,
            title="Package",
            question="What is in the package? A few words are enough.",
            length=(2, 500),
            fields=("packageDescription",),
            next=State.SIZE,
        ),
        choice(
            State.SIZE,
            title="Size",
            question="How big is it?",
            options=SIZES,
            fields=("packageSize",),
            next=State.FRAGILE,
        ),
        yes_no(
            State.FRAGILE,
            title="Fragile",
            question="Is it fragile?",
            fields=("isFragile",),
            next=State.PHOTOS,
        ),
        photos(
            State.PHOTOS,
            title="Photos",
            question=f"Please send 1 to {MAX_PACKAGE_IMAGES} photos of the package.",
            minimum=lambda ctx: 1,
            maximum=MAX_PACKAGE_IMAGES,
            fields=("packageImages",),
            next=State.PAYMENT,
        ),
        choice(
            State.PAYMENT,
            title="Payment",
            question="How will the delivery be paid?",
            options=payment_options,
            single="Payment: {label}.",
            empty=rules.SETTINGS_BROKEN,
            fields=("customerCollectionMethod",),
            next=State.POD_AMOUNT,
        ),
        amount(
            State.POD_AMOUNT,
            title="Cash to collect",
            question=lambda ctx: (
                "Should the rider collect cash from the receiver for the goods? "
                f"Type the amount in {ctx.caps.currency}, or tap No cash."
            ),
            none_option=Option(id="none", label="No cash to collect"),
            maximum=MAX_POD,
            when=Condition("POD is enabled", lambda ctx: rules.pod_allowed(ctx.caps, KIND)),
            fields=("isPODEnabled", "podAmount"),
            next=State.SUMMARY,
        ),
        summary(State.SUMMARY, title="Summary", heading=heading, hints=fee_hints),
    ),
)
