"""What a customer is told about their own deliveries: one delivery's status, the list of them,
and cancelling one. ``bot.ordering.customer_desk`` says these for every channel.

Sentences that point the customer to a command take the channel's ``ChannelWords``: Telegram
says ``/status``, the console ``status``; nothing else differs between channels. The service's
own texts, error codes and enum values never reach a customer from here: only a status,
said as words (``status_label``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from conversations.keywords import said_command
from conversations.order.delivery import Delivery
from conversations.order.order_limits import CANCEL_REASON_LENGTH
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import (
    heading,
    payment_label,
    short_ref,
    status_label,
    status_sentence,
    tracking_line,
    vehicle_label,
)
from conversations.texts.said import said


@dataclass(frozen=True)
class ChannelWords:
    """How a channel names what a customer can do, for the sentences that point to it.

    The commands are the channel's own words (``/status``), said in the customer's language
    where they have a keyword's words there (``/statut``, ``conversations.keywords``); the two ways
    to share a contact are catalogue message ids (``telegram.share_contact``), said in the
    customer's language.
    """

    new: str  # start an order: "/new"
    status: str  # one delivery: "/status"
    deliveries: str  # the list: "/deliveries"
    cancel_delivery: str  # "/cancel_delivery"
    share_contact: str  # message id of where to share one's own contact: "the button below"
    share_own_contact: str  # the same, named: "the “Share my contact” button below"


BUSY = said("desk.busy")
UNREACHABLE = said("desk.unreachable")
NOT_ACCEPTED = said("desk.not_accepted")
DELIVERIES_PRIVATE_ONLY = said("desk.private_only")


# --- finding one of the customer's deliveries ---------------------------------------------------

_ECHO_LENGTH = 40


def echo(typed: str) -> str:
    """What the customer typed, short enough to repeat back."""
    return typed if len(typed) <= _ECHO_LENGTH else typed[: _ECHO_LENGTH - 1] + "…"


def unknown_delivery(catalogue: Catalogue, typed: str, words: ChannelWords) -> str:
    """The answer to a reference that is none of the customer's: unknown or someone else's."""
    return catalogue.say(
        "desk.unknown_delivery",
        typed=echo(typed),
        deliveries=said_command(catalogue, words.deliveries),
    )


def none_yet(catalogue: Catalogue, words: ChannelWords) -> str:
    return catalogue.say("desk.none_yet", new=said_command(catalogue, words.new))


# --- one delivery -------------------------------------------------------------------------------


def delivery_details(
    catalogue: Catalogue, delivery: Delivery, tracking_url: str | None = None
) -> str:
    """A delivery for its customer: status, rider, fee, route, tracking (``tracking_url`` when
    the service's view has none)."""
    lines = [heading(catalogue, delivery.id), status_sentence(catalogue, delivery)]
    rider = delivery.rider
    if rider is not None:
        name = rider.name or catalogue.say("desk.rider_assigned")
        if rider.vehicle_type:
            vehicle = vehicle_label(catalogue, rider.vehicle_type)
            lines.append(catalogue.say("desk.rider_with_vehicle", name=name, vehicle=vehicle))
        else:
            lines.append(catalogue.say("desk.rider", name=name))
    payment = delivery.payment
    if payment is not None and payment.delivery_fee is not None:
        fee = catalogue.money(payment.delivery_fee, payment.currency_code or "")
        paid = payment.delivery_payment_status
        if paid:
            lines.append(
                catalogue.say(
                    "desk.fee_with_payment", amount=fee, payment=payment_label(catalogue, paid)
                )
            )
        else:
            lines.append(catalogue.say("desk.fee", amount=fee))
    elif delivery.status == "awaiting_price":
        lines.append(catalogue.say("desk.fee_not_set"))
    if delivery.pickup is not None and delivery.pickup.address:
        lines.append(catalogue.say("desk.from", address=delivery.pickup.address))
    if delivery.dropoff is not None and delivery.dropoff.address:
        lines.append(catalogue.say("desk.to", address=delivery.dropoff.address))
    tracking = delivery.tracking_url or tracking_url
    if tracking:
        lines.append(tracking_line(catalogue, tracking))
    return "\n".join(lines)


def last_known(
    catalogue: Catalogue, delivery_id: str, status: str, tracking_url: str | None, trouble: str
) -> str:
    """What the chat was last told, when the service cannot be asked now; ``trouble`` says why."""
    lines = [
        heading(catalogue, delivery_id),
        catalogue.say("desk.last_known", status=status_label(catalogue, status)),
    ]
    if tracking_url:
        lines.append(tracking_line(catalogue, tracking_url))
    return "\n".join([*lines, "", trouble])


# --- the list -----------------------------------------------------------------------------------


def list_entry_template(catalogue: Catalogue) -> str:
    """One delivery in the list, ``{ref}``, ``{status}`` and ``{date}`` unfilled, so a channel
    may mark up the fields (Telegram shows ``ref`` as code)."""
    return catalogue.say("desk.list_entry", ref="{ref}", status="{status}", date="{date}")


def list_title(catalogue: Catalogue, page: int, pages: int) -> str:
    """The list's first line; ``page`` counts from 0."""
    if pages > 1:
        return catalogue.say("desk.list_title_paged", page=page + 1, pages=pages)
    return catalogue.say("desk.list_title")


def ordered_on(catalogue: Catalogue, created_at: float) -> str:
    """The day a delivery was ordered, as the list shows it (``07 Jan 2027``)."""
    return catalogue.day(datetime.fromtimestamp(created_at, UTC).date())


def list_entry(catalogue: Catalogue, ref: str, status: str, created_at: float) -> str:
    return catalogue.say(
        "desk.list_entry",
        ref=ref,
        status=status_label(catalogue, status),
        date=ordered_on(catalogue, created_at),
    )


def details_hint(catalogue: Catalogue, example_ref: str, words: ChannelWords) -> str:
    return catalogue.say(
        "desk.details_hint", status=said_command(catalogue, words.status), ref=example_ref
    )


def other_pages(catalogue: Catalogue, page: int, pages: int, words: ChannelWords) -> str | None:
    """For channels without page buttons: how to see the next and previous pages (from 0)."""
    ways = []
    if page + 1 < pages:
        ways.append(
            catalogue.say(
                "desk.next_page",
                deliveries=said_command(catalogue, words.deliveries),
                page=page + 2,
            )
        )
    if page > 0:
        ways.append(
            catalogue.say(
                "desk.previous_page",
                deliveries=said_command(catalogue, words.deliveries),
                page=page,
            )
        )
    return (
        catalogue.say("desk.other_pages", ways=catalogue.say("desk.or").join(ways))
        if ways
        else None
    )


def not_your_list(catalogue: Catalogue, words: ChannelWords) -> str:
    return catalogue.say("desk.not_your_list", deliveries=said_command(catalogue, words.deliveries))


def stale_list_button(catalogue: Catalogue, words: ChannelWords) -> str:
    return catalogue.say(
        "desk.stale_list_button", deliveries=said_command(catalogue, words.deliveries)
    )


# --- cancelling ---------------------------------------------------------------------------------


def cancel_usage(catalogue: Catalogue, words: ChannelWords) -> str:
    return catalogue.say(
        "desk.cancel_usage", command=said_command(catalogue, words.cancel_delivery)
    )


def bad_reason(catalogue: Catalogue, length: int, words: ChannelWords) -> str:
    low, high = CANCEL_REASON_LENGTH
    return catalogue.say(
        "desk.bad_reason", low=low, high=high, length=length, usage=cancel_usage(catalogue, words)
    )


def cancelled(catalogue: Catalogue, delivery_id: str) -> str:
    return catalogue.say("desk.cancelled", ref=short_ref(delivery_id))


def not_cancellable(catalogue: Catalogue, delivery_id: str, status: str) -> str:
    """The service's ``cancel_not_allowed``, said by what the chat last knew of the status."""
    ref = short_ref(delivery_id)
    if status == "cancelled":
        return catalogue.say("desk.already_cancelled", ref=ref)
    if status == "delivered":
        return catalogue.say("desk.delivered_not_cancellable", ref=ref)
    return catalogue.say("desk.not_cancellable", ref=ref)
