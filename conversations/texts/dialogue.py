"""What the engine itself says, in one place, so every flow sounds the same.

Channel-independent: no slash commands or button glyphs, and where a sentence asks to choose
an option or a command it holds a ``taps`` mark, which each channel says its way ("tap Done" in
Telegram, "type done" in the console).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.partner.models import Delivery
from conversations.dialog import AnswerKind, InputKind
from conversations.outcome import Refused
from conversations.shortening import shorten
from conversations.texts.deliveries_texts import short_ref, status_label
from conversations.texts.taps import ANY_COMMAND, ANY_OPTION, tap

SERVICE_DOWN = (
    "I can't reach the delivery service right now. Please try again in a moment; "
    "nothing you told me is lost."
)
CLOSED = "This conversation has ended. Start a new order whenever you like."
RESTARTED = (
    "Sorry: this order form changed since your last message, so we have to start again "
    "from the beginning."
)
FLOW_GONE = "Sorry: this kind of order is no longer available here."
NO_WAREHOUSE_NOW = (
    "Sorry: the business no longer takes packages at a warehouse, so a rider will pick yours "
    "up instead. Everything else you told me is kept."
)
STALE = "That answer was for an earlier question, so I left it out. Here is where we are:"
CANCELLED = "Cancelled. Nothing was ordered."
CANCEL_QUESTION = "Cancel this order? The answers you gave so far will be lost."
CANCEL_YES = "Yes, cancel it"
CANCEL_NO = "No, go on"
NEW_ORDER_QUESTION = "Start a new order? The answers you gave for this one will be lost."
NEW_ORDER_YES = "Yes, start a new one"
FIRST_QUESTION = "This is the first question; there is nothing to go back to."
EDIT_FROM_SUMMARY = (
    "You can change any answer from the summary at the end. To go to the previous question, "
    f"{tap('!back')}."
)
STUCK = f"Having trouble? {tap('!help', capital=True)} for tips, or {tap('!cancel')} to stop."
NO_SKIP = "This one is needed; it can't be skipped."
PICK_AN_OPTION = f"Please {tap(ANY_OPTION)}."
COMMANDS = "You can always say Back (previous question), Cancel (stop) or Help."

_VERBS: dict[AnswerKind, str] = {
    "choice": tap(ANY_OPTION),
    "text": "type your answer",
    "contact": "share a contact",
    "location": "share a location",
    "photos": "send photos",
    "command": tap(ANY_COMMAND),
}

_HELP: dict[InputKind, str] = {
    "choice": f"{tap(ANY_OPTION, capital=True)}, or type its name.",
    "text": "Type your answer as a message.",
    "phone": "Type a phone number, or share a contact.",
    "contact": "Type the name, or share a contact to give the name and phone at once.",
    "place": (
        "Share a location pin, or type the street address: I will look it up and show you "
        "what I found before using it. Saved places, when there are any, are the options."
    ),
    "photos": "Send the photos, one by one or together: sending them is the answer.",
    "confirm": "Check the details. Confirm to send the order, or pick what to change.",
}


def wrong_kind(accepts: Iterable[AnswerKind]) -> str:
    verbs = [_VERBS[kind] for kind in accepts]
    if not verbs:
        return PICK_AN_OPTION
    return "Please " + ", or ".join(verbs) + "."


def help_for(kind: InputKind) -> str:
    return _HELP[kind]


# --- a typed address the geocoder looked up ------------------------------------------------


def _names_an_area(typed: str) -> bool:
    """Whether ``typed`` already names an area after the street ("Allen Avenue, Ikeja")."""
    return "," in typed.strip(" ,")


def address_not_found(typed: str) -> str:
    """Nothing was found for ``typed``: what to add, without asking again for what it has."""
    if _names_an_area(typed):
        return (
            f"I couldn't find “{typed}”. Please check the spelling or name a landmark near it, "
            "or share a location pin."
        )
    return f"I couldn't find “{typed}”. Try adding the area or city, or share a location pin."


def address_again(typed: str) -> str:
    """None of the places found for ``typed`` was right: how to type it again."""
    if _names_an_area(typed):
        return (
            "Okay. Type the address again with more detail (a house number or a landmark near "
            "it), or share a location pin."
        )
    return "Okay. Type the address again with the area or city, or share a location pin."


KEEP_LABEL_LENGTH = 40  # of the answer, after "Keep: "


def keep_label(current: str) -> str:
    return f"Keep: {shorten(current, KEEP_LABEL_LENGTH)}"


# --- a returning customer's last places -----------------------------------------------------

LAST_PLACE_LENGTH = 60  # of the address, after "Same as last time: "


def same_place_as_last(address: str) -> str:
    """The option that gives the customer's last place of this kind again."""
    return f"Same as last time: {shorten(address, LAST_PLACE_LENGTH)}"


