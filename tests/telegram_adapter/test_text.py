"""Escaping for parse_mode=HTML and splitting under Telegram's length limit."""

from __future__ import annotations

from bot.telegram.text import MAX_TEXT_LENGTH, escape, split, utf16_length


def test_escaping_leaves_only_literal_characters() -> None:
    assert escape("Fish & <chips>") == "Fish &amp; &lt;chips&gt;"
    assert escape('"quoted"') == '"quoted"'


def test_long_messages_are_split_at_line_ends_under_the_limit() -> None:
    line = " ".join(["word"] * 100)  # 499 characters
    text = "\n".join([line] * 20)  # 9,999 characters
    pieces = split(text)
    assert [len(p) for p in pieces] == [3999, 3999, 1999]  # 8 whole lines fit in 4096
    assert "\n".join(pieces) == text


def test_a_single_huge_line_is_cut_counting_utf16_units() -> None:
    text = "😀" * 3000  # 6000 UTF-16 units
    pieces = split(text)
    assert [len(p) for p in pieces] == [2048, 952]
    assert "".join(pieces) == text


def test_short_text_is_one_piece_and_blank_text_none() -> None:
    assert split("  Hello\nthere  ") == ["Hello\nthere"]
    assert split("  \n ") == []


def test_a_piece_may_fill_the_limit_exactly() -> None:
    assert split("x" * MAX_TEXT_LENGTH) == ["x" * MAX_TEXT_LENGTH]
    assert [len(p) for p in split("x" * (MAX_TEXT_LENGTH + 1))] == [MAX_TEXT_LENGTH, 1]


def test_utf16_length_counts_astral_characters_twice() -> None:
    assert utf16_length("a😀é") == 4


def test_text_of_half_the_limit_fits_even_in_astral_characters() -> None:
    assert split("😀" * (MAX_TEXT_LENGTH // 2)) == ["😀" * (MAX_TEXT_LENGTH // 2)]
    assert [len(p) for p in split("😀" * (MAX_TEXT_LENGTH // 2 + 1))] == [2048, 1]
