"""The rider on the map for agent conversations: the agents channel's ``RiderMap`` keeps a
``rider_position`` event when the position moved, became unavailable or came back, never twice
for one fix, and the JSON feed, SSE and the signed webhook carry it like any other event."""

from __future__ import annotations

import json
from typing import Any

from bot.agents.agent_rider_map import RIDER_POSITION, iso_time
from bot.chat_ref import ChatRef
from bot.store.rider_positions import Fix, Point
from bot.tracking.rider_map import NOTHING_SHOWN, RiderMap
from bot.tracking.rider_view import RiderView

from .conftest import AgentWorld
from .test_agent_events import read_sse

YABA = Point(6.5095, 3.3711)
AKOKA = Point(6.5158, 3.3898)


def rider_view(delivery_id: str, fix: Fix | None, *, eta: int | None = 9) -> RiderView:
    text = "Musa is bringing it to you." if fix is not None else "Not available right now."
    return RiderView(
        delivery_id=delivery_id,
        ref=delivery_id[-8:].upper(),
        milestone="in_transit",
        rider_id="rdr_1",
        rider_name="Musa Bello",
        vehicle_type="motorbike",
        position=fix,
        eta_minutes=eta if fix is not None else None,
        text=text,
    )


async def ordered(world: AgentWorld) -> tuple[str, str, ChatRef, RiderMap]:
    """An agent conversation's delivery: the conversation, the delivery, its chat and the
    agents channel's map, as the tracking job finds it by the chat."""
    created = await world.order()
    await world.settle()
    delivery_id = created["delivery"]["id"]
    assert world.store is not None and world.core is not None
    link = await world.store.deliveries.get(delivery_id)
    assert link is not None
    rider_map = world.core.channels.rider_map(link.chat)
    assert rider_map is not None
    return created["id"], delivery_id, link.chat, rider_map


async def positions(world: AgentWorld, conversation: str) -> list[dict[str, Any]]:
    events = (await world.api.get(f"/api/conversations/{conversation}/events")).json()["events"]
    return [event for event in events if event["type"] == RIDER_POSITION]


async def test_each_change_of_the_position_is_one_event_on_the_feed_sse_and_the_webhook(
    world: AgentWorld,
) -> None:
    conversation, delivery_id, chat, rider_map = await ordered(world)
    at_yaba = Fix(YABA, 1_800_000_000.0)

    shown = await rider_map.show(chat, rider_view(delivery_id, at_yaba), NOTHING_SHOWN)
    # The same fix, and a newer one at the same point (waiting at a door): nothing new.
    assert await rider_map.show(chat, rider_view(delivery_id, at_yaba), shown) == shown
    waiting = Fix(YABA, at_yaba.taken_at + 20)
    assert await rider_map.show(chat, rider_view(delivery_id, waiting), shown) == shown
    gone = await rider_map.show(chat, rider_view(delivery_id, None), shown)
    assert await rider_map.show(chat, rider_view(delivery_id, None), gone) == gone
    moved = Fix(AKOKA, at_yaba.taken_at + 60)
    back = await rider_map.show(chat, rider_view(delivery_id, moved), gone)
    # A pass repeated after a crash, before the job kept the record: nothing twice.
    assert await rider_map.show(chat, rider_view(delivery_id, moved), gone) == back
    await rider_map.end(chat, rider_view(delivery_id, moved), back)

    told = await positions(world, conversation)
    assert [event["position"] for event in told] == [
        {
            "latitude": YABA.latitude,
            "longitude": YABA.longitude,
            "taken_at": "2027-01-15T08:00:00Z",
        },
        None,
        {
            "latitude": AKOKA.latitude,
            "longitude": AKOKA.longitude,
            "taken_at": iso_time(1.8e9 + 60),
        },
    ]
    first = told[0]
    assert first["event_id"] == f"position:{delivery_id}:1800000000.000"
    assert first["delivery_id"] == delivery_id and first["status"] == "in_transit"
    assert first["rider"] == {"name": "Musa", "vehicle_type": "motorbike"}
    assert (first["eta_minutes"], first["message"]) == (9, "Musa is bringing it to you.")
    assert (told[1]["eta_minutes"], told[1]["message"]) == (None, "Not available right now.")

    path = f"/api/conversations/{conversation}/events"
    streamed = await read_sse(world.api, path, len((await world.api.get(path)).json()["events"]))
    assert [e for _, e in streamed if e["type"] == RIDER_POSITION] == told
    await world.settle()
    hooked = [json.loads(body) for body in world.hooks.bodies]
    assert [e["event_id"] for e in hooked if e["type"] == RIDER_POSITION] == [
        e["event_id"] for e in told
    ]


async def test_a_first_pass_without_a_position_says_so_once(world: AgentWorld) -> None:
    conversation, delivery_id, chat, rider_map = await ordered(world)
    shown = await rider_map.show(chat, rider_view(delivery_id, None), NOTHING_SHOWN)
    assert await rider_map.show(chat, rider_view(delivery_id, None), shown) == shown
    assert [e["position"] for e in await positions(world, conversation)] == [None]
