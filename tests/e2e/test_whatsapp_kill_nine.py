"""A WhatsApp message acknowledged (200) and then its instance killed with SIGKILL before it
was handled is handled once: by the restarted instance (SQLite) or by the other one
(PostgreSQL). The chat is kept busy meanwhile by its create, held in the sandbox, so the message
waits for the chat's lock when the kill lands. Harness: ``whatsapp_instances``.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.store import Store
from tests.e2e.real_instances import CreateArrivals, kill
from tests.e2e.whatsapp_instances import (
    ADA,
    CREATED,
    WITHIN,
    Spread,
    has,
    received_until,
    to_the_summary,
    whatsapp_deployment,
)


async def handled_once(store: Store, message_id: str, timeout: float) -> bool:
    """Whether the stored message ``message_id`` is recorded handled within ``timeout``
    (polled: the handling happens in other processes)."""
    query = """SELECT count(*) FROM whatsapp_inbox JOIN seen_updates
        ON seen_updates.update_id = -whatsapp_inbox.seq WHERE whatsapp_inbox.item_key = ?"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = await store._db.fetch_one(query, (message_id,))
        if row is not None and int(row[0]) == 1:
            return True
        await asyncio.sleep(0.2)
    return False


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_message_acknowledged_before_a_kill_is_handled_once_after_it(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    arrivals = CreateArrivals()
    async with whatsapp_deployment(
        backend, tmp_path, request, monkeypatch, counter=arrivals
    ) as world:
        await world.deployment.backing.hand_to_instances()
        first = await world.start()
        if backend == "postgres":
            await world.start()  # the one that takes over
        world.aim(first)
        ada = world.customer(ADA, "Ada")
        await to_the_summary(world, ada, Spread(world, [first]), restart=None)

        # The chat stays busy: its create waits in the sandbox, under the chat's lock.
        world.deployment.partner.sandbox.inject_fault(
            "create_delivery", "latency", 1, latency_seconds=6.0, when="before"
        )
        await ada.taps("Confirm and send")  # 200: stored, handled in the background
        await asyncio.wait_for(arrivals.arrived.wait(), timeout=WITHIN)
        waiting = await ada.says("Is it on its way?")  # 200: stored, waiting for the chat
        await kill(first)
        killed_at = time.monotonic()
        if backend == "sqlite":
            await world.start(first.port)

        store = await world.deployment.backing.reopen()
        assert await handled_once(store, waiting, WITHIN), "the acknowledged message was lost"
        seconds = time.monotonic() - killed_at
        print(f"{backend}: a WhatsApp message acknowledged before a kill, "
              f"handled {seconds:.1f} s later")  # fmt: skip
        await received_until(ada, has(CREATED), timeout=WITHIN)
        told = [m.text for m in ada.inbox()]
        assert len(world.deployment.partner.sandbox.deliveries()) == 1
        assert sum(CREATED in text for text in told) == 1
