"""Errand: a rider buys something for the customer and brings it to them.

The whole graph, in the order the customer meets it::

    errand_mode ─ errand_items ─ photos ─┬─ at_place / photo ── shop_place (+ address / found)
                                         │                       └─ don't know ─ shop_note
                                         └─ link ─ errand_link ─┬─ curated shop
                                                                └─ own link ─ shop_place ...
    shop_phone ─ errand_budget ─ errand_substitutes ─ package_size
    dropoff_place (+ unit / address / found place)
    sender_name ─ sender_phone ─ sender_email ─ payment ─ summary ─> create

The shop is never a saved service location. Without a shop pin (the customer does not know
where it is, or it is an online shop) the pickup carries the drop-off's real coordinates and an
address text that says so; no pin is ever made up. Errands never carry cash-to-collect (POD).
The customer is the receiver.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from conversations import rules
from conversations.context import Context
from conversations.dialog import Answer, ChoiceAnswer, Option, TextAnswer
from conversations.flow import (
    Accept,
    Ask,
    Branch,
    Condition,
    Flow,
    Invalid,
    Question,
    Result,
    Step,
)
from conversations.order.kinds import ServiceKind
from conversations.order.order_limits import MAX_PACKAGE_IMAGES
from conversations.order.request import ErrandLink
from conversations.places import PlacePick, cut_address
from conversations.steps import (
    amount,
    choice,
    package_size,
    payment,
    phone,
    photos,
    place_steps,
    sender,
    summary,
    text,
    yes_no,
)
from conversations.steps.common import Offer
from conversations.steps.names import PACKAGE_SIZE, PAYMENT, SENDER_NAME, SUMMARY
from conversations.steps.summary_step import fee_hints
from conversations.steps.typed import amount_value
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import said

KIND: ServiceKind = "errand"
CURATED_PREFIX = "curated:"
MAX_BUDGET = 100_000_000.0


class State(StrEnum):
    ERRAND_MODE = "errand_mode"
    ITEMS = "errand_items"
    PHOTOS = "photos"
    LINK = "errand_link"
    SHOP = "shop"  # the place group: shop_place, shop_address, shop_confirm
    SHOP_NOTE = "shop_note"
    SHOP_PHONE = "shop_phone"
    BUDGET = "errand_budget"
    SUBSTITUTES = "errand_substitutes"
    DROPOFF = "dropoff"


class LinkPick(BaseModel):
    """The link the rider buys from: a curated shop of the business, or the customer's own."""

    model_config = ConfigDict(frozen=True)

    url: str
    name: str
    curated_id: str | None = None


def mode(ctx: Context) -> str:
    return ctx.answers.option(State.ERRAND_MODE) or ""


def mode_options(ctx: Context) -> list[Option]:
    return [
        Option(id=m, label=rules.ERRAND_MODE_LABELS[m](ctx)) for m in rules.errand_modes(ctx.caps)
    ]


def items_question(ctx: Context) -> str:
    if mode(ctx) == "photo":
        return ctx.catalogue.say("flows.errand.items_question.photo")
    return ctx.catalogue.say("flows.errand.items_question")


def photos_question(ctx: Context) -> str:
    if mode(ctx) == "photo":
        return ctx.catalogue.say("flows.errand.photos_question.photo", high=MAX_PACKAGE_IMAGES)
    return ctx.catalogue.say("flows.errand.photos_question", high=MAX_PACKAGE_IMAGES)


def shop_route(ctx: Context) -> str:
    return "link" if mode(ctx) == "link" else "shop"


def link_route(ctx: Context) -> str:
    link = ctx.answers.model(State.LINK, LinkPick)
    return "curated" if link and link.curated_id else "own"


def shop_unknown(ctx: Context) -> bool:
    pick = ctx.answers.model(SHOP.place, PlacePick)
    return pick is not None and pick.kind == "unknown" and mode(ctx) != "link"


def unknown_shop_allowed(ctx: Context) -> bool:
    return rules.unknown_shop_allowed(ctx.caps)


def guard(ctx: Context) -> str | None:
    return rules.ordering_problem(ctx.catalogue, ctx.caps, KIND)


# --- the link step ----------------------------------------------------------------------------


