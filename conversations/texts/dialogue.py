"""What the engine itself says, in one place, so every flow sounds the same.

Adapter-neutral: no slash commands or button glyphs; "tap" covers a button and a typed option.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.partner.models import Delivery
from conversations.dialog import AnswerKind, InputKind
from conversations.outcome import Refused
from conversations.shortening import shorten

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
STALE = "That answer was for an earlier question, so I left it out. Here is where we are:"
CANCELLED = "Cancelled. Nothing was ordered."
CANCEL_QUESTION = "Cancel this order? The answers you gave so far will be lost."
CANCEL_YES = "Yes, cancel it"
CANCEL_NO = "No, go on"
FIRST_QUESTION = "This is the first question; there is nothing to go back to."
EDIT_FROM_SUMMARY = (
    "You can change any answer from the summary at the end. To go to the previous question, "
    "tap Back."
)
STUCK = "Having trouble? Tap Help for tips, or Cancel to stop."
NO_SKIP = "This one is needed; it can't be skipped."
PICK_AN_OPTION = "Please tap one of the options."
COMMANDS = "You can always say Back (previous question), Cancel (stop) or Help."

_VERBS: dict[AnswerKind, str] = {
    "choice": "tap one of the options",
    "text": "type your answer",
    "contact": "share a contact",
    "location": "share a location",
    "photos": "send photos",
    "command": "tap a button",
}

_HELP: dict[InputKind, str] = {
    "choice": "Tap one of the options, or type its name.",
    "text": "Type your answer as a message.",
    "phone": "Type a phone number, or share a contact.",
    "contact": "Type the name, or share a contact to give the name and phone at once.",
    "place": (
        "Share a location pin, or type the street address: I will look it up and show you "
        "what I found before using it. Saved places, when there are any, are the options."
    ),
    "photos": "Send photos one by one or together, then tap Done.",
    "confirm": "Check the details. Confirm to send the order, or pick what to change.",
}


def wrong_kind(accepts: Iterable[AnswerKind]) -> str:
    verbs = [_VERBS[kind] for kind in accepts]
    if not verbs:
        return PICK_AN_OPTION
    return "Please " + ", or ".join(verbs) + "."


def help_for(kind: InputKind) -> str:
    return _HELP[kind]


KEEP_LABEL_LENGTH = 40  # of the answer, after "Keep: "


def keep_label(current: str) -> str:
    return f"Keep: {shorten(current, KEEP_LABEL_LENGTH)}"


def no_longer_offered(title: str) -> str:
    return f"{title}: your choice is no longer offered by the business; please choose again."


def can_change(titles: list[str]) -> str:
    return "You can change: " + ", ".join(titles) + "."


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


def refusal(refused: Refused) -> str:
    """What the customer is told first after ``refused``."""
    said = f" ({refused.message})" if refused.message else ""
    match refused.reason:
        case "validation" if refused.field_errors:
            return "The delivery service could not accept some details. Please fix them:"
        case "validation":
            colon = f": {refused.message}" if refused.message else "."
            return f"The delivery service could not accept this order{colon}"
        case "service_disabled":
            return "Sorry, the business no longer offers this service here."
        case "payment":
            return "That payment method can't be used for this order any more. Please choose again."
        case "coverage":
            return (
                f"The delivery service does not cover one of these places{said}. "
                "Please give the places again."
            )
        case "image_host":
            return (
                "The delivery service could not accept the photos. This is a setting the "
                "business must fix; they have been told. Your order is kept here."
            )
        case "unavailable":
            return (
                "The delivery service is not answering right now. Your order is saved: "
                "please try again in a little while."
            )
        case "rate_limited":
            wait = refused.retry_after
            when = f"about {_seconds(wait)}" if wait else "a moment"
            return f"The delivery service is busy. Please wait {when}, then send it again."
        case _:
            return f"The delivery service refused this order{said}. Nothing was created."


def field_problem(title: str, text: str) -> str:
    return f"• {title}: {text}"


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


def created(delivery: Delivery) -> list[str]:
    """Plain sentences for a freshly created delivery: status, reference and tracking link."""
    lines = [f"Done! Your order reference is {delivery.id}."]
    if delivery.status == "matched":
        rider = delivery.rider.name if delivery.rider and delivery.rider.name else None
        who = f"{rider} has" if rider else "A rider has"
        lines.append(f"{who} already been assigned and will head to the pickup soon.")
    else:
        lines.append(_CREATED_STATUS.get(delivery.status, f"Status: {delivery.status}."))
    if delivery.tracking_url:
        lines.append(f"Track it here: {delivery.tracking_url}")
    return lines
