"""shorten: text within a limit, a composed address keeping its name and unit whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conversations.shortening import ELLIPSIS, SEPARATOR, shorten

MOREMI_B012 = "Moremi Hall — University of Lagos, Akoka, Lagos — B012"


def test_text_that_fits_is_kept_with_its_whitespace_collapsed() -> None:
    assert shorten("  Ikeja   City Mall ", 40) == "Ikeja City Mall"


def test_a_composed_address_loses_the_middle_of_its_address_and_keeps_the_unit() -> None:
    assert shorten(MOREMI_B012, 40) == "Moremi Hall — University of Lago… — B012"


def test_with_no_room_for_the_address_it_goes_then_the_name_is_cut_and_the_unit_kept() -> None:
    assert shorten(MOREMI_B012, 22) == "Moremi Hall — … — B012"
    assert shorten(MOREMI_B012, 20) == "Moremi Hall — B012"
    assert shorten(MOREMI_B012, 15) == "Moremi… — B012"


def test_other_text_is_cut_at_its_end() -> None:
    assert shorten("Keep: Ozone Cinema, Herbert Macaulay Way, Yaba", 20) == "Keep: Ozone Cinema…"


parts = st.text(st.characters(codec="utf-8", exclude_characters="—"), min_size=1, max_size=80)


@given(st.lists(parts, min_size=1, max_size=5), st.integers(1, 120))
def test_the_result_never_exceeds_the_limit(pieces: list[str], limit: int) -> None:
    assert len(shorten(SEPARATOR.join(pieces), limit)) <= limit


@given(
    st.from_regex(r"[A-Z][a-z]{2,15}( [A-Z][a-z]{2,10})?", fullmatch=True),
    st.from_regex(r"[A-Za-z0-9 ,]{20,200}", fullmatch=True),
    st.from_regex(r"[A-Z]?[0-9]{1,4}", fullmatch=True),
)
def test_a_short_name_and_unit_survive_any_address(name: str, address: str, unit: str) -> None:
    text = SEPARATOR.join((name, address, unit))
    short = shorten(text, 40)
    assert short.startswith(f"{name}{SEPARATOR}")
    assert short.endswith(f"{SEPARATOR}{unit}")
    assert len(short) <= 40
    assert short == " ".join(text.split()) or ELLIPSIS in short