def no_longer_offered(title: str) -> str:
    return f"{title}: your choice is no longer offered by the business; please choose again."


def can_change(titles: list[str]) -> str:
    return "You can change: " + ", ".join(titles) + "."


# --- places outside the business's area --------------------------------------------------------

REFUSED_PLACE = (
    "The delivery service said that place is outside the area this business covers. "
    "Please choose another place."
)


def outside_area(radius_km: float) -> str:
    """A place farther than the business could cover (see ``conversations.service_area``)."""
    return (
        f"That place is outside the area this business covers (about {radius_km:g} km around "
        "its base). Please choose a place nearer, or share another pin."
    )


# --- "repeat my last delivery" ---------------------------------------------------------------

NOTHING_TO_REPEAT = "You haven't ordered anything here yet, so there is nothing to repeat."
CANNOT_REPEAT = (
    "Sorry: your last order was made with an order form that has changed since, so it can't be "
    "filled in again. Here is a new order instead."
)


def no_such_flow(name: str, names: Iterable[str]) -> str:
    return f"There is no order form called {name}. These are: {', '.join(names)}."


def repeating(label: str) -> str:
    return (
        f"Your last order ({label}) is filled in again: I'll ask only what can't be reused, "
        "and you can change anything at the summary."
    )


def not_reused(titles: Iterable[str]) -> str:
    return f"{', '.join(titles)}: not kept between orders, so you'll be asked again."


# --- a business with no payment method switched on -------------------------------------------

TRY_AGAIN = "Try again"
NO_PAYMENT_METHOD_ALERT = (
    "Customers can't order: no payment method is switched on for deliveries. Turn on cash on "
    "delivery or online checkout in the dashboard (Settings, Delivery: payment collection, "
    "paymentCollection in the capabilities). Orders in progress are kept and go on once one "
    "is on."
)


def order_held(*, kept: bool) -> str:
    """The one sentence a customer reads while the business has no payment method on."""
    if kept:
        return (
            "Sorry, this business can't take payment for deliveries right now, so your order "
            "is kept here until it can: come back later and tap Try again to carry on."
        )
    return (
        "Sorry, this business can't take payment for deliveries right now, so orders can't "
        "be placed yet: please come back later and tap Try again."
    )


# --- a refused create ------------------------------------------------------------------------

IMAGE_HOST_ALERT = (
    "The delivery service refused the package photos (image_host_rejected). The bot's media "
    "host must be on the image-host allowlist in the dashboard (Settings, API & Webhooks), "
    "and the photos must be reachable over https."
)


def other_refusal_alert(refused: Refused) -> str:
    said = f": {refused.message}" if refused.message else "."
    return (
        "The delivery service refused an order for a reason only the business can fix "
        f"(the API key, its scopes or billing){said}"
    )


def operator_alert(refused: Refused) -> str | None:
    """What the operators are told about ``refused``, when its decision says to tell them."""
    if not refused.alert_operators:
        return None
    return IMAGE_HOST_ALERT if refused.reason == "image_host" else other_refusal_alert(refused)


