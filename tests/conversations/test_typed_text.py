"""``readable``: what a customer typed, without what no store or chat can carry."""

from __future__ import annotations

import pytest

from conversations.dialog import ContactAnswer, LocationAnswer, TextAnswer
from conversations.typed_text import readable


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("12 Main \ud83d St", "12 Main  St"),  # half an emoji
        ("\udc00", ""),
        ("\ud83d\ude00 ok", "😀 ok"),  # a pair that arrived as two halves is one emoji
        ("Ada\x00\x1b[31m Obi\x7f", "Ada[31m Obi"),
        ("line one\n\tline two", "line one\n\tline two"),
        ("Ọbí 🙂\u200d", "Ọbí 🙂\u200d"),
    ],
)
def test_readable_keeps_what_a_person_meant(typed: str, kept: str) -> None:
    assert readable(typed) == kept


def test_every_customer_string_of_an_answer_is_readable() -> None:
    assert TextAnswer(text="a\ud83db").text == "ab"
    contact = ContactAnswer(phone="+234\x00803", first_name="Ada\ud83d", last_name="\x1bObi")
    assert (contact.phone, contact.full_name) == ("+234803", "Ada Obi")
    assert LocationAnswer(lat=6.5, lng=3.3, address="Gate\ud83d 2").address == "Gate 2"
    # Saved with the session as JSON: it must encode.
    assert (
        TextAnswer(text="x\ud83d").model_dump_json()
        == '{"step":null,"version":null,"kind":"text","text":"x"}'
    )