def _own_link(catalogue: Catalogue, typed: str) -> LinkPick | Invalid:
    url = typed.strip()
    if "://" not in url:
        url = "https://" + url
    try:
        link = ErrandLink(url=url)
    except ValidationError:
        return Invalid(catalogue.say("flows.errand.not_a_link"))
    host = urlsplit(link.url).hostname or ""
    if "." not in host:
        return Invalid(catalogue.say("flows.errand.not_a_link"))
    return LinkPick(url=link.url, name=host)


def link_step() -> Step:
    def ask(ctx: Context) -> Ask:
        curated = rules.curated_links(ctx.caps)
        options = tuple(
            Option(id=f"{CURATED_PREFIX}{c.id}", label=c.name, detail=c.url) for c in curated
        )
        text = ctx.catalogue.say("flows.errand.link_question" + (".curated" if options else ""))
        return Question(text, accepts=("choice", "text"), options=options)

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, ChoiceAnswer):
            wanted = answer.option.removeprefix(CURATED_PREFIX)
            for c in rules.curated_links(ctx.caps):
                if c.id == wanted:
                    return Accept(LinkPick(url=c.url, name=c.name, curated_id=c.id).model_dump())
            return Invalid(ctx.catalogue.say("flows.errand.shop_gone"))
        if not isinstance(answer, TextAnswer):
            return Invalid(ctx.catalogue.say("flows.errand.link_ways"))
        link = _own_link(ctx.catalogue, answer.text)
        return link if isinstance(link, Invalid) else Accept(link.model_dump())

    def describe(ctx: Context, value: JsonValue) -> str:
        link = ctx.answers.model(State.LINK, LinkPick)
        return f"{link.name} ({link.url})" if link else "-"

    def still_valid(ctx: Context, value: JsonValue) -> bool:
        link = ctx.answers.model(State.LINK, LinkPick)
        curated = {c.id for c in rules.curated_links(ctx.caps)}
        return link is not None and (link.curated_id is None or link.curated_id in curated)

    return Step(
        name=State.LINK.value,
        title=said("flows.errand.title.link"),
        input="choice",
        ask=ask,
        accept=accept,
        next=Branch(
            "curated or own link", link_route, {"curated": State.SHOP_PHONE, "own": SHOP.first}
        ),
        depends_on=(State.ERRAND_MODE,),
        fields=("errandLinks", "pickupAddress", "pickupCoords"),
        write=write_link,
        describe=describe,
        still_valid=still_valid,
    )


# --- what the errand-only steps write ---------------------------------------------------------


def _plain_amount(value: float | None) -> str:
    """The amount as plain digits ("15000", "15000.50"); empty when the budget was skipped."""
    if value is None:
        return ""
    return str(int(value)) if value.is_integer() else f"{value:.2f}"


def _dropoff_coords(ctx: Context) -> object:
    """The drop-off's real pin: the pickup of a shop nobody can pin (never a made-up one)."""
    dropoff = DROPOFF.result(ctx)
    return dropoff.coords if dropoff is not None else None


def write_link(ctx: Context, value: JsonValue) -> Mapping[str, object]:
    """The link, and an honest pickup for an online order (the shop place, when the customer
    gives one later on the route, replaces it)."""
    link = ctx.answers.model(State.LINK, LinkPick)
    if link is None:
        return {}
    items = ctx.answers.text(State.ITEMS)
    # The pickup text is read by the business's staff and riders: in its language.
    online = "flows.errand.online_order" + (".curated" if link.curated_id else "")
    return {
        "errandLinks": [{"url": link.url, "note": items[:500], "curatedId": link.curated_id}],
        "pickupAddress": cut_address(ctx.catalogue.for_business().say(online, shop=link.name)),
        "pickupCoords": _dropoff_coords(ctx),
    }


def write_shop_note(ctx: Context, value: JsonValue) -> Mapping[str, object]:
    note = ctx.answers.text(State.SHOP_NOTE)
    return {
        "pickupAddress": cut_address(
            ctx.catalogue.for_business().say("flows.errand.unknown_shop", note=note)
        ),
        "pickupCoords": _dropoff_coords(ctx),
    }


def write_budget(ctx: Context, value: JsonValue) -> Mapping[str, object]:
    return {"errandBudgetNgn": _plain_amount(amount_value(value))}


