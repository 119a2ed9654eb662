"""What the engine itself says, so every flow sounds the same: sentences of the catalogue
(``messages_en``, ids ``dialogue.*``), rendered from the catalogue of the turn being handled.

Channel-independent: no slash commands or button glyphs, and where a sentence asks to choose
an option or a command it holds a ``taps`` mark, which each channel says its way ("tap Done" in
Telegram, "type done" in the console).

The sentences without placeholders are module constants (``dialogue.CLOSED``), each a ``Said``
rendered from the turn's catalogue where it is said (``dialogue.CLOSED.render(catalogue)``);
the other sentences are functions taking the turn's catalogue first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from conversations.dialog import AnswerKind, InputKind
from conversations.order.delivery import Delivery
from conversations.outcome import Refused
from conversations.shortening import shorten
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label
from conversations.texts.said import said

SERVICE_DOWN = said("dialogue.service_down")
CLOSED = said("dialogue.closed")
RESTARTED = said("dialogue.restarted")
FLOW_GONE = said("dialogue.flow_gone")
NO_WAREHOUSE_NOW = said("dialogue.no_warehouse_now")
STALE = said("dialogue.stale")
CANCELLED = said("dialogue.cancelled")
CANCEL_QUESTION = said("dialogue.cancel_question")
CANCEL_YES = said("dialogue.cancel_yes")
CANCEL_NO = said("dialogue.cancel_no")
NEW_ORDER_QUESTION = said("dialogue.new_order_question")
NEW_ORDER_YES = said("dialogue.new_order_yes")
FIRST_QUESTION = said("dialogue.first_question")
EDIT_FROM_SUMMARY = said("dialogue.edit_from_summary")
STUCK = said("dialogue.stuck")
NO_SKIP = said("dialogue.no_skip")
PICK_AN_OPTION = said("dialogue.pick_an_option")
EMPTY_ANSWER = said("dialogue.empty_answer")
COMMANDS = said("dialogue.commands")
REFUSED_PLACE = said("dialogue.refused_place")
NOTHING_TO_REPEAT = said("dialogue.nothing_to_repeat")
CANNOT_REPEAT = said("dialogue.cannot_repeat")
TRY_AGAIN = said("dialogue.try_again")
NO_PAYMENT_METHOD_ALERT = said("dialogue.no_payment_method_alert")
IMAGE_HOST_ALERT = said("dialogue.image_host_alert")
CHECKING = said("dialogue.checking")
DUPLICATE_HELD = said("dialogue.duplicate_held")
NOT_PLACED = said("dialogue.not_placed")
STILL_UNKNOWN = said("dialogue.still_unknown")


def wrong_kind(catalogue: Catalogue, accepts: Iterable[AnswerKind]) -> str:
    ways = [catalogue.say(f"dialogue.way.{kind}") for kind in accepts]
    if not ways:
        return catalogue.say("dialogue.pick_an_option")
    return catalogue.say(
        "dialogue.wrong_kind", ways=catalogue.say("dialogue.ways_joiner").join(ways)
    )


def help_for(catalogue: Catalogue, kind: InputKind) -> str:
    return catalogue.say(f"dialogue.help.{kind}")


# --- a typed address the geocoder looked up ------------------------------------------------


def _names_an_area(typed: str) -> bool:
    """Whether ``typed`` already names an area after the street ("Allen Avenue, Ikeja")."""
    return "," in typed.strip(" ,")


QUOTE_LENGTH = 60  # of a customer's answer quoted back in a refusal


def quoted(typed: str) -> str:
    """A customer's answer as a refusal quotes it: at most ``QUOTE_LENGTH`` characters (a
    long paste is not echoed back whole)."""
    return shorten(typed, QUOTE_LENGTH)


def address_not_found(catalogue: Catalogue, typed: str) -> str:
    """Nothing was found for ``typed``: what to add, without asking again for what it has."""
    if _names_an_area(typed):
        return catalogue.say("dialogue.address_not_found_with_area", typed=quoted(typed))
    return catalogue.say("dialogue.address_not_found", typed=quoted(typed))


def address_again(catalogue: Catalogue, typed: str) -> str:
    """None of the places found for ``typed`` was right: how to type it again."""
    if _names_an_area(typed):
        return catalogue.say("dialogue.address_again_with_area")
    return catalogue.say("dialogue.address_again")


KEEP_LABEL_LENGTH = 40  # of the answer, after "Keep: "


def keep_label(catalogue: Catalogue, current: str) -> str:
    return catalogue.say("dialogue.keep_label", answer=shorten(current, KEEP_LABEL_LENGTH))


# --- a returning customer's last places -----------------------------------------------------

LAST_PLACE_LENGTH = 60  # of the address, after "Same as last time: "


def same_place_as_last(catalogue: Catalogue, address: str) -> str:
    """The option that gives the customer's last place of this kind again."""
    return catalogue.say("dialogue.same_place_as_last", place=shorten(address, LAST_PLACE_LENGTH))


