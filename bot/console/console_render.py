"""A ``Turn`` as terminal text: what the bot says, then the open question with numbered options
and a line saying how to answer.

::

    bot: How will the rider get the package?
           1. A rider picks it up from an address
           2. I'll drop it at a warehouse
         (reply: a number · back · cancel · help)

Long option lists (saved places, 81 hostel rooms) are laid out in columns. When the question
takes typed numbers as answers (a room "12", ``Prompt.numbers_are_values``), its options are
not numbered: they are typed as they are shown. Nothing here decides what to ask: the prompt
says which inputs make sense, and this module only draws them. Where the engine's sentences ask
to choose (``conversations.texts.taps``), the console says "type", with commands as they are
typed and options by their number. Everything is said from the catalogue the caller passes
(the typist's).
"""

from __future__ import annotations

import textwrap

from bot.console.parse import numbered
from conversations import Option, Prompt, Turn
from conversations.keywords import shown
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import Words, words
from conversations.texts.taps import KEYBOARD, for_channel

BOT = "bot"
WIDTH = 100
_INDENT = " " * 5
_COLUMN_GAP = 2
# Lists longer than this, with short labels, are laid out in columns.
_COLUMNS_FROM = 9


def said(text: str, who: str = BOT) -> list[str]:
    """A message: ``who: `` before its first line, the rest indented under it."""
    lines = text.splitlines() or [""]
    head = f"{who}: ".ljust(len(_INDENT))
    return [head + lines[0], *(_INDENT + line if line else "" for line in lines[1:])]


def render_turn(
    catalogue: Catalogue, turn: Turn, *, typed_places: Words | None = None
) -> list[str]:
    """Every message of ``turn``, then its prompt (if one is open), said from ``catalogue``;
    ``typed_places`` is said beside "type the address" (where the addresses a typist may type
    are listed)."""
    lines: list[str] = []
    labels = _labels(turn.prompt)
    for message in turn.messages:
        lines += said(for_channel(catalogue, message, KEYBOARD, labels))
    if turn.prompt is not None:
        lines += render_prompt(catalogue, turn.prompt, typed_places=typed_places)
    return lines


def render_prompt(
    catalogue: Catalogue, prompt: Prompt, *, typed_places: Words | None = None
) -> list[str]:
    """The open question, its options and how to answer it, said from ``catalogue``."""
    lines = said(for_channel(catalogue, prompt.text, KEYBOARD, _labels(prompt)))
    lines += _options(catalogue, prompt)
    if prompt.photos is not None:
        have, low, high = prompt.photos.have, prompt.photos.min, prompt.photos.max
        need = catalogue.say("console.photos_at_least", low=low) if low else ""
        lines.append(
            _INDENT + catalogue.say("console.photos_so_far", have=have, need=need, high=high)
        )
    ways = " · ".join(ways_to_answer(catalogue, prompt, typed_places))
    lines.append(_INDENT + catalogue.say("console.reply", ways=ways))
    return lines


def ways_to_answer(
    catalogue: Catalogue, prompt: Prompt, typed_places: Words | None = None
) -> list[str]:
    """How this question can be answered at the keyboard, then the commands worth showing,
    said from ``catalogue``."""
    ways: list[str] = []
    if prompt.options:
        if prompt.numbers_are_values:
            ways.append(catalogue.say("console.way.as_shown"))
        else:
            only = str(numbered(prompt)[0][0])
            ways.append(catalogue.say("console.way.a_number") if len(prompt.options) > 1 else only)
        if prompt.default is not None:
            ways.append(catalogue.say("console.way.default"))
    typed_number = bool(prompt.options) and prompt.numbers_are_values
    if "text" in prompt.accepts and prompt.input == "place":
        if typed_places:
            ways.append(
                catalogue.say("console.way.address_in", places=words(typed_places, catalogue))
            )
        else:
            ways.append(catalogue.say("console.way.address"))
    elif "text" in prompt.accepts and not typed_number:
        ways.append(catalogue.say("console.way.answer"))
    if "location" in prompt.accepts:
        ways.append(catalogue.say("console.way.location"))
    if "contact" in prompt.accepts:
        ways.append(catalogue.say("console.way.contact"))
    if "photos" in prompt.accepts:
        ways.append(catalogue.say("console.way.photos"))
    commands = list(prompt.commands)
    if prompt.input == "confirm":
        ways.append(catalogue.say("console.way.edit"))
    commands += [name for name in ("cancel", "help") if name not in commands]
    return ways + [
        shown(catalogue, name) for name in commands
    ]  # "retour · annuler · aide" in French


def _labels(prompt: Prompt | None) -> list[str]:
    # By number: the option numbered n is at n - 1 ("Keep ...", numbered 0, is named as is).
    numbers = numbered(prompt) if prompt is not None else []
    return [option.label for number, option in sorted(numbers, key=lambda n: n[0]) if number]


def _label(catalogue: Catalogue, option: Option, default: str | None) -> str:
    text = option.label
    if option.detail:
        text += f" ({option.detail})"
    if option.id == default:
        text += "  " + catalogue.say("console.default_mark")
    return text


def _options(catalogue: Catalogue, prompt: Prompt) -> list[str]:
    labels = [
        _label(catalogue, option, prompt.default)
        if prompt.numbers_are_values
        else f"{number}. {_label(catalogue, option, prompt.default)}"
        for number, option in numbered(prompt)
    ]
    if not labels:
        return []
    cell = max(len(label) for label in labels) + _COLUMN_GAP
    columns = max(1, (WIDTH - len(_INDENT) - 2) // cell)
    if len(labels) < _COLUMNS_FROM or columns == 1:
        return [
            line
            for label in labels
            for line in textwrap.wrap(
                label, WIDTH, initial_indent=_INDENT + "  ", subsequent_indent=_INDENT + "     "
            )
        ]
    rows = -(-len(labels) // columns)
    out = []
    for row in range(rows):
        cells = [labels[i] for i in range(row, len(labels), rows)]
        out.append((_INDENT + "  " + "".join(c.ljust(cell) for c in cells)).rstrip())
    return out
