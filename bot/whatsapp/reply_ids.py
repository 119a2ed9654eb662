"""Reply ids: what a WhatsApp reply button or list row carries back, and what a tap means now.

WhatsApp gives each button and row an id of at most 256 characters, returned as it was when
the customer taps, however long after. The ids this channel makes::

    w1:o:<tag>:<version>:<index>     an option of the question (its position)
    w1:c:<tag>:<version>:<command>   a navigation command (back, skip, done ...)
    w1:p:<tag>:<version>:<page>      turn the question's list to a page (from 0)
    w1:me:<tag>:<version>            "Use my number": the customer's own WhatsApp number
    w1:k:<word>                      a menu word (new, repeat, status, deliveries, human,
                                     my_data, forget_me ...)
    pv1:y  pv1:n                     "forget me"'s question: erase, or keep

``tag`` is a short hash of the step's name within the order (its session id), and ``version``
the prompt's version, as on Telegram's buttons (``bot.telegram.callbacks``): a tap on an older
question reads back as an answer whose step or version differs from the open one, which the
engine refuses kindly, saying where the order is. Only a menu word does not depend on the
question, and neither does "forget me"'s answer: WhatsApp sends a tap from the customer's own
number, so it needs no user id (Telegram's ``pv1:y:<user id>`` does, in a group), and a tap on
an older question erases again, which finds nothing more. Anything else a tap carries is read
as the words it holds (the relay's questions use
their typed answer as the id: "quote keep 3F2A9C1E").
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Final, get_args

from conversations import Answer, ChoiceAnswer, CommandAnswer, CommandName, Prompt

NAMESPACE: Final = "w1"
_TAG_BYTES = 6  # 8 base64url characters, as Telegram's tags
_ID = re.compile(
    rf"^{NAMESPACE}:(?:(o|c|p|me):([A-Za-z0-9_-]{{8}}):([0-9]{{1,18}})(?::([a-z0-9_]{{1,32}}))?"
    rf"|k:([a-z_]{{1,32}}))$"
)
COMMANDS: Final[frozenset[str]] = frozenset(get_args(CommandName))
MENU_WORDS: Final = (
    "new",
    "repeat",
    "status",
    "deliveries",
    "cancel_delivery",
    "human",
    "my_data",
    "forget_me",
    "menu",
)
"""The words a menu row or button stands for (``MenuWord``)."""
FORGET_YES: Final = "pv1:y"
"""The reply id of "forget me"'s "erase" button."""
FORGET_NO: Final = "pv1:n"
"""The reply id of "forget me"'s "keep" button."""


@dataclass(frozen=True)
class PageTurn:
    """A tap on "More…" or "Previous": draw ``page`` of the open question's options."""

    page: int


@dataclass(frozen=True)
class OwnNumber:
    """A tap on "Use my number" of the open question."""


@dataclass(frozen=True)
class MenuWord:
    """A tap on a menu row: the word it stands for (one of ``MENU_WORDS``)."""

    word: str


@dataclass(frozen=True)
class StaleTap:
    """A tap on a page or "Use my number" of a question no longer open; ``answer`` is what the
    engine refuses as stale (and then shows where the order is)."""

    answer: Answer


@dataclass(frozen=True)
class TypedId:
    """An id this codec did not make: the words it holds, read as if typed."""

    words: str


Tapped = Answer | PageTurn | OwnNumber | MenuWord | StaleTap | TypedId


def step_tag(step: str, session_id: str | None) -> str:
    """The short, stable tag of ``step`` within the order ``session_id``."""
    digest = hashlib.blake2s(
        f"{session_id or ''}\x00{step}".encode(), digest_size=_TAG_BYTES
    ).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")


def _stamp(kind: str, prompt: Prompt, session_id: str | None) -> str:
    return f"{NAMESPACE}:{kind}:{step_tag(prompt.step, session_id)}:{prompt.version}"


def option_id(prompt: Prompt, index: int, session_id: str | None) -> str:
    """The reply id of ``prompt.options[index]``."""
    if not 0 <= index < len(prompt.options):
        raise IndexError(f"{prompt.step} has no option {index}")
    return f"{_stamp('o', prompt, session_id)}:{index}"


def command_id(prompt: Prompt, name: CommandName, session_id: str | None) -> str:
    """The reply id of the navigation command ``name`` on ``prompt``."""
    return f"{_stamp('c', prompt, session_id)}:{name}"


def page_id(prompt: Prompt, page: int, session_id: str | None) -> str:
    """The reply id that turns ``prompt``'s list to ``page``."""
    return f"{_stamp('p', prompt, session_id)}:{page}"


def own_number_id(prompt: Prompt, session_id: str | None) -> str:
    """The reply id of "Use my number" on ``prompt``."""
    return _stamp("me", prompt, session_id)


def menu_id(word: str) -> str:
    """The reply id of a menu row for ``word`` (one of ``MENU_WORDS``)."""
    if word not in MENU_WORDS:
        raise ValueError(f"{word!r} is no menu word")
    return f"{NAMESPACE}:k:{word}"


def read_tap(reply_id: str, prompt: Prompt | None, session_id: str | None) -> Tapped:
    """What a tap on ``reply_id`` means against ``prompt``, the question open now (None: none),
    in the order ``session_id``. Never raises."""
    found = _ID.fullmatch(reply_id)
    if found is None:
        return TypedId(reply_id)
    kind, tag, version_text, value, word = found.groups()
    if word is not None:
        return MenuWord(word) if word in MENU_WORDS else TypedId(reply_id)
    version = int(version_text)
    current = prompt is not None and tag == step_tag(prompt.step, session_id)
    step = prompt.step if prompt is not None and current else f"#{tag}"
    if kind == "c":
        if value not in COMMANDS:
            return TypedId(reply_id)
        return CommandAnswer(name=value, step=step, version=version)
    stale = ChoiceAnswer(option="", step=step, version=version)
    if prompt is None or not current or version != prompt.version:
        return stale if kind == "o" else StaleTap(stale)
    if kind == "me":
        return OwnNumber()
    if value is None or not value.isdigit():
        return TypedId(reply_id)
    index = int(value)
    if kind == "p":
        return PageTurn(index)
    if index >= len(prompt.options):
        return TypedId(reply_id)
    return ChoiceAnswer(option=prompt.options[index].id, step=prompt.step, version=prompt.version)
