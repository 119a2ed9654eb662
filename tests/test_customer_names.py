"""``bot.safety.customer_names`` on a real store: each way an operator names a customer, what
it is refused with, and how the customer is shown back (the same way it can be typed)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.chat_ref import AGENTS, TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.safety.customer_names import (
    NameRefused,
    customer_named,
    customer_shown,
    name_and_rest,
    subject_shown,
)
from bot.store import Store
from tests.support.words import SHIPPED, say

BOLA = UserRef(WHATSAPP, 2348012345678)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with Store.open(tmp_path / "bot.db", synchronous="NORMAL") as opened:
        await opened.deliveries.add("3f2a9c1e-aaaa", ChatRef(TELEGRAM, 7), 7, 1.0, None, None)
        yield opened


@pytest.mark.parametrize(
    "typed",
    [
        "whatsapp:2348012345678",
        "whatsapp:+2348012345678",
        "whatsapp:+234 801 234 5678",
        "+2348012345678",
        " +234 801-234-5678 ",
        "+234 (801) 234.5678",
    ],
)
async def test_a_whatsapp_customer_is_named_by_their_number_any_way_written(
    store: Store, typed: str
) -> None:
    assert await customer_named(SHIPPED, store, typed) == BOLA


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("whatsapp:08012345678", "safety.not_a_whatsapp_number"),  # national: no region here
        ("whatsapp:+234 801", "safety.not_a_whatsapp_number"),
        ("whatsapp:bola", "safety.not_a_whatsapp_number"),
        ("whatsapp:", "safety.not_a_whatsapp_number"),
        ("+1 555 0100", "safety.not_a_whatsapp_number"),
        ("telegram:+2348012345678", "safety.not_a_customer"),
    ],
)
async def test_what_is_not_a_valid_number_is_refused_naming_the_form(
    store: Store, typed: str, key: str
) -> None:
    assert await customer_named(SHIPPED, store, typed) == NameRefused(say(key, typed=typed))


async def test_the_other_forms_still_name_who_they_did(store: Store) -> None:
    agent = await store.agents.user("shop-app", "cust-42", create=True)
    assert await customer_named(SHIPPED, store, "3F2A9C") == UserRef(TELEGRAM, 7)
    assert await customer_named(SHIPPED, store, "2348012345678") == UserRef(TELEGRAM, BOLA.id)
    assert await customer_named(SHIPPED, store, "shop-app:cust-42") == agent


async def test_a_whatsapp_customer_is_shown_as_a_number_that_names_them_again(
    store: Store,
) -> None:
    shown = await customer_shown(store, BOLA)
    assert shown == "whatsapp:+2348012345678"
    assert await customer_named(SHIPPED, store, shown) == BOLA
    assert await subject_shown(store, str(BOLA)) == shown  # the audit trail's inner form
    erased = UserRef(WHATSAPP, -(2**53) - 5)  # a tombstone is no number: shown as it is
    assert await customer_shown(store, erased) == str(erased)
    assert await subject_shown(store, str(erased)) == str(erased)
    assert await customer_shown(store, UserRef(TELEGRAM, 7)) == "telegram:7"
    agent = await store.agents.user("shop-app", "cust-42", create=True)
    assert agent is not None and agent.channel == AGENTS
    assert await subject_shown(store, str(agent)) == "shop-app:cust-42"


@pytest.mark.parametrize(
    ("words", "split"),
    [
        (["+234", "801", "234", "5678", "spam", "now"], ("+234 801 234 5678", ["spam", "now"])),
        (["+234", "801", "234", "5678", "50", "orders"], ("+234 801 234 5678", ["50", "orders"])),
        (["whatsapp:+234", "801", "234", "5678"], ("whatsapp:+234 801 234 5678", [])),
        (["whatsapp:2348012345678", "spam"], ("whatsapp:2348012345678", ["spam"])),
        (["+234", "nope"], ("+234", ["nope"])),  # no valid number: the first word, refused later
        (["3F2A9C1E", "1", "2"], ("3F2A9C1E", ["1", "2"])),
        (["1001"], ("1001", [])),
    ],
)
def test_a_command_s_number_written_with_spaces_is_one_name(
    words: list[str], split: tuple[str, list[str]]
) -> None:
    assert name_and_rest(words) == split
