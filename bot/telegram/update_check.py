"""The door's check of an incoming Telegram update: what the bot reads has the type and the
range Telegram documents for it.

::

    flaw = update_flaw(json.loads(body))
    if flaw is not None:
        log.warning("update dropped: %s", flaw)   # "update 7: message.chat.id is not ..."

Telegram itself never sends an update that fails here; one that does was forged by someone
holding the secret token, or mangled on the way. It is dropped before it reaches a handler:
an integer column would overflow, a pydantic answer would refuse a number as text, a string
with a lone surrogate could not be stored. The flaw names the field's path and the rule it
broke, never the value (a customer's message may be in it).

Only types and ranges are checked here. What a step can answer stays with the step, which
tells the customer why: a text too long or with half an emoji in it (unless it has entities,
which PTB could not cut from it), a pin off the map. Keys
the bot never reads are left to PTB's parse (``parsed_update``: at the door when polling,
``checked_update``; when the update is handled in webhook mode, ``received_update``), and a
missing message or sender to the gatekeeper (``application.malformed``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from telegram import Bot, Update

INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1
MAX_CALLBACK_DATA_BYTES: Final = 64  # Telegram's own limit on a button's callback_data

# A rule gets a value and says what is wrong with it, or None: the path from the value to
# the field that is wrong and the rule it broke (".chat.id is not an integer"; " is not an
# integer" for the value itself). The path is written only for a flaw, as updates have none.
Rule = Callable[[object], str | None]


@dataclass(frozen=True)
class Flaw:
    """Why an update was dropped: its id (None when unreadable) and the broken rule."""

    update_id: int | None
    reason: str

    def __str__(self) -> str:
        if self.update_id is None:
            return self.reason
        return f"update {self.update_id}: {self.reason}"


def integer(value: object) -> str | None:
    """An id or count: a JSON integer (not a bool, not a float) within 64-bit signed range."""
    if type(value) is not int:
        return " is not an integer"
    if not INT64_MIN <= value <= INT64_MAX:
        return " is outside the 64-bit integer range"
    return None


def number(value: object) -> str | None:
    """A coordinate or accuracy: a JSON number (an integer one within 64 bits, so it is a
    float too). Its range is the step's to judge (it answers a pin off the map)."""
    if type(value) is int:
        return integer(value)
    if type(value) is not float:
        return " is not a number"
    return None


def boolean(value: object) -> str | None:
    if type(value) is not bool:
        return " is not true or false"
    return None


def string(value: object) -> str | None:
    """A name, id or label: a string that is valid Unicode (no lone surrogate)."""
    if not isinstance(value, str):
        return " is not a string"
    try:
        value.encode()
    except UnicodeEncodeError:
        return " has a lone surrogate"
    return None


def text(value: object) -> str | None:
    """What a customer typed: any string (the steps clean half an emoji and answer lengths)."""
    if not isinstance(value, str):
        return " is not a string"
    return None


def callback_data(value: object) -> str | None:
    """A button's data: a string of at most 64 bytes, as Telegram allows when it is made."""
    flaw = string(value)
    if flaw is None and isinstance(value, str) and len(value.encode()) > MAX_CALLBACK_DATA_BYTES:
        return f" is over {MAX_CALLBACK_DATA_BYTES} bytes"
    return flaw


def shape(fields: Mapping[str, Rule], *, required: tuple[str, ...] = ()) -> Rule:
    """A JSON object whose listed fields, when present, follow their rules."""
    checked = tuple(fields.items())

    def check(value: object) -> str | None:
        if not isinstance(value, dict):
            return " is not an object"
        for name in required:
            if name not in value:
                return f".{name} is missing"
        for name, rule in checked:
            if name in value:
                flaw = rule(value[name])
                if flaw is not None:
                    return f".{name}{flaw}"
        return None

    return check


def all_of(*rules: Rule) -> Rule:
    """The first flaw any of ``rules`` finds."""

    def check(value: object) -> str | None:
        for rule in rules:
            flaw = rule(value)
            if flaw is not None:
                return flaw
        return None

    return check