def refusal(refused: Refused, titles: Sequence[str] = ()) -> str:
    """What the customer is told first after ``refused``; ``titles`` name the answers asked
    again, as the flow's steps call them.

    Always the bot's own words: the service's ``message`` and ``field_errors`` (developer
    text such as "Re-fetch capabilities.", request field names, enum values) are for the log
    and the operators, never for the chat.
    """
    named = f": {', '.join(titles)}" if titles else ""
    match refused.reason:
        case "validation" if titles:
            return (
                f"The delivery service could not accept some of your answers{named}. "
                "Please give them again."
            )
        case "validation":
            return (
                "The delivery service could not accept this order as it is. Nothing was "
                "created; please check the details and send it again."
            )
        case "service_disabled":
            return "Sorry, the business no longer offers this service here."
        case "payment":
            return "That payment method can't be used for this order any more. Please choose again."
        case "coverage":
            return (
                f"The delivery service does not cover one of these places{named}. "
                "Please give the places again."
            )
        case "image_host":
            return (
                "The delivery service could not accept the photos. This is a setting the "
                "business must fix; they have been told. Your order is kept here."
            )
        case "unavailable":
            return CHECKING
        case "duplicate_held":
            return DUPLICATE_HELD
        case "rate_limited":
            wait = refused.retry_after
            when = f"about {_seconds(wait)}" if wait else "a moment"
            return f"The delivery service is busy. Please wait {when}, then send it again."
        case _:
            return (
                "The delivery service refused this order for a reason only the business can "
                "fix; they have been told. Nothing was created."
            )


def _seconds(wait: float) -> str:
    whole = max(1, round(wait))
    return "1 second" if whole == 1 else f"{whole} seconds"


# --- a created delivery ----------------------------------------------------------------------

_CREATED_STATUS = {
    "awaiting_price": (
        "Your request is in. The team will set the delivery fee and approve it; "
        "you will get a message as soon as it is priced."
    ),
    "pending": "Your delivery is booked and waiting for a rider to be assigned.",
    "picked_up": "The rider has already picked up the package.",
    "in_transit": "The package is on its way.",
    "delivered": "The package has been delivered.",
    "cancelled": "This delivery was cancelled.",
}


def created(delivery: Delivery, then: Sequence[str] = ()) -> list[str]:
    """Plain sentences for a freshly created delivery: status, reference, what happens next
    (``then``: the fee, see ``money_texts.after_create``) and the tracking link.

    The tracking link is given here, once: the relay does not repeat it to this chat.
    """
    lines = [f"Done! Your order reference is {short_ref(delivery.id)}."]
    if delivery.status == "matched":
        rider = delivery.rider.name if delivery.rider and delivery.rider.name else None
        who = f"{rider} has" if rider else "A rider has"
        lines.append(f"{who} already been assigned and will head to the pickup soon.")
    else:
        lines.append(
            _CREATED_STATUS.get(delivery.status, f"Status: {status_label(delivery.status)}.")
        )
    lines += then
    if delivery.tracking_url:
        lines.append(f"Track it here: {delivery.tracking_url}")
    return lines


# --- an order whose answer was lost ----------------------------------------------------------

CHECKING = (
    "I sent your order, but the delivery service's answer did not reach me, so I can't tell yet "
    "whether it went through. I'm checking and will tell you here as soon as I know; please "
    "don't order it again meanwhile."
)
DUPLICATE_HELD = (
    "You sent an order with these same details a little while ago and I'm still checking "
    "whether it went through, so it may already exist. Wait for my message about it, or send "
    "this one again to place a second order."
)
NOT_PLACED = (
    "About the order I was checking: the delivery service did not accept it, so it was not "
    "placed and nothing was created. You can start a new order whenever you like."
)
STILL_UNKNOWN = (
    "I still can't tell whether your order went through: the delivery service has not given a "
    "clear answer. The business has been told and will check it for you; please don't order it "
    "again until they reply."
)


def went_through(delivery: Delivery) -> str:
    """What the customer is told once the order whose answer was lost is found to exist."""
    return "\n".join(["Good news: the order I was checking went through.", *created(delivery)])


def still_unknown_alert(key: str, chat_id: int, place: str, package: str, attempts: int) -> str:
    """What the operators are told when a lost answer could not be settled by retrying."""
    return (
        f"An order could not be confirmed after {attempts} attempts: the delivery service gave "
        f"no definite answer to its create (idempotency key {key}, chat {chat_id}, {package}, "
        f"{place}). Check the dashboard for it and tell the customer; the bot stopped retrying."
    )
