"""Repeat my last delivery: the customer's newest order, filled in again as answers of the
flow of its kind, so that flow's own steps do the rest.

::

    last_order ─┬─ pickup_delivery ── the pickup_delivery flow, answers filled in
                ├─ errand ─────────── the errand flow, answers filled in
                ├─ kind_gone ──────── the order flow: the service kind asked again
                └─ none ───────────── no_last_order ── the order flow

The filled-in steps are passed over, so the customer is asked only what cannot be reused:
photos (re-hosted photos expire), and whatever today's capabilities no longer allow (a payment
method, a warehouse, an errand mode, a curated shop), which the summary drops and asks again.
Cash to collect is left out when POD is off. The summary offers "Change ..." for every answer,
and the create goes out with a new idempotency key, since this is a new session.
"""

from __future__ import annotations

from enum import StrEnum
from urllib.parse import urlsplit

from pydantic import JsonValue

from bot.partner.models import Coords, CreateDeliveryRequest, ServiceKind
from conversations import rules
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import AutoAnswer, Branch, Flow, Handoff, by_answer
from conversations.flows import errand, pickup_delivery
from conversations.flows.order import ORDER
from conversations.places import PlaceNames, PlacePick
from conversations.steps import choice, lookup, parse_amount

NONE = "none"  # no earlier order
KIND_GONE = "kind_gone"  # the business no longer offers the last order's service kind
NOTHING_YET = "You haven't ordered anything here yet, so there is nothing to repeat."
NOT_AVAILABLE = "Sorry, repeating an order is not available here. Start a new order instead."
PHOTOS_AGAIN = "Photos are not kept between orders, so you'll be asked for them again."
NO_MORE_POD = "The business no longer collects cash for the goods, so this order carries none."


# The kinds as the recap names them (the labels are written for buttons).
_KIND_NOUNS: dict[ServiceKind, str] = {
    "pickup_delivery": "pickup & delivery",
    "errand": "an errand",
}


class State(StrEnum):
    LAST_ORDER = "last_order"
    NO_ORDER = "no_last_order"


Answers = dict[str, JsonValue]


def _pin(role: str, address: str, coords: Coords) -> Answers:
    """A place given again as the pin and address text the request carried (never re-geocoded)."""
    names = PlaceNames.of(role)
    pick = PlacePick(kind="location", lat=coords.lat, lng=coords.lng)
    return {names.place: pick.model_dump(mode="json"), names.address: address}


def _amount(value: float | None) -> JsonValue:
    """An amount as the amount step records it (5000, not 5000.0)."""
    if value is None:
        return None
    return int(value) if value.is_integer() else value


def _sender(request: CreateDeliveryRequest) -> Answers:
    """Who is ordering: both flows name these steps alike."""
    s = pickup_delivery.State
    return {
        s.SENDER_NAME: request.senderName,
        s.SENDER_PHONE: request.senderPhone,
        s.SENDER_EMAIL: request.senderEmail,
    }


def pickup_delivery_answers(request: CreateDeliveryRequest) -> Answers:
    """The answers of the pickup & delivery steps that gave ``request`` (no photos)."""
    s = pickup_delivery.State
    answers: Answers = {
        s.DELIVERY_MODE: request.deliveryMode,
        **_pin(s.DROPOFF, request.deliveryAddress, request.deliveryCoords),
        **_sender(request),
        s.RECEIVER_NAME: request.receiverName,
        s.RECEIVER_PHONE: request.receiverPhone,
        s.DESCRIPTION: request.packageDescription,
        s.SIZE: request.packageSize,
        s.FRAGILE: "yes" if request.isFragile else "no",
        s.PAYMENT: request.customerCollectionMethod,
        s.POD_AMOUNT: _amount(request.podAmount) if request.isPODEnabled else None,
    }
    if request.deliveryMode == "warehouse":
        answers[s.WAREHOUSE] = request.warehouseId
    else:
        answers |= _pin(s.PICKUP, request.pickupAddress, request.pickupCoords)
        same = request.pickupContactSameAsSender is not False
        answers[s.PICKUP_CONTACT] = "yes" if same else "no"
        if not same:
            answers[s.PICKUP_CONTACT_NAME] = request.pickupContactName
            answers[s.PICKUP_CONTACT_PHONE] = request.pickupContactPhone
    return answers


