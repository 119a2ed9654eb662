"""A delivery's events reach the agent conversation that ordered it over SSE and the channel's
signed webhook, each once, across a restart of the bot; never the drop-off code."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import OPERATOR, AgentWorld


async def read_sse(client: httpx.AsyncClient, path: str, count: int, **headers: str) -> list[Any]:
    """The first ``count`` SSE events of ``path`` (``id`` and parsed ``data``), then hang up."""
    found: list[Any] = []
    event_id = None
    headers = {"Accept": "text/event-stream", **headers}
    async with client.stream("GET", path, headers=headers) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                found.append((event_id, json.loads(line[5:].strip())))
                if len(found) == count:
                    break
    return found


async def test_events_arrive_once_over_sse_and_the_webhook_across_a_restart(
    world: AgentWorld,
) -> None:
    created = await world.order()
    conversation = created["id"]
    delivery_id = created["delivery"]["id"]
    await world.settle()
    world.sandbox.mark_paid(delivery_id)
    await world.settle()

    path = f"/api/conversations/{conversation}/events"
    first = await read_sse(world.api, path, 4)
    types = [event["type"] for _, event in first]
    assert types[0] == "delivery.created"
    assert "delivery.otp_issued" in types
    code = world.sandbox.otp_code(delivery_id)
    assert code is not None
    otp_event = next(event for _, event in first if event["type"] == "delivery.otp_issued")
    assert "verified receiver" in otp_event["drop_off_code"]
    assert all(code not in json.dumps(event) for _, event in first)
    assert first[0][1]["summary"] and isinstance(first[0][1]["agent_notes"], list)
    last_seen = first[-1][0]

    await world.restart()
    await world.settle()  # nothing new: nothing is sent again
    world.sandbox.advance_status(delivery_id)
    await world.settle()

    assert world.api is not None
    resumed = await read_sse(world.api, path, 1, **{"Last-Event-ID": str(last_seen)})
    assert [event["status"] for _, event in resumed] == ["picked_up"]
    everything = (await world.api.get(path)).json()["events"]
    ids = [event["event_id"] for event in everything]
    assert len(ids) == len(set(ids)) == 5

    hooked = [json.loads(body) for body in world.hooks.bodies]
    assert [event["event_id"] for event in hooked] == ids
    assert all(code not in body.decode() for body in world.hooks.bodies)
    # The operators still hear about it; the customer chat channel never sees agent chats.
    assert all(chat == OPERATOR for chat, _ in world.channel.sent)


async def test_a_webhook_refused_once_is_posted_again_later_and_only_once(
    world: AgentWorld,
) -> None:
    world.hooks.fail_next = 1
    created = await world.order()
    await world.settle()
    assert world.hooks.bodies == []
    assert world.agents is not None
    next_at = await world.store.agent_events.next_hook_at(["shop"])  # type: ignore[union-attr]
    assert next_at is not None
    await world.restart()
    assert world.store is not None
    # Due again (the retry delay lives in the store, so advance it rather than wait).
    await world.store._db.execute("UPDATE agent_events SET hook_next_at = 0")
    assert world.agents is not None
    owed = len((await world.api.get(f"/api/conversations/{created['id']}/events")).json()["events"])
    assert owed >= 2  # created, and the rider's match
    assert await world.agents.webhooks.process_due() == owed
    assert await world.agents.webhooks.process_due() == 0
    hooked = [json.loads(body) for body in world.hooks.bodies]
    assert len({event["event_id"] for event in hooked}) == len(hooked) == owed
    assert {event["delivery_id"] for event in hooked} == {created["delivery"]["id"]}
