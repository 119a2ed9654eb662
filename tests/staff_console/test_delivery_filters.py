"""``parse_filters`` and ``parse_cursor``: the list's query string, read or refused in words."""

from __future__ import annotations

from datetime import UTC, date
from urllib.parse import parse_qs
from zoneinfo import ZoneInfo

import pytest

from bot.staff_console.delivery_filters import (
    MAX_SEARCH,
    DeliveryFilters,
    FiltersRefused,
    cursor_text,
    parse_cursor,
    parse_filters,
)
from bot.store.delivery_list import Attention, ListCursor, ListQuery
from tests.support.words import SHIPPED, said_in

LAGOS = ZoneInfo("Africa/Lagos")
CHANNELS = ("telegram", "agents")


def _parsed(query: str, *, language: str | None = None) -> DeliveryFilters | FiltersRefused:
    catalogue = said_in(language) if language else SHIPPED
    return parse_filters(
        catalogue, parse_qs(query), channels=CHANNELS, zone=LAGOS, phone_region="NG"
    )


def _filters(query: str) -> DeliveryFilters:
    found = _parsed(query)
    assert isinstance(found, DeliveryFilters), found
    return found


def _refusal(query: str, *, language: str | None = None) -> str:
    found = _parsed(query, language=language)
    assert isinstance(found, FiltersRefused), found
    return found.reason


def test_nothing_asked_filters_nothing() -> None:
    assert _filters("").query() == ListQuery()


def test_statuses_repeated_or_comma_separated_channel_attention_and_day() -> None:
    filters = _filters(
        "status=pending,matched&status=pending&channel=agents"
        "&attention=unpriced&attention=waiting_handoff&day=2027-01-15&page=2"
    )
    assert filters.statuses == ("pending", "matched")
    assert filters.channel == "agents"
    assert filters.attention == {Attention.UNPRICED, Attention.WAITING_HANDOFF}
    assert filters.day == date(2027, 1, 15)
    query = filters.query()
    # The business's day: midnight in Lagos (UTC+1) is 23:00 UTC the day before.
    assert query.created_from == 1_800_000_000 - 9 * 3600
    assert query.created_before == 1_800_000_000 - 9 * 3600 + 86_400


def test_a_day_in_another_zone_begins_at_its_own_midnight() -> None:
    found = parse_filters(
        SHIPPED, {"day": ["2027-01-15"]}, channels=CHANNELS, zone=UTC, phone_region="NG"
    )
    assert isinstance(found, DeliveryFilters)
    assert found.query().created_from == 1_800_000_000 - 8 * 3600


@pytest.mark.parametrize(
    "written", ["0803 123 4567", "+234 803 123 4567", "2348031234567", "00234-803-123-4567"]
)
def test_a_phone_in_any_written_form_is_searched_as_e164(written: str) -> None:
    filters = _filters(f"q={written.replace('+', '%2B')}")
    assert filters.phone == "+2348031234567"
    assert filters.search == written


def test_a_reference_is_searched_as_typed_and_digits_may_be_both() -> None:
    assert _filters("q=3F2A9C").ref_prefix == "3F2A9C"
    assert _filters("q=3F2A9C").phone is None
    both = _filters("q=08031234567")
    assert (both.ref_prefix, both.phone) == ("08031234567", "+2348031234567")


def test_each_malformed_filter_is_refused_in_a_sentence() -> None:
    assert _refusal("status=lost") == SHIPPED.say(
        "console_web.refused_status",
        status="lost",
        statuses="awaiting_price, pending, matched, picked_up, in_transit, delivered, cancelled",
    )
    assert "“whatsapp”" in _refusal("channel=whatsapp")
    assert "agents, telegram" in _refusal("channel=whatsapp")
    assert "“soon”" in _refusal("attention=soon")
    assert _refusal("day=2027-02-30") == SHIPPED.say(
        "console_web.refused_day", day="2027-02-30", example="2027-01-07"
    )
    assert "“15/01/2027”" in _refusal("day=15/01/2027")
    assert _refusal("q=where is my parcel") == SHIPPED.say(
        "console_web.refused_search", search="where is my parcel"
    )
    too_long = "a" * (MAX_SEARCH + 1)
    assert _refusal(f"q={too_long}") == SHIPPED.say(
        "console_web.refused_search_long", limit=MAX_SEARCH
    )


def test_a_refusal_is_said_in_the_staff_members_language() -> None:
    assert _refusal("status=lost", language="fr").startswith("« lost » n'est pas un statut")


def test_a_long_refused_value_is_echoed_cut_short() -> None:
    reason = _refusal("status=" + "x" * 300)
    assert "x" * 39 + "…" in reason
    assert "x" * 41 not in reason


def test_a_cursor_reads_back_exactly_and_a_broken_one_is_refused() -> None:
    cursor = ListCursor(1_800_000_000.123456, "3f2a9c1e-aaaa-4bbb-8ccc-000000000001")
    assert parse_cursor(SHIPPED, cursor_text(cursor)) == cursor
    for broken in ("", "nan~abc", "inf~abc", "12.5", "12.5~", "12.5~a b", "x~abc"):
        assert parse_cursor(SHIPPED, broken) == FiltersRefused(
            SHIPPED.say("console_web.refused_page")
        )