def no_longer_offered(catalogue: Catalogue, title: str) -> str:
    return catalogue.say("dialogue.no_longer_offered", title=title)


def _listed(catalogue: Catalogue, items: Iterable[str]) -> str:
    return catalogue.say("dialogue.list_joiner").join(items)


def can_change(catalogue: Catalogue, titles: list[str]) -> str:
    return catalogue.say("dialogue.can_change", titles=_listed(catalogue, titles))


# --- places outside the business's area --------------------------------------------------------


def outside_area(catalogue: Catalogue, radius_km: float) -> str:
    """A place farther than the business could cover (see ``conversations.service_area``)."""
    return catalogue.say("dialogue.outside_area", radius_km=catalogue.number(radius_km))


# --- "repeat my last delivery" ---------------------------------------------------------------


def no_such_flow(catalogue: Catalogue, name: str, names: Iterable[str]) -> str:
    return catalogue.say("dialogue.no_such_flow", name=name, names=_listed(catalogue, names))


def repeating(catalogue: Catalogue, label: str) -> str:
    return catalogue.say("dialogue.repeating", label=label)


def not_reused(catalogue: Catalogue, titles: Iterable[str]) -> str:
    return catalogue.say("dialogue.not_reused", titles=_listed(catalogue, titles))


# --- a business with no payment method switched on -------------------------------------------


def order_held(catalogue: Catalogue, *, kept: bool) -> str:
    """The one sentence a customer reads while the business has no payment method on."""
    return catalogue.say("dialogue.order_held_kept" if kept else "dialogue.order_held")


# --- a refused create ------------------------------------------------------------------------


def other_refusal_alert(catalogue: Catalogue, refused: Refused) -> str:
    if refused.message:
        return catalogue.say("dialogue.other_refusal_alert_said", said=refused.message)
    return catalogue.say("dialogue.other_refusal_alert")


def operator_alert(catalogue: Catalogue, refused: Refused) -> str | None:
    """What the operators are told about ``refused``, when its decision says to tell them."""
    if not refused.alert_operators:
        return None
    if refused.reason == "image_host":
        return catalogue.say("dialogue.image_host_alert")
    return other_refusal_alert(catalogue, refused)


