"""What the engine itself says, in one place, so every flow sounds the same.

Adapter-neutral: no slash commands or button glyphs; "tap" covers a button and a typed option.
"""

from __future__ import annotations

from collections.abc import Iterable

from conversations.dialog import AnswerKind, InputKind

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


def keep_label(current: str) -> str:
    short = current if len(current) <= 40 else current[:39] + "…"
    return f"Keep: {short}"


def no_longer_offered(title: str) -> str:
    return f"{title}: your choice is no longer offered by the business; please choose again."


def can_change(titles: list[str]) -> str:
    return "You can change: " + ", ".join(titles) + "."
