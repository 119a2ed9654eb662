"""Catalogue messages named where a flow is declared and said when a turn reads them.

A flow's steps are declared once, at import, but each turn speaks its customer's language:
a step's title, question, help or option label is therefore a ``Said`` (a message id with
the values known at declaration) rather than a sentence, and is rendered by ``say`` each time
it is read, in the language of the turn reading it. ``Words`` is such a text or a plain
string (a business's own name for something, a value from the service), and ``words`` says
either one.

A ``Said`` is also a function of the context, so it fits wherever a step takes a ``Text``
(a question that may depend on the answers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from conversations.texts.catalogue import say


@dataclass(frozen=True)
class Said:
    """Message ``message_id`` with ``values``, said in the reading turn's language."""

    message_id: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __call__(self, ctx: object = None) -> str:
        """The message in the current turn's language (``ctx`` is not needed: a ``Said``
        fits where a text may be a function of the context)."""
        return say(self.message_id, **self.values)

    def filled(self, **values: object) -> str:
        """The message with more values, known only when it is said (an option's label)."""
        return say(self.message_id, **{**self.values, **values})

    def __str__(self) -> str:
        return self()


def said(message_id: str, /, **values: object) -> Said:
    """Message ``message_id`` with ``values``, to be said when read."""
    return Said(message_id, values)


Words = str | Said


def words(text: Words) -> str:
    """``text`` as the current turn reads it: a plain string as it is, a ``Said`` said."""
    return text if isinstance(text, str) else text()


def filled(template: Words, **values: object) -> str:
    """``template`` with ``values``: a plain string formatted, a ``Said`` said with them."""
    return template.format(**values) if isinstance(template, str) else template.filled(**values)
