"""What the engine itself says, so every flow sounds the same: sentences of the catalogue
(``messages_en``, ids ``dialogue.*``), rendered in the language of the turn being handled.

Channel-independent: no slash commands or button glyphs, and where a sentence asks to choose
an option or a command it holds a ``taps`` mark, which each channel says its way ("tap Done" in
Telegram, "type done" in the console).

The sentences without placeholders read as module constants (``dialogue.CLOSED``): each read
renders the catalogue's message in the current language, so read them at the moment they are
said (``dialogue.CLOSED``), never bind them at import (``from ... import CLOSED`` freezes
English).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from conversations.dialog import AnswerKind, InputKind
from conversations.order.delivery import Delivery
from conversations.outcome import Refused
from conversations.shortening import shorten
from conversations.texts.catalogue import number, say
from conversations.texts.deliveries_texts import short_ref, status_label

_CONSTANTS = {
    name: f"dialogue.{name.lower()}"
    for name in (
        "SERVICE_DOWN",
        "CLOSED",
        "RESTARTED",
        "FLOW_GONE",
        "NO_WAREHOUSE_NOW",
        "STALE",
        "CANCELLED",
        "CANCEL_QUESTION",
        "CANCEL_YES",
        "CANCEL_NO",
        "NEW_ORDER_QUESTION",
        "NEW_ORDER_YES",
        "FIRST_QUESTION",
        "EDIT_FROM_SUMMARY",
        "STUCK",
        "NO_SKIP",
        "PICK_AN_OPTION",
        "EMPTY_ANSWER",
        "COMMANDS",
        "REFUSED_PLACE",
        "NOTHING_TO_REPEAT",
        "CANNOT_REPEAT",
        "TRY_AGAIN",
        "NO_PAYMENT_METHOD_ALERT",
        "IMAGE_HOST_ALERT",
        "CHECKING",
        "DUPLICATE_HELD",
        "NOT_PLACED",
        "STILL_UNKNOWN",
    )
}


def __getattr__(name: str) -> str:
    """``dialogue.CLOSED`` and the other constant sentences, in the current language."""
    message_id = _CONSTANTS.get(name)
    if message_id is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return say(message_id)


def wrong_kind(accepts: Iterable[AnswerKind]) -> str:
    ways = [say(f"dialogue.way.{kind}") for kind in accepts]
    if not ways:
        return say("dialogue.pick_an_option")
    return say("dialogue.wrong_kind", ways=say("dialogue.ways_joiner").join(ways))


def help_for(kind: InputKind) -> str:
    return say(f"dialogue.help.{kind}")


# --- a typed address the geocoder looked up ------------------------------------------------


def _names_an_area(typed: str) -> bool:
    """Whether ``typed`` already names an area after the street ("Allen Avenue, Ikeja")."""
    return "," in typed.strip(" ,")


QUOTE_LENGTH = 60  # of a customer's answer quoted back in a refusal


def quoted(typed: str) -> str:
    """A customer's answer as a refusal quotes it: at most ``QUOTE_LENGTH`` characters (a
    long paste is not echoed back whole)."""
    return shorten(typed, QUOTE_LENGTH)


def address_not_found(typed: str) -> str:
    """Nothing was found for ``typed``: what to add, without asking again for what it has."""
    if _names_an_area(typed):
        return say("dialogue.address_not_found_with_area", typed=quoted(typed))
    return say("dialogue.address_not_found", typed=quoted(typed))


def address_again(typed: str) -> str:
    """None of the places found for ``typed`` was right: how to type it again."""
    if _names_an_area(typed):
        return say("dialogue.address_again_with_area")
    return say("dialogue.address_again")


KEEP_LABEL_LENGTH = 40  # of the answer, after "Keep: "


def keep_label(current: str) -> str:
    return say("dialogue.keep_label", answer=shorten(current, KEEP_LABEL_LENGTH))


# --- a returning customer's last places -----------------------------------------------------

LAST_PLACE_LENGTH = 60  # of the address, after "Same as last time: "


def same_place_as_last(address: str) -> str:
    """The option that gives the customer's last place of this kind again."""
    return say("dialogue.same_place_as_last", place=shorten(address, LAST_PLACE_LENGTH))


def no_longer_offered(title: str) -> str:
    return say("dialogue.no_longer_offered", title=title)


def _listed(items: Iterable[str]) -> str:
    return say("dialogue.list_joiner").join(items)


def can_change(titles: list[str]) -> str:
    return say("dialogue.can_change", titles=_listed(titles))


# --- places outside the business's area --------------------------------------------------------


def outside_area(radius_km: float) -> str:
    """A place farther than the business could cover (see ``conversations.service_area``)."""
    return say("dialogue.outside_area", radius_km=number(radius_km))


# --- "repeat my last delivery" ---------------------------------------------------------------


def no_such_flow(name: str, names: Iterable[str]) -> str:
    return say("dialogue.no_such_flow", name=name, names=_listed(names))