def refusal(catalogue: Catalogue, refused: Refused, titles: Sequence[str] = ()) -> str:
    """What the customer is told first after ``refused``; ``titles`` name the answers asked
    again, as the flow's steps call them.

    Always the bot's own words: the service's ``message`` and ``field_errors`` (developer
    text such as "Re-fetch capabilities.", request field names, enum values) are for the log
    and the operators, never for the chat.
    """
    match refused.reason:
        case "validation" if titles:
            return catalogue.say("dialogue.refused_answers", titles=_listed(catalogue, titles))
        case "validation":
            return catalogue.say("dialogue.refused_order")
        case "service_disabled":
            return catalogue.say("dialogue.refused_service")
        case "payment":
            return catalogue.say("dialogue.refused_payment")
        case "coverage" if titles:
            return catalogue.say("dialogue.refused_places", titles=_listed(catalogue, titles))
        case "coverage":
            return catalogue.say("dialogue.refused_a_place")
        case "image_host":
            return catalogue.say("dialogue.refused_photos")
        case "photo_link":
            return catalogue.say("dialogue.refused_photo_link")
        case "photos_expired":
            return catalogue.say("dialogue.refused_photos_expired")
        case "unavailable":
            return catalogue.say("dialogue.checking")
        case "duplicate_held":
            return catalogue.say("dialogue.duplicate_held")
        case "rate_limited" if refused.retry_after:
            return catalogue.say(
                "dialogue.busy_wait", seconds=_seconds(catalogue, refused.retry_after)
            )
        case "rate_limited":
            return catalogue.say("dialogue.busy")
        case _:
            return catalogue.say("dialogue.refused_other")


def _seconds(catalogue: Catalogue, wait: float) -> str:
    whole = max(1, round(wait))
    if whole == 1:
        return catalogue.say("dialogue.one_second")
    return catalogue.say("dialogue.seconds", count=catalogue.number(whole))


# --- a created delivery ----------------------------------------------------------------------

_CREATED_STATUSES = frozenset(
    {"awaiting_price", "pending", "picked_up", "in_transit", "delivered", "cancelled"}
)


def created(catalogue: Catalogue, delivery: Delivery, then: Sequence[str] = ()) -> list[str]:
    """Plain sentences for a freshly created delivery: status, reference, what happens next
    (``then``: the fee, see ``money_texts.after_create``) and the tracking link.

    The tracking link is given here, once: the relay does not repeat it to this chat.
    """
    lines = [catalogue.say("dialogue.created", ref=short_ref(delivery.id))]
    if delivery.status == "matched":
        rider = delivery.rider.name if delivery.rider and delivery.rider.name else None
        if rider:
            lines.append(catalogue.say("dialogue.created.rider_named", rider=rider))
        else:
            lines.append(catalogue.say("dialogue.created.rider"))
    elif delivery.status in _CREATED_STATUSES:
        lines.append(catalogue.say(f"dialogue.created.{delivery.status}"))
    else:
        lines.append(
            catalogue.say("dialogue.created.other", status=status_label(catalogue, delivery.status))
        )
    lines += then
    if delivery.tracking_url:
        lines.append(catalogue.say("delivery.tracking", url=delivery.tracking_url))
    return lines


# --- an order whose answer was lost ----------------------------------------------------------


def went_through(catalogue: Catalogue, delivery: Delivery) -> str:
    """What the customer is told once the order whose answer was lost is found to exist."""
    return "\n".join([catalogue.say("dialogue.went_through"), *created(catalogue, delivery)])


def still_unknown_alert(
    catalogue: Catalogue, key: str, chat_id: int, place: str, package: str, attempts: int
) -> str:
    """What the operators are told when a lost answer could not be settled by retrying."""
    return catalogue.say(
        "dialogue.still_unknown_alert",
        attempts=attempts,
        key=key,
        chat_id=chat_id,
        package=package,
        place=place,
    )


def create_waiting(catalogue: Catalogue, seconds: float) -> str:
    """Said before a create that the service's request limit holds back for ``seconds``."""
    if seconds < 90:
        wait = catalogue.say(
            "dialogue.seconds", count=catalogue.number(max(5, 5 * math.ceil(seconds / 5)))
        )
    else:
        minutes = math.ceil(seconds / 60)
        wait = (
            catalogue.say("dialogue.one_minute")
            if minutes == 1
            else catalogue.say("dialogue.minutes", count=catalogue.number(minutes))
        )
    return catalogue.say("dialogue.create_waiting", wait=wait)


def change_label(catalogue: Catalogue, title: str) -> str:
    """The summary's option that changes the step titled ``title`` ("Change pickup place")."""
    return catalogue.say("dialogue.change_step", what=title.lower())
