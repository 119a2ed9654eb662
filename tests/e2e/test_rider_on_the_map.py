"""The rider on the map, end to end: a Telegram customer orders through real ``deliverybot run``
processes (two, on one PostgreSQL database), then watches one live location move as the rider
goes, and stop at delivered.

The harness of ``real_instances``: the instances in webhook mode on loopback ports, the fake
Bot API in this process, the sandbox served on loopback posting its signed events to the first
instance. The sandbox's riders move with their delivery (at the pickup once it is picked up,
part of the way once on its way, at the drop-off when delivered), so each status the business
sets moves the pin. ``[tracking]`` looks every 5 s; the relay wakes the tracker when a status
lands, in whichever instance leads.

Asserted: one live location in the chat (the two instances do not both track), sent at the
rider's fix and moved to the pickup and then along the way, stopped at delivered; one text
with the rider's name and the estimate; nothing of another rider.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.pg_local_server import free_loopback_port
from tests.e2e.real_instances import (
    Deployment,
    deployment,
    is_summary,
    push,
    seed_sessions_at_the_summary,
)
from tests.fakes import TgUser
from tests.fakes.telegram_records import RecordedCall

CUSTOMER = TgUser(830_001, "Ngozi", last_name="Eze")
WAIT = 30.0  # a status's news and the leader's next pass, on a loaded machine


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Deployment]:
    port = free_loopback_port()
    hooks = f"http://127.0.0.1:{port}/hooks/partner"
    async with deployment("postgres", tmp_path, request, webhook_url=hooks) as world:
        secret = world.partner.sandbox.signing_secret
        world.extra = (
            f'[webhooks]\nenabled = true\nsigning_secret = "{secret}"\n\n'
            "[tracking]\nenabled = true\ninterval_seconds = 5\n"
        )
        world.tg.add_chat(CUSTOMER)
        await seed_sessions_at_the_summary(world.backing.store, world.partner, [CUSTOMER.id])
        await world.backing.hand_to_instances()
        await world.start(port)
        await world.start()
        yield world


def _in_chat(call: RecordedCall) -> bool:
    return call.ok and call.params.get("chat_id") == CUSTOMER.id


async def test_the_customer_watches_the_rider_move_and_stop_at_delivered(
    world: Deployment,
) -> None:
    tg, sandbox = world.tg, world.partner.sandbox
    first = world.running[0]
    await push(world.client, first, tg.updates.command(CUSTOMER, "start"))
    summary = await tg.wait_for_message(CUSTOMER.id, is_summary, timeout=WAIT)
    await push(world.client, first, tg.updates.tap(summary, "Confirm and send"))

    sent = await tg.wait_for_call("sendLocation", _in_chat, timeout=WAIT)
    [delivery] = sandbox.deliveries()
    rider = delivery["rider"]
    assert rider is not None
    [live] = tg.live_locations(CUSTOMER.id)
    assert live.message_id == sent.result["message_id"] and live.live
    text = await tg.wait_for_message(
        CUSTOMER.id, lambda m: "estimate" in (m.text or ""), timeout=WAIT
    )
    assert rider["name"].split()[0] in (text.text or "")

    # The rider's app reports a fix 500 m north: the leader's next pass moves the pin.
    start = live.position
    moved = len(tg.calls("editMessageLiveLocation"))
    sandbox.move_rider(rider["id"], start[0] + 0.0045, start[1])
    await tg.wait_for_call("editMessageLiveLocation", _in_chat, after=moved, timeout=WAIT)

    sandbox.mark_paid(delivery["id"])
    for _ in range(2):  # picked up: at the pickup; on its way: part of the way there
        moved = len(tg.calls("editMessageLiveLocation"))
        sandbox.advance_status(delivery["id"])
        await tg.wait_for_call("editMessageLiveLocation", _in_chat, after=moved, timeout=WAIT)
    sandbox.advance_status(delivery["id"])  # delivered
    await tg.wait_for_call("stopMessageLiveLocation", _in_chat, timeout=WAIT)

    [live] = tg.live_locations(CUSTOMER.id)
    assert live.stopped and not live.live
    pickup = sandbox.delivery(delivery["id"])["pickup"]
    assert (pickup["latitude"], pickup["longitude"]) in live.positions
    # The fix, the report 500 m on, the pickup, part of the way (and, when a pass ran between
    # "delivered" and its news, the drop-off): each a move, none repeated in a row.
    assert len(live.positions) >= 4
    assert all(a != b for a, b in zip(live.positions, live.positions[1:], strict=False))
    # One live location however many instances run: only the leader tracks.
    assert len(tg.calls("sendLocation")) == 1
