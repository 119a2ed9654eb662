"""Operator commands end to end: refused, without a Partner API call, outside operator chats;
answered in the operators' group (commands addressed ``/riders@bot`` as group clients send)."""

from __future__ import annotations

from conversations.texts.deliveries_texts import short_ref
from tests.e2e.conftest import ADA, CHIDI, OLU, OPERATORS, BotStack
from tests.fakes import TgChat
from tests.support.words import say

NEIGHBOURS = TgChat.group(-100600, "Neighbours")


async def test_a_non_operator_is_refused_and_nothing_leaks(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    calls = stack.sandbox.call_counts()
    for chat in (None, NEIGHBOURS):
        for command, payload in (
            ("riders", f"{delivery_id} idle"),
            ("assign", f"{delivery_id} rdr_emeka"),
            ("unassign", delivery_id),
        ):
            replies = await stack.command(CHIDI, command, payload, chat=chat)
            assert [m.text for m in replies] == [say("ops.refused")]
            assert all(m.reply_markup is None for m in replies)
    assert stack.sandbox.call_counts() == calls
    assert stack.sandbox.delivery(delivery_id)["rider"]["id"] == "rdr_tunde"


async def test_an_operator_reassigns_from_the_group(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    ref = short_ref(delivery_id)

    (riders,) = await stack.command(OLU, "riders", delivery_id, chat=OPERATORS)
    assert riders.text is not None and riders.text.startswith(f"Riders for delivery {ref}")
    assert "rdr_emeka" in riders.text and "rdr_aisha" not in riders.text

    (off,) = await stack.command(OLU, "unassign", delivery_id, chat=OPERATORS)
    assert off.text == f"The rider was taken off delivery {ref}; it is again: waiting for a rider."
    (on,) = await stack.command(OLU, "assign", f"{delivery_id} rdr_emeka", chat=OPERATORS)
    assert on.text == f"Emeka Okafor is assigned to delivery {ref}; it is now: rider assigned."
    assert stack.sandbox.delivery(delivery_id)["rider"]["id"] == "rdr_emeka"

    (listed,) = await stack.command(OLU, "deliveries", "matched", chat=OPERATORS)
    assert listed.text is not None and delivery_id in listed.text
    assert "rider Emeka Okafor" in listed.text
