"""/riders, /assign, /unassign and the operators' /deliveries through PTB's real Application,
the fake Telegram and the sandbox: answered in operator chats only, API errors in plain words."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox.state import Store as SandboxState
from conversations.texts.deliveries_texts import short_ref
from tests.fakes import TgChat, TgUser
from tests.support.words import say

from .handler_world import (
    OPERATORS,
    HandlerWorld,
    approval_required,
    handler_world,
    manual_dispatch,
)

ALICE = TgUser(1001, "Alice", username="alice")
OLU = TgUser(2001, "Olu")  # an operator, writing in the operators' group
FRIENDS = TgChat.group(-100300, "Friends")
RIDER_LINE = re.compile(r"^\d+\. (.+?) \((\w+)\) · (\w+)$")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[HandlerWorld]:
    async with handler_world(tmp_path, manual_dispatch) as built:
        yield built


async def operator_says(world: HandlerWorld, command: str, payload: str | None = None) -> str:
    reply = await world.ask(world.tg.updates.command(OLU, command, payload, chat=OPERATORS))
    assert reply.text is not None
    return reply.text


def listed_riders(text: str) -> list[tuple[str, str]]:
    """(rider id, facts line) of each rider in a /riders answer, in order."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        match = RIDER_LINE.match(line)
        if match:
            found.append((match[3], lines[index + 1].strip()))
    return found


@pytest.mark.parametrize(
    ("command", "payload"),
    [("riders", "d-1"), ("assign", "d-1 rdr_tunde"), ("unassign", "d-1"), ("riders", None)],
)
async def test_non_operators_are_refused_and_nothing_is_asked_of_the_api(
    world: HandlerWorld, command: str, payload: str | None
) -> None:
    delivery = await world.order(ALICE)
    calls = world.api_calls()
    real_payload = payload.replace("d-1", delivery.id) if payload else None
    for chat in (ALICE.private_chat, FRIENDS):
        update = world.tg.updates.command(ALICE, command, real_payload, chat=chat)
        reply = await world.ask(update)
        assert reply.text == say("ops.refused")
        assert reply.button_texts == []
    assert world.api_calls() == calls
    assert world.sandbox.delivery(delivery.id)["rider_assigned"] is False


async def test_riders_closest_first_with_presence_distance_and_freshness(
    world: HandlerWorld,
) -> None:
    delivery = await world.order(ALICE)
    text = await operator_says(world, "riders", delivery.id)
    assert text.startswith(
        f"Riders for delivery {short_ref(delivery.id)} "
        "(pickup: 12 Herbert Macaulay Way, Yaba, Lagos):"
    )
    riders = listed_riders(text)
    expected = await world.client.list_riders(pickup_lat=6.5090, pickup_lng=3.3792)
    assert [rider_id for rider_id, _ in riders] == [rider.id for rider in expected]
    distances = [r.distance_km for r in expected if r.distance_km is not None]
    assert distances == sorted(distances)
    facts = dict(riders)
    assert "rdr_aisha" not in facts  # a pending invite is never listed
    assert re.fullmatch(
        r"available · \d+\.\d km away · fresh location · 0 active deliveries", facts["rdr_tunde"]
    )
    assert facts["rdr_chiamaka"].startswith("on delivery · ")
    assert facts["rdr_chiamaka"].endswith("· fresh location · 1 active delivery")
    assert "stale location" in facts["rdr_emeka"]
    assert facts["rdr_segun"] == (
        "unavailable · distance unknown · no location · 0 active deliveries"
    )
    assert text.splitlines()[-1] == f"Assign with /assign {short_ref(delivery.id)} <rider id>"