def errand_answers(request: CreateDeliveryRequest, ctx: Context) -> Answers:
    """The answers of the errand steps that gave ``request`` (no photos)."""
    s = errand.State
    budget = parse_amount(request.errandBudgetNgn or "")
    answers: Answers = {
        s.ERRAND_MODE: request.errandMode,
        s.ITEMS: request.packageDescription,
        s.SHOP_PHONE: request.shopPhone or "",
        s.BUDGET: _amount(budget),
        s.SUBSTITUTES: "yes" if request.errandSubstituteOk else "no",
        s.SIZE: request.packageSize,
        **_pin(s.DROPOFF, request.deliveryAddress, request.deliveryCoords),
        **_sender(request),
        s.PAYMENT: request.customerCollectionMethod,
    }
    link = request.errandLinks[0] if request.errandLinks else None
    if request.errandMode == "link" and link is not None:
        curated = {c.id: c.name for c in rules.curated_links(ctx.caps)}
        name = curated.get(link.curatedId or "") or urlsplit(link.url).hostname or link.url
        pick = errand.LinkPick(url=link.url, name=name, curated_id=link.curatedId)
        answers[s.LINK] = pick.model_dump()
        if link.curatedId:
            return answers  # a curated shop has no shop place
    if not request.pickupLocationUnknown:
        answers |= _pin(s.SHOP, request.pickupAddress, request.pickupCoords)
        return answers
    answers[errand.SHOP.place] = PlacePick(kind="unknown").model_dump(mode="json")
    note = request.pickupAddress.removeprefix(errand.UNKNOWN_SHOP)
    if note != request.pickupAddress:
        answers[s.SHOP_NOTE] = note
    return answers


def recap(request: CreateDeliveryRequest) -> str:
    """The last order in a few lines: places, package, receiver, payment."""
    receiver = request.receiverName or request.senderName
    phone = request.receiverPhone or request.senderPhone
    return "\n".join(
        [
            f"Your last order, {_KIND_NOUNS[request.serviceKind]}:",
            f"• From: {request.pickupAddress}",
            f"• To: {request.deliveryAddress}",
            f"• Package: {request.packageDescription} ({request.packageSize})",
            f"• Receiver: {receiver}, {phone}",
            f"• Payment: {rules.PAYMENT_LABELS[request.customerCollectionMethod]}",
        ]
    )


async def find_last_order(ctx: Context) -> AutoAnswer:
    """The last order's kind as the answer, and its details filled in for that kind's flow."""
    customer = ctx.session.customer
    found = await ctx.history.last_order(customer) if ctx.history and customer else None
    if found is None:
        return AutoAnswer(NONE, NOTHING_YET)
    kind = found.serviceKind
    if kind not in rules.service_kinds(ctx.caps):
        note = f"{recap(found)}\n{rules.kind_not_offered(kind)} Please pick a service."
        return AutoAnswer(KIND_GONE, note, fills=_sender(found))  # only who you are is kept
    notes = [recap(found), PHOTOS_AGAIN]
    if kind == "errand":
        answers = errand_answers(found, ctx)
    else:
        answers = pickup_delivery_answers(found)
        if found.isPODEnabled and not rules.pod_allowed(ctx.caps, kind):
            notes.append(NO_MORE_POD)
    filled = {str(name): value for name, value in answers.items()}
    return AutoAnswer(kind, "\n".join(notes), fills=filled)


def guard(ctx: Context) -> str | None:
    if ctx.history is None:
        return NOT_AVAILABLE
    return rules.ordering_problem(ctx.caps)


REPEAT_LAST = Flow(
    name="repeat_last",
    title="Repeat my last delivery",
    version=1,
    start=State.LAST_ORDER,
    guard=guard,
    steps=(
        lookup(
            State.LAST_ORDER,
            title="Your last order",
            find=find_last_order,
            next=Branch(
                "last order",
                by_answer(State.LAST_ORDER),
                {
                    pickup_delivery.KIND: Handoff(pickup_delivery.KIND),
                    errand.KIND: Handoff(errand.KIND),
                    KIND_GONE: Handoff(ORDER.name),
                    NONE: State.NO_ORDER,
                },
            ),
        ),
        choice(
            State.NO_ORDER,
            title="New order",
            question="Would you like to start a new order?",
            options=(Option(id="new", label="Start a new order"),),
            next=Handoff(ORDER.name),
        ),
    ),
)
