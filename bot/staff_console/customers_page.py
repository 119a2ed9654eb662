"""The customers as a staff member reads them: a search's rows (``search_results``) and one
customer's page (``customer_page``), in words and in the business's zone.

::

    rows = await search_results(store, catalogue, zone, query)        # at most MOST_FOUND
    page = await customer_page(store, catalogue, zone, user)          # None: nobody known

A customer's name is the newest one their orders gave (``store.customer_search.facts``), else
the one the bot remembers for their next order (``store.customers``), else, for an agent
channel's customer, the channel's reference; their phone likewise, the proven one second.
They are named as operators name them (``customer_shown``: ``telegram:1900``,
``shop-app:cust-42``). Who blocked them is a staff member's name where it was one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Final

from pydantic import ValidationError

from bot.chat_ref import UserRef
from bot.config import CONSOLE_PATH
from bot.limit_kinds import LIMIT_KINDS
from bot.safety.customer_names import shown_as
from bot.staff_console.customers_query import CustomersQuery
from bot.staff_console.deliveries_page import channel_label
from bot.store import Store
from bot.store.customer_search import CustomerDelivery
from conversations.returning import Remembered
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import payment_label, short_ref, status_label

CUSTOMERS: Final = f"{CONSOLE_PATH}/customers"
MOST_FOUND: Final = 25
MOST_DELIVERIES: Final = 50
MOST_LIMITS: Final = 20
_STAFF: Final = "staff:"


@dataclass(frozen=True)
class CustomerRow:
    """Who a customer is, as a search's row and their page's header show it."""

    user: UserRef
    path: str  # their page
    shown: str  # as operators name them: telegram:1900, shop-app:cust-42
    name: str | None
    channel_label: str
    phone: str | None
    deliveries: int
    last_order_label: str | None
    blocked: bool


@dataclass(frozen=True)
class BlockShown:
    """A customer's block in words: when, by whom, why (None: no reason was given)."""

    at_label: str
    at: datetime
    by: str
    reason: str | None


@dataclass(frozen=True)
class DeliveryShown:
    """One of the customer's deliveries on their page."""

    delivery_id: str
    reference: str
    status: str
    status_label: str
    fee: str
    payment_label: str
    created_at: datetime
    created_label: str


@dataclass(frozen=True)
class LimitShown:
    """A limit the customer hit: when, and which in words."""

    at: datetime
    at_label: str
    text: str


@dataclass(frozen=True)
class CustomerPage:
    """One customer: who (``who``), their block (None: they may order), their newest
    deliveries and the limits they hit lately, newest first."""

    who: CustomerRow
    block: BlockShown | None
    deliveries: tuple[DeliveryShown, ...]
    limits: tuple[LimitShown, ...]


def customer_path(user: UserRef) -> str:
    """The customer's page: ``/console/customers/<channel>/<id>``."""
    return f"{CUSTOMERS}/{user.channel}/{user.id}"


async def search_results(
    store: Store, catalogue: Catalogue, zone: tzinfo, query: CustomersQuery
) -> list[CustomerRow]:
    """The customers ``query`` finds, at most ``MOST_FOUND``: the one it names (when the bot
    knows them), then those of the phone, then those of the name."""
    search = store.customer_search
    found: list[UserRef] = []
    if query.user is not None and await search.known(query.user):
        found.append(query.user)
    if query.phone is not None:
        found += await search.with_phone(query.phone, most=MOST_FOUND)
    if query.name is not None:
        found += await search.named(query.name, most=MOST_FOUND)
    users = list(dict.fromkeys(found))[:MOST_FOUND]
    return [await _row(store, catalogue, zone, user) for user in users]


async def customer_page(
    store: Store, catalogue: Catalogue, zone: tzinfo, user: UserRef
) -> CustomerPage | None:
    """``user``'s page, or None when the bot has no trace of them."""
    search = store.customer_search
    if not await search.known(user):
        return None
    who = await _row(store, catalogue, zone, user)
    block = await store.customer_blocks.get(user)
    shown_block = None
    if block is not None:
        at = datetime.fromtimestamp(block.blocked_at, zone)
        by = await actor_shown(store, block.blocked_by)
        shown_block = BlockShown(_at(catalogue, at), at, by, block.reason)
    deliveries = await search.deliveries_of(user, most=MOST_DELIVERIES)
    limits = await search.limits_hit(user, most=MOST_LIMITS)
    return CustomerPage(
        who,
        shown_block,
        tuple(_delivery(catalogue, zone, delivery) for delivery in deliveries),
        tuple(
            LimitShown(
                when := datetime.fromtimestamp(hit.at, zone),
                _at(catalogue, when),
                catalogue.say(
                    "console_web.customers.limit_hit",
                    kind=_limit_label(catalogue, hit.kind),
                    limit=hit.limit or "?",
                ),
            )
            for hit in limits
        ),
    )


async def actor_shown(store: Store, actor: str) -> str:
    """Who acted, as staff read it: a staff member's name and number (``Ada (staff:3)``),
    other actors as the trail names them (``telegram:1900``, ``shell``)."""
    number = actor.removeprefix(_STAFF)
    if actor.startswith(_STAFF) and number.isdecimal():
        member = await store.staff.member(int(number))
        if member is not None:
            return f"{member.name} ({actor})"
    return actor


async def _row(store: Store, catalogue: Catalogue, zone: tzinfo, user: UserRef) -> CustomerRow:
    facts = await store.customer_search.facts(user)
    remembered = _remembered(facts.details_json)
    agent = facts.agent_name
    name = facts.name or remembered.name or (agent[1] if agent else None)
    phone = facts.phone or facts.proven_phone or remembered.phone or None
    last = None
    if facts.last_order_at is not None:
        last = _at(catalogue, datetime.fromtimestamp(facts.last_order_at, zone))
    return CustomerRow(
        user=user,
        path=customer_path(user),
        shown=shown_as(user, agent),
        name=name,
        channel_label=channel_label(catalogue, agent[0] if agent else user.channel),
        phone=phone,
        deliveries=facts.deliveries,
        last_order_label=last,
        blocked=facts.blocked,
    )


def _remembered(data: str | None) -> Remembered:
    if data is None:
        return Remembered()
    try:
        return Remembered.model_validate_json(data)
    except ValidationError:  # written by an older bot: nothing to show rather than a 500
        return Remembered()


def _delivery(catalogue: Catalogue, zone: tzinfo, delivery: CustomerDelivery) -> DeliveryShown:
    created = datetime.fromtimestamp(delivery.created_at, zone)
    fee = (
        catalogue.say("console_web.no_fee")
        if delivery.fee is None
        else catalogue.money(delivery.fee, delivery.currency or "")
    )
    return DeliveryShown(
        delivery_id=delivery.delivery_id,
        reference=short_ref(delivery.delivery_id),
        status=delivery.status,
        status_label=status_label(catalogue, delivery.status),
        fee=fee,
        payment_label=payment_label(catalogue, "paid" if delivery.paid else "unpaid"),
        created_at=created,
        created_label=_at(catalogue, created),
    )


def _limit_label(catalogue: Catalogue, kind: str) -> str:
    if kind in LIMIT_KINDS:
        return catalogue.say(f"console_web.customers.limit.{kind}")
    return kind.replace("_", " ")


def _at(catalogue: Catalogue, when: datetime) -> str:
    return catalogue.say("console_web.at", day=catalogue.day(when.date()), time=f"{when:%H:%M}")
