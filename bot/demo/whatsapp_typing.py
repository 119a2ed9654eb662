"""What a line typed by the WhatsApp demo's customer does on their phone (``read_line``).

==================================  ====================================================
typed                               the phone sends
==================================  ====================================================
``2`` (with choices on screen)      a tap on the button or row numbered 2: a ``button_reply``
                                    or ``list_reply`` with its id, as WhatsApp sends it
a choice's title (any case)         the same tap
``say <words>``                     ``<words>`` as a message, even a number ("say 12")
``location <lat> <lng> [name]``,    a shared pin (a location request's "Send location",
``<lat>,<lng>``                     or the attach menu)
``contact <phone> [name]``          a shared contact card
``photo [file]``, a photo's path    an image message (no file: a small sample picture)
anything else                       a text message
==================================  ====================================================

A number taps the choice drawn with it (``whatsapp_screen``: buttons beside a question
answered by typing are drawn unnumbered, so a room "12" typed there is the answer). A number
that names no choice on screen is asked again without sending anything, since a customer
cannot tap a button that is not there (``say 12`` sends it as words), except under a paged
list, whose body says an option's number may be typed. WhatsApp sends no empty message, so an
empty line is asked again too. Deciding only: nothing is sent here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.demo.whatsapp_screen import Choice, stands_for
from bot.web.photo_keeping import image_type

_CHOICE_NUMBER: Final = re.compile(r"[1-9][0-9]?")
PAGE: Final = "p"
_PIN: Final = re.compile(r"(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)")
_COORDINATE: Final = re.compile(r"-?\d{1,3}(?:\.\d+)?")
DEFAULT_MARK: Final = "✓ "


@dataclass(frozen=True)
class Tap:
    """A tap on ``choice`` (a reply button, or a list row)."""

    choice: Choice


@dataclass(frozen=True)
class Words:
    """A text message."""

    text: str


@dataclass(frozen=True)
class Pin:
    """A shared location."""

    latitude: float
    longitude: float
    name: str = ""


@dataclass(frozen=True)
class Card:
    """A shared contact card."""

    name: str
    phone: str


@dataclass(frozen=True)
class Picture:
    """An image message: ``path``'s bytes, or the sample picture when ``path`` is None."""

    path: Path | None = None


@dataclass(frozen=True)
class Again:
    """Nothing sent: ``reason`` says what to type instead."""

    reason: str


Action = Tap | Words | Pin | Card | Picture | Again


def read_line(line: str, choices: Sequence[Choice], base_dir: Path) -> Action:
    """What typing ``line`` does, ``choices`` being the buttons and rows on screen, numbered
    from 1, relative photo paths taken from ``base_dir``."""
    text = line.strip()
    if not text:
        return Again("WhatsApp sends no empty message: type something, or a choice's number")
    head, _, rest = text.partition(" ")
    keyword = head.casefold()
    if keyword == "say" and rest.strip():
        return Words(rest.strip())
    if choices:
        tapped = _tap(text, choices)
        if tapped is not None:
            return tapped
    if keyword == "location":
        return _location(rest)
    pin = _PIN.fullmatch(text)
    if pin is not None:
        return _pin(pin.group(1), pin.group(2), "")
    if keyword == "contact":
        phone, _, name = rest.strip().partition(" ")
        if not phone:
            return Again("share a contact like this: contact 08022223333 Bola Ahmed")
        return Card(name.strip() or phone, phone)
    if keyword == "photo":
        return _picture(rest.strip(), base_dir)
    if " " not in text and image_type(_head(base_dir / Path(text).expanduser())):
        return Picture(base_dir / Path(text).expanduser())
    return Words(text)


def _tap(text: str, choices: Sequence[Choice]) -> Tap | Again | None:
    numbered = [choice for choice in choices if choice.number is not None]
    if numbered and _CHOICE_NUMBER.fullmatch(text):
        number = int(text)
        for choice in numbered:
            if choice.number == number:
                return Tap(choice)
        if any(stands_for(choice.offered) == PAGE for choice in choices):
            return None  # a paged list: the bot reads an option's number on another page
        return Again(
            f"there is no choice {number}: type 1 to {len(numbered)} or a title "
            f"(say {number} sends it as words)"
        )
    wanted = _title(text)
    for choice in choices:
        if _title(choice.offered.title) == wanted:
            return Tap(choice)
    return None


def _title(text: str) -> str:
    """A title as typed: the default's mark and the case do not matter."""
    return text.removeprefix(DEFAULT_MARK).strip().casefold()


def _location(rest: str) -> Pin | Again:
    words = rest.split()
    if len(words) < 2 or not all(_COORDINATE.fullmatch(word) for word in words[:2]):
        return Again("share a pin like this: location 6.5095 3.3711 Ozone Cinema, Yaba")
    return _pin(words[0], words[1], " ".join(words[2:]))


def _pin(latitude: str, longitude: str, name: str) -> Pin | Again:
    lat, lng = float(latitude), float(longitude)
    if not (-90 <= lat <= 90 and -180 <= lng <= 180):
        return Again("a latitude is -90 to 90 and a longitude -180 to 180")
    return Pin(lat, lng, name)


def _picture(name: str, base_dir: Path) -> Picture | Again:
    if not name:
        return Picture()
    path = base_dir / Path(name).expanduser()
    if image_type(_head(path)) is None:
        return Again(f"{name}: no JPEG, PNG or WebP photo there (photo alone sends a sample)")
    return Picture(path)


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(12)
    except OSError:
        return b""
