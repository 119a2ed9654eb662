"""The process's catalogue and the turn's language, for the bot code not yet given its own.

A stage of moving texts out of process-wide state (issue 35): ``conversations`` takes a
``Catalogue`` passed by its caller and keeps none; the bot's channels, desks and workers still
reach the business's ``Texts`` here (installed by ``build_core``) and the turn's catalogue in
a ``ContextVar`` entered by each entry point (``speaking_language``). Each caller moved to a
catalogue it is given stops importing this module; the module goes with the last one.

Moved so far: the customer turn's path (``bot.ordering``: the turn's catalogue is picked once
by ``bot.ordering.turn_catalogue``, the ordering's one door to this module while callers that
give no language code keep the one being spoken), the customer and quote desks, and the
Telegram delivery commands, desk words, drop-off code receiver, answers and map picks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from datetime import date

from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue, Texts

_installed: list[BusinessTexts] = [BusinessTexts(DEFAULT_TEXTS)]
_speaking: ContextVar[Catalogue | None] = ContextVar("speaking", default=None)


def install(texts: Texts | BusinessTexts) -> None:
    """Make ``texts`` the business's catalogues for this process (``build_core`` installs the
    core's ``BusinessTexts``, which gains each registered channel's words)."""
    _installed[0] = texts if isinstance(texts, BusinessTexts) else BusinessTexts(texts)


def installed() -> Texts:
    """The business's catalogues (the shipped ones until ``install``)."""
    return _installed[0].texts


def current() -> Catalogue:
    """The catalogue of the turn being handled (the business default outside any)."""
    return _speaking.get() or _installed[0].business_catalogue()


@contextmanager
def speaking(catalogue: Catalogue) -> Iterator[Catalogue]:
    """Render every ``say`` inside the block from ``catalogue``."""
    token = _speaking.set(catalogue)
    try:
        yield catalogue
    finally:
        _speaking.reset(token)


def speaking_language(language_code: str | None) -> AbstractContextManager[Catalogue]:
    """Render every ``say`` inside the block for a customer whose client says
    ``language_code``: the business's catalogue in that language, or in its default."""
    return speaking(_installed[0].catalogue_for(language_code))


def spoken_language() -> str | None:
    """The shipped language the turn being handled is said in because its customer's client
    asked for it (``Catalogue.chosen``); None for the business default or outside any turn."""
    return current().chosen


def say(message_id: str, /, **values: object) -> str:
    """Message ``message_id`` in the language of the turn being handled."""
    return current().say(message_id, **values)


def say_to_business(message_id: str, /, **values: object) -> str:
    """Message ``message_id`` in the business's default language, whoever's turn it is."""
    return _installed[0].business_catalogue().say(message_id, **values)


def money(amount: float, currency: str) -> str:
    """An amount with its currency, as the turn's locale writes it."""
    return current().money(amount, currency)


def number(value: float, pattern: str | None = None) -> str:
    """A number as the turn's locale writes it."""
    return current().number(value, pattern)


def day(when: date) -> str:
    """A day as the turn's locale writes it."""
    return current().day(when)
