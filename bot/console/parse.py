"""What the customer typed in the terminal, as a ``conversations`` answer.

==============================  =======================================================
typed                           becomes
==============================  =======================================================
``2``                           the second option of the open question (unless the question
                                takes numbers as answers: a room "12" is text); ``0`` keeps
                                the answer the question already has ("Keep ...")
(an empty line)                 the pre-selected option, when there is one
``back`` ``cancel`` ``help``    navigation (a leading ``/`` is fine)
``done`` ``skip``               finish the photos / skip an optional question
``edit <step>``                 from the summary: change that answer
``contact <phone> [name]``      a shared contact card (phone without spaces)
``location <lat> <lng> [addr]`` a shared map pin (``location 6.52,3.38`` works too)
file paths (photo questions)    package photos, checked and hosted by the bot
``new``                         start a new order
``repeat``                      order the same as last time (the last order replayed into its flow)
``status [ref]``                one of the customer's deliveries (no ref: the latest)
``deliveries [page]``           the customer's deliveries, newest first, a page at a time
``cancel_delivery <ref> <why>`` cancel one of them, with a reason of 3 to 500 characters
``quote keep|cancel <ref>``     answer the question about a fee set after the order
``/start otp_<token>``          open a drop-off code link (the demo prints one)
anything else                   text
==============================  =======================================================

Every keyword above has its words in each shipped language (``conversations.keywords``):
``retour``, ``annuler``, ``aide``, ``nouveau``, ``répéter``, ``statut``, ``modifier``,
``position`` ... are understood whatever language the customer speaks.

``status``, ``deliveries`` and ``cancel_delivery`` (a leading ``/`` is fine) are the customer
desk's (``bot.ordering.CustomerDesk``), answered whatever question is open. Once the order has
ended (no question open), ``cancel`` and ``status`` (``annuler``, ``statut``) and "where is my
parcel?" ("où est mon colis ?") are the desk's too: how to cancel, and the latest delivery.

Options and commands carry the open question's step and version, like a tapped button, so an
answer to a question that is no longer open is refused kindly; typed text answers whatever is
being asked now.
"""

from __future__ import annotations

import itertools
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from bot.ordering.receiver_handoff import handoff_token
from bot.ordering.typed_requests import (
    AnswerQuote,
    AskPerson,
    DeskRequest,
    NewOrder,
    RepeatLast,
    after_order_request,
    desk_request,
)
from bot.relay import quote_question
from conversations import (
    EDIT_PREFIX,
    KEEP,
    ChoiceAnswer,
    CommandAnswer,
    CommandName,
    ContactAnswer,
    LocationAnswer,
    Option,
    Prompt,
    TextAnswer,
)
from conversations.dialog import Answer
from conversations.engine.option_names import option_named
from conversations.keywords import keyword_named
from conversations.texts.catalogue import Catalogue

COMMANDS: dict[str, CommandName] = {
    "back": "back",
    "cancel": "cancel",
    "help": "help",
    "done": "done",
    "skip": "skip",
}
_FLOW_NAME = re.compile(r"[a-z0-9_]{1,64}")
START_WORDS = frozenset({"start", "/start"})
QUOTE_WORDS = frozenset({"quote", "/quote"})
_NUMBER = r"[-+]?\d+(?:\.\d+)?"
_LOCATION = re.compile(rf"^(?P<lat>{_NUMBER})\s*[,\s]\s*(?P<lng>{_NUMBER})(?:\s+(?P<address>.*))?$")


@dataclass(frozen=True)
class PhotoFiles:
    """Local files to send as photos (checked and hosted before they reach the engine)."""

    paths: tuple[Path, ...]


@dataclass(frozen=True)
class Unclear:
    """Input the console could not read; ``message`` tells the customer how to type it."""

    message: str


@dataclass(frozen=True)
class OpenHandoff:
    """``/start otp_<token>``: a drop-off code link, opened."""

    token: str


Parsed = (
    Answer
    | PhotoFiles
    | Unclear
    | NewOrder
    | RepeatLast
    | DeskRequest
    | OpenHandoff
    | AskPerson
    | AnswerQuote
)


