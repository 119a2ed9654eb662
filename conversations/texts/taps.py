"""How the engine's sentences name choosing an option or a command, so each channel says it
its own way: "tap Done" in Telegram, where options and commands are buttons; "type done" in the
console, where they are typed as they are shown (options by their number).

The engine's texts stay channel-independent: where a sentence asks the customer to choose, it
holds a mark made here (``tap("!done")``), and the channel that draws the sentence turns every
mark into its words with ``for_channel`` and its ``Taps``. A mark is plain text
(``[[tap:!done]]``), so it survives being kept in a session or a catalogue.

Targets of a mark:

=================  =========================================  ===================================
``tap("*")``       any of the open question's options         "tap one of the options" /
                                                              "type an option's number"
``tap("!")``       any command                                "tap a button" / "type a command"
``tap("!done")``   one command, by its name                   "tap Done" / "type done"
``tap("No cash")`` one option, by its label as shown          "tap No cash" / "type 1 (No cash)"
=================  =========================================  ===================================

``tap(..., capital=True)`` starts a sentence ("Tap Done" / "Type done").

A second kind of mark, ``way("photos")`` (``[[way:photos]]``), names how the channel's customer
gives something, as a whole phrase after "Please": "send them here as pictures" in Telegram,
"type the paths of the photo files" in the console; the agent channels name their own calls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from conversations.texts.catalogue import Catalogue

ANY_OPTION = "*"
ANY_COMMAND = "!"
PHOTOS = "photos"  # the way a customer gives package photos
_MARK = re.compile(r"\[\[(tap|Tap):([^\]]+)\]\]")
_WAY = re.compile(r"\[\[way:([a-z_]+)\]\]")


@dataclass(frozen=True)
class Taps:
    """A channel's words for choosing, as catalogue ids under ``words`` (``<words>.verb``,
    ``.any_option``, ``.any_command``); the defaults are a channel of buttons (Telegram), whose
    commands are named by their button labels (``command.<name>``)."""

    words: str = "taps.buttons"
    commands_in_lower_case: bool = False  # "done" as typed, not "Done" as on a button
    options_by_number: bool = False  # "1 (No cash)": the options are numbered where shown
    ways: str = "taps.buttons.way"  # catalogue ids of the ``way`` marks: ``<ways>.<name>``


BUTTONS = Taps()
KEYBOARD = Taps(
    words="taps.keyboard",
    commands_in_lower_case=True,
    options_by_number=True,
    ways="taps.keyboard.way",
)


def tap(target: str, *, capital: bool = False) -> str:
    """The mark for choosing ``target`` (see the module's table)."""
    return f"[[{'Tap' if capital else 'tap'}:{target}]]"


def way(name: str) -> str:
    """The mark for how the channel's customer gives ``name`` (only ``PHOTOS`` so far)."""
    return f"[[way:{name}]]"


def for_channel(catalogue: Catalogue, text: str, taps: Taps, options: Sequence[str] = ()) -> str:
    """``text`` with every mark in ``taps``' words; ``options`` are the labels of the open
    question's options, in the order shown (to name an option by its number)."""

    def said(match: re.Match[str]) -> str:
        verb = catalogue.say(f"{taps.words}.verb")
        verb = verb[:1].upper() + verb[1:] if match[1] == "Tap" else verb
        return f"{verb} {_target(catalogue, match[2], taps, options)}"

    def way_said(match: re.Match[str]) -> str:
        return catalogue.say(f"{taps.ways}.{match[1]}")

    return _WAY.sub(way_said, _MARK.sub(said, text))


def _target(catalogue: Catalogue, target: str, taps: Taps, options: Sequence[str]) -> str:
    if target == ANY_OPTION:
        return catalogue.say(f"{taps.words}.any_option")
    if target == ANY_COMMAND:
        return catalogue.say(f"{taps.words}.any_command")
    if target.startswith(ANY_COMMAND):
        name = target[1:]
        if taps.commands_in_lower_case:  # typed as the parser reads it, in every language
            return name.lower()
        label = f"command.{name.lower()}"
        return catalogue.say(label) if label in catalogue.messages else name.capitalize()
    if taps.options_by_number and target in options:
        return f"{options.index(target) + 1} ({target})"
    return target