SHOP = place_steps(
    State.SHOP,
    title=said("flows.errand.title.shop"),
    question=said("flows.errand.shop_question"),
    fields=("pickupAddress", "pickupCoords"),
    unknown_flag="pickupLocationUnknown",
    saved=False,
    unknown=unknown_shop_allowed,
    unknown_next=State.SHOP_NOTE,
    depends_on=(State.ERRAND_MODE, State.LINK),
    next=State.SHOP_PHONE,
)
DROPOFF = place_steps(
    State.DROPOFF,
    title=said("flows.title.dropoff_place"),
    question=said("flows.errand.dropoff_question"),
    fields=("deliveryAddress", "deliveryCoords"),
    next=SENDER_NAME,
)

ERRAND = Flow(
    name=KIND,
    title=said("flows.errand.title"),
    label=rules.SERVICE_KIND_LABELS[KIND],
    listed=True,
    version=2,
    start=State.ERRAND_MODE,
    guard=guard,
    service_kind=KIND,
    # Every errand field is sent, empty where the customer skipped it.
    fixed={
        "deliveryMode": "pickup",
        "errandLinks": [],
        "pickupLocationUnknown": False,
    },
    steps=(
        choice(
            State.ERRAND_MODE,
            title=said("flows.errand.title.mode"),
            question=said("flows.errand.mode_question"),
            options=mode_options,
            default=lambda ctx: rules.default_errand_mode(ctx.caps),
            single=said("flows.errand.mode_single"),
            fields=("errandMode",),
            next=State.ITEMS,
        ),
        text(
            State.ITEMS,
            title=said("flows.errand.title.items"),
            question=items_question,
            length=(2, 1000),
            fields=("packageDescription",),
            next=State.PHOTOS,
        ),
        photos(
            State.PHOTOS,
            title=said("steps.title.photos"),
            question=photos_question,
            minimum=lambda ctx: 1 if mode(ctx) == "photo" else 0,
            maximum=MAX_PACKAGE_IMAGES,
            depends_on=(State.ERRAND_MODE,),
            fields=("packageImages",),
            next=Branch("errand type", shop_route, {"shop": SHOP.first, "link": State.LINK}),
        ),
        link_step(),
        *SHOP.steps,
        text(
            State.SHOP_NOTE,
            title=said("flows.errand.title.shop_note"),
            question=said("flows.errand.shop_note_question"),
            length=(3, 300),
            when=Condition("the shop's place is not known", shop_unknown),
            depends_on=(SHOP.place,),
            fields=("pickupAddress", "pickupCoords"),
            write=write_shop_note,
            next=State.SHOP_PHONE,
        ),
        phone(
            State.SHOP_PHONE,
            title=said("flows.errand.title.shop_phone"),
            question=said("flows.errand.shop_phone_question"),
            optional=True,
            fields=("shopPhone",),
            next=State.BUDGET,
        ),
        amount(
            State.BUDGET,
            title=said("flows.errand.title.budget"),
            question=lambda ctx: ctx.catalogue.say(
                "flows.errand.budget_question", currency=ctx.caps.currency
            ),
            maximum=MAX_BUDGET,
            optional=True,
            fields=("errandBudgetNgn",),
            write=write_budget,
            next=State.SUBSTITUTES,
        ),
        yes_no(
            State.SUBSTITUTES,
            title=said("flows.errand.title.substitutes"),
            question=said("flows.errand.substitutes_question"),
            options=(
                Offer("yes", said("flows.errand.substitutes.yes")),
                Offer("no", said("flows.errand.substitutes.no")),
            ),
            fields=("errandSubstituteOk",),
            next=PACKAGE_SIZE,
        ),
        package_size(question=said("flows.errand.size_question"), next=DROPOFF.first),
        *DROPOFF.steps,
        # The customer receives what the rider bought.
        *sender(
            next=PAYMENT,
            phone_question=said("flows.errand.phone_question"),
            is_receiver=True,
        ).steps,
        *payment(kind=KIND, next=SUMMARY, cash_to_collect=False).steps,
        summary(
            heading=said("flows.errand.summary"),
            # The customer is the receiver here: no other receiver was asked.
            hints=lambda ctx: fee_hints(ctx, customer_receives=True),
        ),
    ),
)