def entities_fit(text_key: str, entities_key: str) -> Rule:
    """Entities count the text in UTF-16 units, so a text that has them must have no lone
    surrogate: PTB could not cut a command out of it. (Run after the object's ``shape``.)"""

    def check(value: object) -> str | None:
        if not isinstance(value, dict) or not value.get(entities_key) or text_key not in value:
            return None
        if string(value[text_key]) is not None:
            return f".{text_key} has a lone surrogate beside {entities_key}"
        return None

    return check


def list_of(rule: Rule) -> Rule:
    """A JSON array whose items follow ``rule``."""

    def check(value: object) -> str | None:
        if not isinstance(value, list):
            return " is not a list"
        for index, item in enumerate(value):
            flaw = rule(item)
            if flaw is not None:
                return f"[{index}]{flaw}"
        return None

    return check


# What the handlers read, as the Bot API documents it.
USER: Final = shape(
    {
        "id": integer,
        "is_bot": boolean,
        "first_name": string,
        "last_name": string,
        "username": string,
        "language_code": string,
    }
)
CHAT: Final = shape(
    {
        "id": integer,
        "type": string,
        "title": string,
        "username": string,
        "first_name": string,
        "last_name": string,
    }
)
ENTITY: Final = shape({"type": string, "offset": integer, "length": integer})
FILE: Final = {"file_id": string, "file_unique_id": string, "file_size": integer}
PHOTO_SIZE: Final = shape({**FILE, "width": integer, "height": integer})
DOCUMENT: Final = shape({**FILE, "file_name": string, "mime_type": string})
LOCATION: Final = shape({"latitude": number, "longitude": number, "horizontal_accuracy": number})
VENUE: Final = shape({"location": LOCATION, "title": string, "address": string})
CONTACT: Final = shape(
    {"phone_number": string, "first_name": string, "last_name": string, "user_id": integer}
)
# What the "Pick on the map" page sends back (``bot.webapp.picks`` reads ``data``).
WEB_APP_DATA: Final = shape({"data": string, "button_text": string})
MESSAGE: Final = all_of(
    shape(
        {
            "message_id": integer,
            "date": integer,
            "chat": CHAT,
            "from": USER,
            "text": text,
            "caption": text,
            "entities": list_of(ENTITY),
            "caption_entities": list_of(ENTITY),
            "photo": list_of(PHOTO_SIZE),
            "document": DOCUMENT,
            "location": LOCATION,
            "venue": VENUE,
            "contact": CONTACT,
            "web_app_data": WEB_APP_DATA,
            "media_group_id": string,
        }
    ),
    entities_fit("text", "entities"),
    entities_fit("caption", "caption_entities"),
)
CALLBACK_QUERY: Final = shape(
    {
        "id": string,
        "from": USER,
        "message": MESSAGE,
        "chat_instance": string,
        "data": callback_data,
    }
)
UPDATE: Final = shape(
    {"update_id": integer, "message": MESSAGE, "callback_query": CALLBACK_QUERY},
    required=("update_id",),
)


def update_flaw(data: object) -> Flaw | None:
    """What is wrong with the update JSON ``data``, or None when the bot can read it."""
    flaw = UPDATE(data)
    if flaw is None:
        return None
    update_id = data.get("update_id") if isinstance(data, dict) else None
    readable = update_id if isinstance(update_id, int) and integer(update_id) is None else None
    # The path starts at the update; the line already says which update it is.
    return Flaw(readable, f"update{flaw}".removeprefix("update."))


def checked_update(data: object, bot: Bot | None) -> Update | Flaw:
    """``data`` as PTB's Update, or the flaw that keeps it out (ours, or PTB's parse failing
    on a shape the bot never reads)."""
    flaw = update_flaw(data)
    if flaw is not None:
        return flaw
    assert isinstance(data, dict)  # update_flaw checked it
    return parsed_update(data, bot)


def parsed_update(data: dict[str, Any], bot: Bot | None) -> Update | Flaw:
    """PTB's Update of ``data`` (which passed ``update_flaw``), or the flaw of PTB's parse
    failing on a shape the bot never reads."""
    try:
        update = Update.de_json(data, bot)
    except Exception as error:  # PTB's parsing fails in many ways on a malformed body
        return Flaw(data["update_id"], f"PTB cannot read it ({type(error).__name__})")
    return update
