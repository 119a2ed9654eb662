"""Words a customer types instead of a command, in every shipped language.

A keyword (``back``, ``new``, ``status`` ...) has its words in the catalogue under
``keyword.<name>``, several separated by ``|``: the first is the one shown to the customer
(``shown``), and every word of every shipped language is understood (``keyword_named``), so a
French customer may type "statut" or "status", and an English one who types "annuler" is
understood too. Words are compared as people type them (``option_names.plain``: case, accents,
a trailing "?" ignored), so "Où est mon colis ?" is the question "où est mon colis".

``after_order`` reads what a customer types once their order has ended: their delivery's
status, cancelling it, or where their parcel is, instead of "this conversation has ended".

``data_request`` reads the customer's own requests about their data, "my data" and "forget me"
(``keyword.my_data``, ``keyword.forget_me``): phrases of two words, so the whole message is
compared, never its first word alone, and a message that merely starts so ("my data is wrong")
is no request. They are not among ``KEYWORDS``: a channel that reads a message's first word as
a command never meets them there.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from conversations.engine.option_names import plain
from conversations.texts.catalogue import SHIPPED, Catalogue

KEYWORDS: Final = (
    "back",
    "cancel",
    "help",
    "done",
    "skip",
    "new",
    "repeat",
    "status",
    "deliveries",
    "cancel_delivery",
    "human",
    "edit",
    "location",
    "where_is_my_parcel",
)
# What a chat app takes as a command name (Telegram: ``/statut``, never ``/répéter``).
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
AfterOrder = Literal["status", "cancel", "where_is_my_parcel"]
DataRequest = Literal["my_data", "forget_me"]
DATA_REQUESTS: Final[tuple[DataRequest, ...]] = ("my_data", "forget_me")
_AFTER_ORDER: Final[tuple[AfterOrder, ...]] = ("status", "cancel", "where_is_my_parcel")


def _words(message: str) -> list[str]:
    return [word.strip() for word in message.split("|") if word.strip()]


def shown(catalogue: Catalogue, name: str) -> str:
    """The word of keyword ``name`` shown in the language of the turn ("statut")."""
    return _words(catalogue.say(f"keyword.{name}"))[0]


def command_word(catalogue: Catalogue, name: str) -> str:
    """Keyword ``name`` as a command in the language of the turn: the word shown, without
    accents ("repeter"), or ``name`` itself when that is no command name."""
    word = plain(shown(catalogue, name)).replace(" ", "_")
    return word if _COMMAND.fullmatch(word) else name


def command_words(catalogue: Catalogue, name: str) -> list[str]:
    """Every command name keyword ``name`` has in the shipped languages (``name`` first)."""
    found = [word.replace(" ", "_") for word in sorted(words_of(catalogue, name))]
    return list(dict.fromkeys([name, *(word for word in found if _COMMAND.fullmatch(word))]))


def said_command(catalogue: Catalogue, command: str) -> str:
    """A channel's way to type keyword ``command`` ("/status", "status") in the language of
    the turn ("/statut", "statut"); anything else as it is."""
    bare = command.removeprefix("/")
    if bare not in KEYWORDS:
        return command
    return command.removesuffix(bare) + command_word(catalogue, bare)


def words_of(catalogue: Catalogue, name: str) -> frozenset[str]:
    """Every word of keyword ``name`` in every shipped language, as compared (``plain``)."""
    key = f"keyword.{name}"
    known = catalogue.derived.get(key)  # derived once per catalogue: asked for each typed text
    if known is None:
        messages = [*(shipped.get(key, "") for shipped in SHIPPED.values())]
        messages.append(catalogue.messages.get(key, ""))  # the business's own words, if any
        known = frozenset(plain(word) for message in messages for word in _words(message))
        catalogue.derived[key] = known
    return known


def keyword_named(
    catalogue: Catalogue, typed: str, among: tuple[str, ...] = KEYWORDS
) -> str | None:
    """The keyword ``typed`` is a word of (a leading "/" is fine), or None."""
    said = plain(typed.removeprefix("/"))
    if not said:
        return None
    return next((name for name in among if said in words_of(catalogue, name)), None)


def after_order(catalogue: Catalogue, typed: str) -> AfterOrder | None:
    """What ``typed`` asks once the order has ended: its status, to cancel it, or where the
    parcel is; None for anything else (the conversation has ended)."""
    found = keyword_named(catalogue, typed, _AFTER_ORDER)
    return next((name for name in _AFTER_ORDER if name == found), None)


def data_request(catalogue: Catalogue, typed: str) -> DataRequest | None:
    """The request about their data the whole of ``typed`` makes ("my data", "/forgetme",
    "Oubliez-moi !"), or None."""
    found = keyword_named(catalogue, typed.strip(), DATA_REQUESTS)
    return next((name for name in DATA_REQUESTS if name == found), None)
