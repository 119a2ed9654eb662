"""What a typed line does on the WhatsApp demo's phone (``whatsapp_typing.read_line``), and how
a message the bot sent is drawn (``whatsapp_screen``): pure, no bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.demo.whatsapp_screen import choices_of, draw_all
from bot.demo.whatsapp_typing import Again, Card, Picture, Pin, Tap, Words, read_line
from bot.whatsapp_fake.sent_messages import Offered, SentMessage

TAG = "w1:{kind}:AbCdEfGh:3:{rest}"


def offered(kind: str, rest: str, title: str, description: str = "") -> Offered:
    return Offered(TAG.format(kind=kind, rest=rest), title, description)


KINDS = SentMessage(
    "list",
    "2348031234567",
    text="What would you like to order?",
    offered=(
        offered("o", "0", "✓ Pickup & delivery"),
        offered("o", "1", "Errand: we buy it for y…", "Errand: we buy it for you"),
    ),
    list_button="Choose",
)
STUCK = SentMessage(
    "buttons", "2348031234567", text="Stuck?", offered=(Offered("w1:k:human", "Talk to a person"),)
)
ROOM = SentMessage(
    "buttons",
    "2348031234567",
    text="Room number? Type it.",
    offered=(offered("c", "back", "Back"),),
)
ROOMS_PAGE = SentMessage(
    "list",
    "2348031234567",
    text="Which room? (page 1 of 9)",
    offered=(offered("o", "0", "Room 1"), offered("p", "1", "More…")),
    list_button="Rooms",
)


def test_a_list_then_buttons_are_numbered_on_and_drawn_as_a_phone_shows_them() -> None:
    lines = draw_all([KINDS, STUCK])
    assert lines == [
        "bot: What would you like to order?",
        "     [Choose]",
        "       1. ✓ Pickup & delivery",
        "       2. Errand: we buy it for y… — Errand: we buy it for you",
        "     (tap: type a number or a title; anything else is sent as a message)",
        "bot: Stuck?",
        "       3. Talk to a person",
        "     (tap: type a number or a title; anything else is sent as a message)",
    ]
    assert [choice.number for choice in choices_of([KINDS, STUCK])] == [1, 2, 3]


def test_a_number_or_a_title_taps_the_choice_drawn_with_it() -> None:
    choices = choices_of([KINDS, STUCK])
    assert read_line("3", choices, Path()) == Tap(choices[2])
    assert read_line("pickup & DELIVERY", choices, Path()) == Tap(choices[0])
    assert read_line("Errand: we buy it for y…", choices, Path()) == Tap(choices[1])
    assert read_line("4", choices, Path()) == Again(
        "there is no choice 4: type 1 to 3 or a title (say 4 sends it as words)"
    )
    assert read_line("say 4", choices, Path()) == Words("4")
    assert read_line("a cake", choices, Path()) == Words("a cake")


def test_beside_navigation_alone_a_number_is_the_typed_answer() -> None:
    choices = choices_of([ROOM])
    assert draw_all([ROOM])[1:] == [
        "       [Back]",
        "     (tap: type a title; anything else is sent as a message)",
    ]
    assert read_line("12", choices, Path()) == Words("12")
    assert read_line("back", choices, Path()) == Tap(choices[0])


def test_under_a_paged_list_a_number_off_the_page_goes_as_words() -> None:
    choices = choices_of([ROOMS_PAGE])
    assert read_line("2", choices, Path()) == Tap(choices[1])
    assert read_line("57", choices, Path()) == Words("57")


def test_a_template_is_drawn_with_its_name_language_and_parameters() -> None:
    template = SentMessage(
        "template",
        "2348031234567",
        template="delivery_update",
        language="en",
        parameters=("3F2A9C1E", "Your rider is on the way."),
    )
    assert draw_all([template]) == [
        "bot: (template delivery_update, en)",
        "     {{1}} 3F2A9C1E",
        "     {{2}} Your rider is on the way.",
    ]


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("6.5095, 3.3711", Pin(6.5095, 3.3711)),
        ("location 6.5 3.37 Ozone Cinema, Yaba", Pin(6.5, 3.37, "Ozone Cinema, Yaba")),
        ("location 91 3", Again("a latitude is -90 to 90 and a longitude -180 to 180")),
        (
            "location Yaba",
            Again("share a pin like this: location 6.5095 3.3711 Ozone Cinema, Yaba"),
        ),
        ("contact 08022223333 Bola Ahmed", Card("Bola Ahmed", "08022223333")),
        ("contact", Again("share a contact like this: contact 08022223333 Bola Ahmed")),
        ("photo", Picture()),
        ("  ", Again("WhatsApp sends no empty message: type something, or a choice's number")),
    ],
)
def test_pins_contacts_and_photos(line: str, action: object) -> None:
    assert read_line(line, (), Path()) == action


def test_a_photo_by_its_path_and_a_file_that_is_none(tmp_path: Path) -> None:
    (tmp_path / "parcel.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 16)
    (tmp_path / "notes.txt").write_text("not a photo")
    assert read_line("parcel.png", (), tmp_path) == Picture(tmp_path / "parcel.png")
    assert read_line("photo parcel.png", (), tmp_path) == Picture(tmp_path / "parcel.png")
    assert read_line("notes.txt", (), tmp_path) == Words("notes.txt")
    assert read_line("photo notes.txt", (), tmp_path) == Again(
        "notes.txt: no JPEG, PNG or WebP photo there (photo alone sends a sample)"
    )
