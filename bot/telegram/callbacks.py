"""Callback data of the prompt keyboards: what a tapped inline button carries back.

Telegram gives a button at most 64 bytes of ``callback_data``, and a tap can arrive long after
the keyboard was drawn. So a button carries no option id (ids can be long), only::

    q1:<kind>:<tag>:<version>:<index>        e.g.  q1:o:Xk3vQ9_a:1c:2

``kind`` is ``o`` (an option), ``c`` (a navigation command) or ``p`` (turn to a page); ``tag``
is a short hash of the step name (and of the session, when the adapter passes its id, so a
keyboard from an earlier order is told apart); ``version`` is the prompt version and ``index``
the option's position, the command's number or the page, both in base 36.

``resolve`` reads a tap against the prompt open now. A tap on that prompt's keyboard becomes
the ``ChoiceAnswer`` / ``CommandAnswer`` it stands for, or a ``PageTurn``. A tap on any older
keyboard becomes an answer whose step or version differs from the open prompt's, so the engine
refuses it kindly ("that answer was for an earlier question") and shows where the chat is.
Anything else (garbage, another handler's data, an index past the end) is an ``UnknownButton``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Final, Literal, get_args

from conversations import Answer, ChoiceAnswer, CommandAnswer, CommandName, Prompt
from conversations.dialog import PAGE_SIZE

MAX_CALLBACK_BYTES: Final = 64  # Telegram's limit on callback_data
NAMESPACE: Final = "q1"
# For PTB's CallbackQueryHandler(pattern=...): taps meant for this codec.
PATTERN: Final = re.compile(rf"^{NAMESPACE}:")

ButtonKind = Literal["option", "command", "page"]

# Commands travel by their position here: append only, or old keyboards change meaning.
COMMANDS: Final[tuple[CommandName, ...]] = ("back", "cancel", "help", "edit", "done", "skip")
assert set(COMMANDS) == set(get_args(CommandName)), "every command needs a number"

_KIND_LETTERS: Final[dict[ButtonKind, str]] = {"option": "o", "command": "c", "page": "p"}
_LETTER_KINDS: Final = {letter: kind for kind, letter in _KIND_LETTERS.items()}
_TAG_BYTES = 6  # 8 base64url characters; a false match with the open step is 1 in 2**48
_MAX_NUMBER_DIGITS = 12  # base 36: versions up to 4.7e18, far beyond any session
_DATA = re.compile(
    rf"^{NAMESPACE}:([ocp]):([A-Za-z0-9_-]{{8}}):([0-9a-z]{{1,{_MAX_NUMBER_DIGITS}}})"
    rf":([0-9a-z]{{1,{_MAX_NUMBER_DIGITS}}})"
)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Button:
    """A decoded tap: what the button was, on which prompt (by tag and version)."""

    kind: ButtonKind
    tag: str
    version: int
    index: int


@dataclass(frozen=True)
class PageTurn:
    """A tap on a page button of the open prompt: draw ``page`` of its options instead."""

    page: int


@dataclass(frozen=True)
class UnknownButton:
    """Data this codec did not make, or that no longer points at anything.

    ``reason`` is for the log, not for the customer.
    """

    reason: str


def step_tag(step: str, session_id: str | None = None) -> str:
    """The short, stable tag of ``step`` (within ``session_id``, when given) on its buttons."""
    digest = hashlib.blake2s(
        f"{session_id or ''}\x00{step}".encode(), digest_size=_TAG_BYTES
    ).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")


def option_data(prompt: Prompt, index: int, *, session_id: str | None = None) -> str:
    """Callback data for ``prompt.options[index]``."""
    if not 0 <= index < len(prompt.options):
        raise IndexError(f"{prompt.step} has no option {index}")
    return encode(Button("option", step_tag(prompt.step, session_id), prompt.version, index))


def command_data(prompt: Prompt, name: CommandName, *, session_id: str | None = None) -> str:
    """Callback data for the navigation command ``name`` on ``prompt``."""
    index = COMMANDS.index(name)
    return encode(Button("command", step_tag(prompt.step, session_id), prompt.version, index))


def page_data(prompt: Prompt, page: int, *, session_id: str | None = None) -> str:
    """Callback data that turns ``prompt``'s options to ``page`` (counted from 0)."""
    if not 0 <= page < page_count(prompt):
        raise IndexError(f"{prompt.step} has no page {page}")
    return encode(Button("page", step_tag(prompt.step, session_id), prompt.version, page))


def page_count(prompt: Prompt) -> int:
    """How many pages ``prompt``'s options take (1 when they are not paged)."""
    if not prompt.paged:
        return 1
    return -(-len(prompt.options) // PAGE_SIZE)


def encode(button: Button) -> str:
    """The callback data of ``button``; ValueError if it cannot be carried in 64 bytes."""
    if button.version < 0 or button.index < 0:
        raise ValueError("versions and indexes are not negative")
    if not re.fullmatch(r"[A-Za-z0-9_-]{8}", button.tag):
        raise ValueError("a tag is 8 base64url characters; make it with step_tag()")
    version, index = _base36(button.version), _base36(button.index)
    if max(len(version), len(index)) > _MAX_NUMBER_DIGITS:
        raise ValueError("version or index too large for a button")
    data = f"{NAMESPACE}:{_KIND_LETTERS[button.kind]}:{button.tag}:{version}:{index}"
    assert len(data.encode()) <= MAX_CALLBACK_BYTES
    return data


def decode(data: str | None) -> Button | UnknownButton:
    """Parse callback data; never raises: anything not made by ``encode`` is UnknownButton."""
    if not data:
        return UnknownButton("no callback data")
    match = _DATA.fullmatch(data)  # not match(): "$" would let a trailing newline in
    if match is None:
        return UnknownButton("not a prompt button")
    letter, tag, version, index = match.groups()
    return Button(_LETTER_KINDS[letter], tag, int(version, 36), int(index, 36))


def resolve(
    data: str | None, prompt: Prompt | None, *, session_id: str | None = None
) -> Answer | PageTurn | UnknownButton:
    """What a tap means against ``prompt``, the question open in the chat now (None if none).

    ``session_id`` must be what the keyboard was drawn with. A tap on an older keyboard comes
    back as an answer the engine will see as stale: the open step with the tap's older version,
    or, when the step itself differs, a step name no flow uses (``#<tag>``). The option such a
    tap meant cannot be known any more (the old prompt is gone); it is left empty, which is safe
    because the engine refuses a stale answer before it reads the option.
    """
    button = decode(data)
    if isinstance(button, UnknownButton):
        return button
    current = prompt is not None and button.tag == step_tag(prompt.step, session_id)
    step = prompt.step if prompt is not None and current else f"#{button.tag}"
    if button.kind == "command":
        if button.index >= len(COMMANDS):
            return UnknownButton("no such command")
        return CommandAnswer(name=COMMANDS[button.index], step=step, version=button.version)
    stale = ChoiceAnswer(option="", step=step, version=button.version)
    if prompt is None or not current or button.version != prompt.version:
        return stale
    if button.kind == "page":
        if button.index >= page_count(prompt):
            return UnknownButton("no such page")
        return PageTurn(button.index)
    if button.index >= len(prompt.options):
        return UnknownButton("no such option")
    option = prompt.options[button.index].id
    return ChoiceAnswer(option=option, step=prompt.step, version=prompt.version)


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _DIGITS[digit] + digits
        if number == 0:
            return digits