def repeating(label: str) -> str:
    return say("dialogue.repeating", label=label)


def not_reused(titles: Iterable[str]) -> str:
    return say("dialogue.not_reused", titles=_listed(titles))


# --- a business with no payment method switched on -------------------------------------------


def order_held(*, kept: bool) -> str:
    """The one sentence a customer reads while the business has no payment method on."""
    return say("dialogue.order_held_kept" if kept else "dialogue.order_held")


# --- a refused create ------------------------------------------------------------------------


def other_refusal_alert(refused: Refused) -> str:
    if refused.message:
        return say("dialogue.other_refusal_alert_said", said=refused.message)
    return say("dialogue.other_refusal_alert")


def operator_alert(refused: Refused) -> str | None:
    """What the operators are told about ``refused``, when its decision says to tell them."""
    if not refused.alert_operators:
        return None
    if refused.reason == "image_host":
        return say("dialogue.image_host_alert")
    return other_refusal_alert(refused)


def refusal(refused: Refused, titles: Sequence[str] = ()) -> str:
    """What the customer is told first after ``refused``; ``titles`` name the answers asked
    again, as the flow's steps call them.

    Always the bot's own words: the service's ``message`` and ``field_errors`` (developer
    text such as "Re-fetch capabilities.", request field names, enum values) are for the log
    and the operators, never for the chat.
    """
    match refused.reason:
        case "validation" if titles:
            return say("dialogue.refused_answers", titles=_listed(titles))
        case "validation":
            return say("dialogue.refused_order")
        case "service_disabled":
            return say("dialogue.refused_service")
        case "payment":
            return say("dialogue.refused_payment")
        case "coverage" if titles:
            return say("dialogue.refused_places", titles=_listed(titles))
        case "coverage":
            return say("dialogue.refused_a_place")
        case "image_host":
            return say("dialogue.refused_photos")
        case "photo_link":
            return say("dialogue.refused_photo_link")
        case "photos_expired":
            return say("dialogue.refused_photos_expired")
        case "unavailable":
            return say("dialogue.checking")
        case "duplicate_held":
            return say("dialogue.duplicate_held")
        case "rate_limited" if refused.retry_after:
            return say("dialogue.busy_wait", seconds=_seconds(refused.retry_after))
        case "rate_limited":
            return say("dialogue.busy")
        case _:
            return say("dialogue.refused_other")


def _seconds(wait: float) -> str:
    whole = max(1, round(wait))
    if whole == 1:
        return say("dialogue.one_second")
    return say("dialogue.seconds", count=number(whole))


# --- a created delivery ----------------------------------------------------------------------

_CREATED_STATUSES = frozenset(
    {"awaiting_price", "pending", "picked_up", "in_transit", "delivered", "cancelled"}
)


def created(delivery: Delivery, then: Sequence[str] = ()) -> list[str]:
    """Plain sentences for a freshly created delivery: status, reference, what happens next
    (``then``: the fee, see ``money_texts.after_create``) and the tracking link.

    The tracking link is given here, once: the relay does not repeat it to this chat.
    """
    lines = [say("dialogue.created", ref=short_ref(delivery.id))]
    if delivery.status == "matched":
        rider = delivery.rider.name if delivery.rider and delivery.rider.name else None
        if rider:
            lines.append(say("dialogue.created.rider_named", rider=rider))
        else:
            lines.append(say("dialogue.created.rider"))
    elif delivery.status in _CREATED_STATUSES:
        lines.append(say(f"dialogue.created.{delivery.status}"))
    else:
        lines.append(say("dialogue.created.other", status=status_label(delivery.status)))
    lines += then
    if delivery.tracking_url:
        lines.append(say("delivery.tracking", url=delivery.tracking_url))
    return lines


# --- an order whose answer was lost ----------------------------------------------------------


def went_through(delivery: Delivery) -> str:
    """What the customer is told once the order whose answer was lost is found to exist."""
    return "\n".join([say("dialogue.went_through"), *created(delivery)])


def still_unknown_alert(key: str, chat_id: int, place: str, package: str, attempts: int) -> str:
    """What the operators are told when a lost answer could not be settled by retrying."""
    return say(
        "dialogue.still_unknown_alert",
        attempts=attempts,
        key=key,
        chat_id=chat_id,
        package=package,
        place=place,
    )


def create_waiting(seconds: float) -> str:
    """Said before a create that the service's request limit holds back for ``seconds``."""
    if seconds < 90:
        wait = say("dialogue.seconds", count=number(max(5, 5 * math.ceil(seconds / 5))))
    else:
        minutes = math.ceil(seconds / 60)
        wait = (
            say("dialogue.one_minute")
            if minutes == 1
            else say("dialogue.minutes", count=number(minutes))
        )
    return say("dialogue.create_waiting", wait=wait)


def change_label(title: str) -> str:
    """The summary's option that changes the step titled ``title`` ("Change pickup place")."""
    return say("dialogue.change_step", what=title.lower())
