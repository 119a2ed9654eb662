"""What every step builder shares: questions given as text or as a function of the context,
cleaning typed text, the reason for an answer of the wrong kind, and the default way a step
writes its answer into the request.

Every text that reaches the service is trimmed, its inner whitespace collapsed, and bounded,
so a create never fails on length.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import JsonValue

from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Invalid, Write
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import Words, words

Text = str | Callable[[Context], str]


@dataclass(frozen=True)
class Offer:
    """An option declared with its step: the label (and detail) are said when the step is
    asked, in the language of that turn (``said("steps.size.small")``)."""

    id: str
    label: Words
    detail: Words | None = None

    def now(self, catalogue: Catalogue) -> Option:
        """The option as the current turn offers it."""
        detail = words(self.detail, catalogue) if self.detail is not None else None
        return Option(id=self.id, label=words(self.label, catalogue), detail=detail)


Options = Sequence[Option | Offer] | Callable[[Context], Sequence[Option]]


def question_text(text: Text, ctx: Context) -> str:
    """A question given as text, or as a function of the context."""
    return text(ctx) if callable(text) else text


def options_of(options: Options, ctx: Context) -> list[Option]:
    """The options offered now: declared ``Offer``s said in the turn's language."""
    if callable(options):
        return list(options(ctx))
    return [
        option.now(ctx.catalogue) if isinstance(option, Offer) else option for option in options
    ]


def clean(raw: str) -> str:
    """Trimmed, with runs of whitespace (newlines too) made one space."""
    return " ".join(raw.split())


def bounded(
    catalogue: Catalogue, raw: str, low: int, high: int, what: str | None = None
) -> str | Invalid:
    """``raw`` cleaned, or the reason it is too short or too long (``what`` names it:
    ``steps.what.name`` by id, or words already said, such as a unit's label)."""
    text = clean(raw)
    if len(text) < low:
        return Invalid(catalogue.say("steps.too_short", low=low))
    if len(text) > high:
        named = catalogue.say(what) if what and what.startswith("steps.") else what
        named = named or catalogue.say("steps.what.answer")
        return Invalid(catalogue.say("steps.too_long", what=named, high=high, length=len(text)))
    return text


def unexpected(catalogue: Catalogue, ways: str) -> Invalid:
    """The reason for an answer of a kind the step does not take; ``ways`` is the id of how to
    answer (``steps.way.phone``)."""
    return Invalid(catalogue.say("steps.please", ways=catalogue.say(ways)))


def value_writer(
    fields: Sequence[str], convert: Callable[[JsonValue], object] | None = None
) -> Write | None:
    """The usual ``Step.write``: the answer (converted) is the value of each of ``fields``."""
    if not fields:
        return None
    names = tuple(fields)

    def write(ctx: Context, value: JsonValue) -> Mapping[str, object]:
        written = convert(value) if convert is not None else value
        return dict.fromkeys(names, written)

    return write
