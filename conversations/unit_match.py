"""What a customer typed, matched to a list unit's values leniently.

A hostel lists its rooms as ``A001`` .. ``B040``; a customer types ``b12``, ``B 12``,
``room B-12`` or just ``12``. ``match_unit`` finds the value meant, or the values it may mean.
The rules, tried in order (the first that finds anything decides):

1. the same text, ignoring case and spacing (``b012`` is ``B012``);
2. the same letters and numbers, ignoring punctuation, spacing and leading zeros
   (``B 12``, ``b-12`` and ``B0012`` are ``B012``; ``floor1`` is ``Floor 1``);
3. a number alone means the values that carry that number (``12`` is ``A012`` or ``B012``);
4. a part of the values: the typed letters and numbers start the value's, or every typed word
   starts a word of it (``warden`` is ``Warden's office``; ``B`` is ``B001`` .. ``B040``).

Before giving up, the words of the unit's label are taken out of what was typed
(``Room B12`` at a unit labelled "Room"). Rules 1 to 3 find what was *meant*; rule 4 finds what
was *searched for*, which the step offers to pick from (see ``UnitMatch``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[^\W_]+")  # runs of letters and digits, in any script
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class UnitMatch:
    """What typed text meant among a list's values.

    ``value`` is the one value meant, when the text names exactly one (rules 1 to 3).
    ``candidates`` are the values it may mean otherwise, in the list's order: several that fit
    as well (``12`` at a list with ``A012`` and ``B012``), or those a part of a value found
    (``B``; even one, since a search is not a choice). Neither: nothing matched.
    """

    value: str | None = None
    candidates: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return self.value is not None or bool(self.candidates)


def match_unit(typed: str, values: Sequence[str], label: str = "") -> UnitMatch:
    """The value of ``values`` that ``typed`` names, or those it may name (see the module)."""
    found = _match(typed, values)
    if found.found:
        return found
    label_words = {word.casefold() for word in _WORD.findall(label)}
    kept = [word for word in _WORD.findall(typed) if word.casefold() not in label_words]
    if kept and len(kept) < len(_WORD.findall(typed)):
        return _match(" ".join(kept), values)
    return found


def _match(typed: str, values: Sequence[str]) -> UnitMatch:
    text = _spaced(typed)
    if not text:
        return UnitMatch()
    exact = [value for value in values if _spaced(value) == text]
    if exact:
        return _meant(exact)
    key = _key(typed)
    if key:
        same = [value for value in values if _key(value) == key]
        if same:
            return _meant(same)
    if text.isdecimal():
        number = int(text)
        numbered = [value for value in values if number in _numbers(value)]
        if numbered:
            return _meant(numbered)
    return UnitMatch(candidates=tuple(value for value in values if _starts(typed, value)))


def _meant(values: list[str]) -> UnitMatch:
    return UnitMatch(value=values[0]) if len(values) == 1 else UnitMatch(candidates=tuple(values))


def _spaced(text: str) -> str:
    return " ".join(text.split()).casefold()


def _key(text: str) -> str:
    """Letters and numbers only, lower case, numbers without leading zeros."""
    return "".join(_unpadded(word) for word in _words(text))


def _words(text: str) -> list[str]:
    """The letter runs and number runs of ``text``, lower case: ``B-012a`` is b, 012, a."""
    return [part for word in _WORD.findall(text.casefold()) for part in _split_digits(word)]


def _split_digits(word: str) -> list[str]:
    return [part for part in re.split(r"(\d+)", word) if part]


def _unpadded(word: str) -> str:
    # isdecimal, not isdigit: "²" is a digit that int() refuses; every decimal int() reads.
    return str(int(word)) if word.isdecimal() else word


def _numbers(value: str) -> set[int]:
    return {int(number) for number in _NUMBER.findall(value)}


def _starts(typed: str, value: str) -> bool:
    """A part of ``value``: every typed word starts one of its words, or the typed letters and
    numbers start its own (``B01`` starts ``B010``)."""
    typed_words, value_words = _words(typed), _words(value)
    if not typed_words:
        return False
    squeezed = "".join(typed_words)
    if "".join(value_words).startswith(squeezed):
        return True
    return all(any(_begins(word, own) for own in value_words) for word in typed_words)


def _begins(typed_word: str, own: str) -> bool:
    if typed_word.isdecimal() and own.isdigit():
        return int(typed_word) == int(own)  # a number is a whole word: 1 does not start 12
    return own.startswith(typed_word)
