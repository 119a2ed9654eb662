"""Catalogue messages named where a flow is declared and said when a turn reads them.

A flow's steps are declared once, at import, but each turn speaks its customer's language:
a step's title, question, help or option label is therefore a ``Said`` (a message id with
the values known at declaration) rather than a sentence, and is rendered from the reading
turn's catalogue each time it is read. ``Words`` is such a text or a plain string (a
business's own name for something, a value from the service), and ``words`` says either one.

A ``Said`` is also a function of the context, so it fits wherever a step takes a ``Text``
(a question that may depend on the answers): it is said from the context's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from conversations.texts.catalogue import Catalogue


class Speaks(Protocol):
    """What carries a turn's catalogue (a step's ``Context``)."""

    @property
    def catalogue(self) -> Catalogue: ...


@dataclass(frozen=True)
class Said:
    """Message ``message_id`` with ``values``, said in the reading turn's language."""

    message_id: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __call__(self, ctx: Speaks) -> str:
        """The message in the language of ``ctx``'s turn (a ``Said`` fits where a text may be
        a function of the context)."""
        return self.render(ctx.catalogue)

    def render(self, catalogue: Catalogue) -> str:
        """The message from ``catalogue`` (a value that is a ``Said`` itself said from it too:
        a title within a title)."""
        return catalogue.say(self.message_id, **_said_in(self.values, catalogue))

    def __format__(self, spec: str) -> str:
        """Refused: a ``Said`` has no language of its own until a catalogue renders it."""
        raise TypeError(f"{self.message_id!r} is said with a catalogue: words(text, catalogue)")

    def filled(self, catalogue: Catalogue, **values: object) -> str:
        """The message with more values, known only when it is said (an option's label)."""
        return catalogue.say(self.message_id, **_said_in({**self.values, **values}, catalogue))


def _said_in(values: Mapping[str, object], catalogue: Catalogue) -> dict[str, object]:
    return {
        name: value.render(catalogue) if isinstance(value, Said) else value
        for name, value in values.items()
    }


def said(message_id: str, /, **values: object) -> Said:
    """Message ``message_id`` with ``values``, to be said when read."""
    return Said(message_id, values)


Words = str | Said


def words(text: Words, catalogue: Catalogue) -> str:
    """``text`` as ``catalogue``'s turn reads it: a plain string as it is, a ``Said`` said."""
    return text if isinstance(text, str) else text.render(catalogue)


def filled(template: Words, catalogue: Catalogue, **values: object) -> str:
    """``template`` with ``values``: a plain string formatted, a ``Said`` said with them."""
    return (
        template.format(**values)
        if isinstance(template, str)
        else template.filled(catalogue, **values)
    )