def parse_line(
    catalogue: Catalogue, line: str, prompt: Prompt | None, *, base_dir: Path | None = None
) -> Parsed | None:
    """The meaning of one typed line, given the open question (None: nothing to do).

    ``catalogue`` is the typist's: what a line that cannot be read gets (``Unclear``) is said
    from it, and its words for "change" name a step to edit. Relative photo paths are taken
    from ``base_dir`` (default: the working directory).
    """
    text = line.strip()
    stamp = {"step": prompt.step, "version": prompt.version} if prompt else {}
    if not text:
        if prompt is not None and prompt.default is not None:
            return ChoiceAnswer(option=prompt.default, **stamp)
        return None
    word, _, rest = text.partition(" ")
    word = word.casefold()
    rest = rest.strip()
    token = handoff_token(rest) if word in START_WORDS and " " not in rest else None
    if token is not None:
        return OpenHandoff(token)
    quote = quote_question.parse(text) if word in QUOTE_WORDS else None
    if quote is not None:
        return AnswerQuote(*quote)
    # A keyword in any shipped language ("nouveau" or "new"; ``conversations.keywords``).
    keyword = keyword_named(catalogue, word)
    if (keyword == "new" or word == "/start") and (not rest or _FLOW_NAME.fullmatch(rest)):
        return NewOrder(rest or None)
    if keyword == "repeat" and not rest:
        return RepeatLast()
    if keyword == "human" and not rest:
        return AskPerson()
    if prompt is None:
        ended = after_order_request(
            catalogue, text
        )  # "annuler", "où est mon colis ?" once the order ended
        if ended is not None:
            return ended
    desk = desk_request(keyword or word.removeprefix("/"), rest)
    if desk is not None:
        return desk
    command = COMMANDS.get(keyword or "")
    if command is not None and not rest:
        return CommandAnswer(name=command, **stamp)
    if keyword == "edit" and rest:
        return _edit(catalogue, rest, prompt)
    if word == "contact" and rest:
        return _contact(catalogue, rest)
    if keyword == "location" and rest:
        return _location(catalogue, rest)
    if prompt is not None and text.isdigit() and prompt.options and not prompt.numbers_are_values:
        by_number = dict(numbered(prompt))
        if int(text) in by_number:
            return ChoiceAnswer(option=by_number[int(text)].id, **stamp)
    if prompt is not None and "photos" in prompt.accepts:
        return _photo_files(catalogue, text, base_dir or Path.cwd())
    return TextAnswer(text=text)


def numbered(prompt: Prompt) -> list[tuple[int, Option]]:
    """The options as the console numbers them: "Keep ..." is 0, so the others keep the
    numbers they have when the question is first asked (a number typed means the option shown
    with it, whether or not there is an answer to keep)."""
    others = (option for option in prompt.options if option.id != KEEP)
    numbers = dict(zip((o.id for o in others), itertools.count(1), strict=False))
    return [(numbers.get(option.id, 0), option) for option in prompt.options]


def _edit(catalogue: Catalogue, target: str, prompt: Prompt | None) -> Parsed:
    stamp = {"step": prompt.step, "version": prompt.version} if prompt else {}
    # Every field the summary can change, its groups' fields included (``Prompt.changes``).
    fields = [*prompt.changes, *prompt.options] if prompt else []
    named = next((o for o in fields if o.id == f"{EDIT_PREFIX}{target}"), None)
    named = named or option_named(f"{target}", fields, prefixes=False)
    named = named or option_named(
        catalogue.say("dialogue.change_step", what=target), fields, prefixes=False
    )
    if named is not None and named.id.startswith(EDIT_PREFIX):
        return ChoiceAnswer(option=named.id, **stamp)
    return CommandAnswer(name="edit", target=target, **stamp)


def _contact(catalogue: Catalogue, rest: str) -> Parsed:
    phone, _, name = rest.partition(" ")
    first, _, last = name.strip().partition(" ")
    if not any(ch.isdigit() for ch in phone):
        return Unclear(catalogue.say("console.contact_usage"))
    return ContactAnswer(phone=phone, first_name=first, last_name=last.strip())


def _location(catalogue: Catalogue, rest: str) -> Parsed:
    found = _LOCATION.match(rest)
    if found is None:
        return Unclear(catalogue.say("console.location_usage"))
    try:
        lat, lng = float(found["lat"]), float(found["lng"])
    except ValueError:
        return Unclear(catalogue.say("console.location_usage"))
    return LocationAnswer(lat=lat, lng=lng, address=(found["address"] or "").strip() or None)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, say: no such file either way
        return False


def _photo_files(catalogue: Catalogue, text: str, base_dir: Path) -> Parsed:
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    paths = [Path(word).expanduser() for word in words]
    paths = [path if path.is_absolute() else base_dir / path for path in paths]
    missing = [word for word, path in zip(words, paths, strict=True) if not _is_file(path)]
    if missing:
        return Unclear(catalogue.say("console.no_such_file", files=", ".join(missing)))
    return PhotoFiles(tuple(paths))