async def test_idle_and_radius_filters(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    idle = await operator_says(world, "riders", f"{delivery.id} idle")
    assert ", idle only:" in idle.splitlines()[0]
    assert {rider for rider, _ in listed_riders(idle)} == {"rdr_tunde", "rdr_emeka"}

    near = await operator_says(world, "riders", f"{delivery.id} radius 5km")
    assert near.splitlines()[0].endswith(", within 5 km:")
    # Chiamaka is about 10 km away; Segun's distance is unknown, so he is kept.
    assert [r for r, _ in listed_riders(near)] == ["rdr_tunde", "rdr_emeka", "rdr_segun"]

    both = await operator_says(world, "riders", f"{delivery.id} radius 0.1 idle")
    assert both.endswith(", idle only, within 0.1 km: none match.")


async def test_riders_arguments_are_checked(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    usage = "Usage: /riders <delivery ref> [idle] [radius <km>]"
    assert await operator_says(world, "riders") == usage
    assert await operator_says(world, "riders", f"{delivery.id} radius far") == usage
    assert await operator_says(world, "riders", f"{delivery.id} nearby") == usage
    too_far = await operator_says(world, "riders", f"{delivery.id} radius 900")
    assert too_far == "Not accepted: radius_km must be between 0 and 500"
    unknown = str(uuid.uuid4())
    assert await operator_says(world, "riders", unknown) == f"There is no delivery {unknown}."
    assert await operator_says(world, "riders", "no-such-id") == (
        "“no-such-id” is not a delivery reference: type the reference the chats show "
        "(like 3F2A9C1E, at least 6 characters) or the full id."
    )


async def test_assign_and_unassign_follow_the_apis_rules(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    ref = short_ref(delivery.id)
    assert await operator_says(world, "unassign", delivery.id) == (
        f"Delivery {ref} has no rider to take off: a rider can only be unassigned while the "
        "delivery is matched (assigned, not picked up yet)."
    )
    assert await operator_says(world, "assign", f"{delivery.id} rdr_aisha") == (
        "The rider rdr_aisha has not accepted the fleet invite yet, so cannot be assigned."
    )
    assert await operator_says(world, "assign", f"{delivery.id} rdr_nobody") == (
        "There is no rider rdr_nobody on this fleet. /riders <delivery ref> lists the riders."
    )
    assert await operator_says(world, "assign", f"{delivery.id} rdr_tunde") == (
        f"Tunde Bakare is assigned to delivery {ref}; it is now: rider assigned."
    )
    assert world.sandbox.delivery(delivery.id)["rider"]["id"] == "rdr_tunde"
    assert await operator_says(world, "unassign", delivery.id) == (
        f"The rider was taken off delivery {ref}; it is again: waiting for a rider."
    )
    await operator_says(world, "assign", f"{delivery.id} rdr_chiamaka")  # busy riders may be
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    world.sandbox.advance_status(delivery.id, "picked_up")
    assert await operator_says(world, "assign", f"{delivery.id} rdr_tunde") == (
        f"Delivery {ref}: the pickup has started, so its rider can no longer change."
    )
    assert (await operator_says(world, "unassign", delivery.id)).startswith(
        f"Delivery {ref} has no rider to take off"
    )
    assert world.sandbox.delivery(delivery.id)["rider"]["id"] == "rdr_chiamaka"


async def test_assign_usage(world: HandlerWorld) -> None:
    assert (await operator_says(world, "assign", "only-one")).startswith("Usage: /assign")
    assert await operator_says(world, "unassign") == "Usage: /unassign <delivery ref>"


async def test_a_delivery_awaiting_its_price_cannot_be_assigned(tmp_path: Path) -> None:
    async with handler_world(tmp_path, approval_required) as world:
        delivery = await world.order(ALICE)
        assert delivery.status == "awaiting_price"
        text = await operator_says(world, "assign", f"{delivery.id} rdr_tunde")
        assert text == (
            f"Delivery {short_ref(delivery.id)} has no delivery fee yet (it is awaiting a "
            "price). Set the fee first."
        )
        assert world.sandbox.delivery(delivery.id)["rider_assigned"] is False


async def test_operators_list_every_delivery_with_a_status_filter_and_pages(
    world: HandlerWorld,
) -> None:
    created = [await world.order(ALICE, linked=index % 2 == 0) for index in range(12)]
    await operator_says(world, "assign", f"{created[0].id} rdr_tunde")
    newest_first = [delivery.id for delivery in reversed(created)]

    reply = await world.ask(world.tg.updates.command(OLU, "deliveries", chat=OPERATORS))
    assert reply.text is not None
    assert reply.text.splitlines()[0] == "All deliveries, newest first (page 1):"
    assert [i in reply.text for i in newest_first] == [True] * 10 + [False] * 2
    assert reply.button_texts == ["Next ›"]
    assert len(reply.callback_data("Next ›").encode()) <= 64

    edits = len(world.tg.calls("editMessageText"))
    world.tg.push_update(world.tg.updates.tap(reply, "Next ›", user=OLU))
    await world.tg.wait_for_call("editMessageText", after=edits)
    second = world.tg.message(OPERATORS.id, reply.message_id)
    assert second is not None
    assert second["text"].splitlines()[0] == "All deliveries, newest first (page 2):"
    assert [i in second["text"] for i in newest_first] == [False] * 10 + [True] * 2
    assert "rider Tunde Bakare" in second["text"]
    buttons = second["reply_markup"]["inline_keyboard"][0]
    assert [b["text"] for b in buttons] == ["« First"]

    matched = await operator_says(world, "deliveries", "matched")
    assert matched.splitlines()[0] == "Deliveries “rider assigned”, newest first (page 1):"
    assert created[0].id in matched and created[1].id not in matched
    assert await operator_says(world, "deliveries", "delivered") == "Deliveries “delivered”: none."
    assert (await operator_says(world, "deliveries", "lost")).startswith(
        "Usage: /deliveries [status], one of: awaiting_price, pending"
    )


async def test_operator_page_buttons_do_nothing_outside_operator_chats(
    world: HandlerWorld,
) -> None:
    await world.order(ALICE)
    mine = await world.ask(world.tg.updates.command(ALICE, "status"))
    calls = world.api_calls()
    world.tg.push_update(world.tg.updates.callback_query(ALICE, mine, "op1:0:1:"))
    answer = await world.tg.wait_for_call("answerCallbackQuery")
    assert answer.params.get("text") == say("ops.refused")
    assert world.api_calls() == calls
    assert world.tg.calls("editMessageText") == []


async def test_the_short_reference_the_chats_show_names_the_delivery(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    await world.order(ALICE)  # another delivery, so the reference must pick the right one
    ref = short_ref(delivery.id)
    riders = await operator_says(world, "riders", ref)
    assert riders.startswith(f"Riders for delivery {ref} ")
    assert await operator_says(world, "assign", f"{ref.lower()} rdr_tunde") == (
        f"Tunde Bakare is assigned to delivery {ref}; it is now: rider assigned."
    )
    assert world.sandbox.delivery(delivery.id)["rider"]["id"] == "rdr_tunde"
    assert await operator_says(world, "unassign", ref) == (
        f"The rider was taken off delivery {ref}; it is again: waiting for a rider."
    )


async def test_a_reference_of_no_delivery_or_of_several_is_refused_plainly(
    world: HandlerWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two ids that share their first block: the short reference alone cannot tell them apart.
    twins = iter(["5ab1e000-0000-4000-8000-000000000001", "5ab1e000-0000-4000-8000-000000000002"])
    monkeypatch.setattr(SandboxState, "new_delivery_id", staticmethod(lambda: next(twins)))
    first = await world.order(ALICE)
    second = await world.order(ALICE)
    calls = world.api_calls()
    assert await operator_says(world, "riders", "5AB1E000") == (
        f"5AB1E000 is the start of more than one delivery ({second.id}, {first.id}): "
        "type more of the id."
    )
    assert await operator_says(world, "assign", "5ab1e0 rdr_tunde") == (
        f"5AB1E0 is the start of more than one delivery ({second.id}, {first.id}): "
        "type more of the id."
    )
    assert await operator_says(world, "unassign", "ABCDEF12") == (
        "There is no delivery ABCDEF12 among the newest 500: check the reference, or type the "
        "full id."
    )
    assert await operator_says(world, "riders", "5AB1") == (
        "“5AB1” is not a delivery reference: type the reference the chats show "
        "(like 3F2A9C1E, at least 6 characters) or the full id."
    )
    # Only the lists were read: nothing was assigned or looked up by a guessed id.
    assert world.sandbox.call_counts().get("assign_rider", 0) == 0
    assert world.api_calls() > calls
    # The whole id names one.
    assert (await operator_says(world, "riders", first.id)).startswith("Riders for delivery")
