"""``WhatsAppInboxSweep``'s passes and when it looks again: every ``ORPHANED_SECONDS`` while
the inbox holds no body (an idle bot, of which a host runs a thousand), at the moment the
oldest stored item becomes an orphan, and every ``SWEEP_SECONDS`` while items wait; on both
backends."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.clocks import Clock
from bot.store import Store
from bot.store.whatsapp_inbox import KEPT_SECONDS
from bot.whatsapp.inbox_handling import (
    FORGET_SECONDS,
    ORPHANED_SECONDS,
    SWEEP_SECONDS,
    WhatsAppInboxSweep,
)
from tests.support.clock import FakeClock
from tests.whatsapp.receive.conftest import Receiver, receiver_on
from tests.whatsapp.receive.pushes import CUSTOMER, text


@pytest.fixture(params=["sqlite", "postgres"])
def store_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store_clock(clock: FakeClock) -> Clock:
    return clock


@pytest.fixture
async def receiver(store: Store) -> AsyncIterator[Receiver]:
    async with receiver_on(store) as opened:
        yield opened


def sweep_of(receiver: Receiver, clock: FakeClock, *, shared: bool = True) -> WhatsAppInboxSweep:
    return WhatsAppInboxSweep(
        receiver.store.whatsapp_inbox, receiver.receiving.handling, shared=shared, clock=clock
    )


async def left(store: Store, wamid: str) -> None:
    """A message stored as ``POST /whatsapp`` stores it, by an instance that died before
    handling it (nothing here hands it on)."""
    stored = {"message": text(wamid), "contact": {"profile": {"name": "Ada"}, "wa_id": CUSTOMER}}
    assert await store.whatsapp_inbox.add(wamid, "message", int(CUSTOMER), json.dumps(stored))


async def pass_and_handle(sweep: WhatsAppInboxSweep, receiver: Receiver) -> float | None:
    """One pass, and the handling of what it handed on."""
    look = await sweep.run_once()
    await receiver.receiving.handling.idle()
    return look


async def test_an_idle_bot_looks_again_only_when_an_item_stored_now_could_be_orphaned(
    receiver: Receiver, clock: FakeClock
) -> None:
    sweep = sweep_of(receiver, clock)
    assert (sweep.look_seconds, sweep.follower_look) == (ORPHANED_SECONDS, SWEEP_SECONDS)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    clock.advance(ORPHANED_SECONDS)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    assert receiver.recorder.ids == []


async def test_a_message_another_instance_left_is_taken_the_moment_it_is_orphaned(
    receiver: Receiver, clock: FakeClock
) -> None:
    sweep = sweep_of(receiver, clock)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    clock.advance(1.5)
    await left(receiver.store, "wamid.5")
    clock.advance(ORPHANED_SECONDS - 1.5)  # the sweep's next look: not orphaned yet
    assert await pass_and_handle(sweep, receiver) == pytest.approx(1.5)  # ... but then
    assert receiver.recorder.ids == []
    clock.advance(1.5)
    assert await pass_and_handle(sweep, receiver) == SWEEP_SECONDS
    assert receiver.recorder.ids == ["wamid.5"]
    held = await receiver.store.whatsapp_inbox.held()
    assert (held.bodies, held.oldest_waiting) == (1, None)  # handled; its body still kept
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    assert (await receiver.store.whatsapp_inbox.held()).bodies == 0  # the message is gone
    assert receiver.recorder.ids == ["wamid.5"]  # handled once


async def test_while_messages_wait_it_looks_every_sweep_seconds(
    receiver: Receiver, clock: FakeClock
) -> None:
    sweep = sweep_of(receiver, clock)
    await left(receiver.store, "wamid.6")  # a slow turn's message, or a dead instance's
    assert await pass_and_handle(sweep, receiver) == SWEEP_SECONDS
    clock.advance(ORPHANED_SECONDS - 1.0)
    assert await pass_and_handle(sweep, receiver) == pytest.approx(1.0)
    assert receiver.recorder.ids == []


async def test_a_message_handled_here_has_its_body_cleared_by_the_next_pass(
    receiver: Receiver, clock: FakeClock
) -> None:
    sweep = sweep_of(receiver, clock)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    await left(receiver.store, "wamid.7")
    receiver.receiving.handling.soon(int(CUSTOMER))  # as the webhook hands it on
    await receiver.receiving.handling.idle()
    assert receiver.recorder.ids == ["wamid.7"]
    clock.advance(ORPHANED_SECONDS)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    assert (await receiver.store.whatsapp_inbox.held()).bodies == 0


async def test_alone_on_its_store_the_messages_stored_before_it_started_are_taken_at_once(
    receiver: Receiver, clock: FakeClock
) -> None:
    await left(receiver.store, "wamid.8")  # the last run died with it
    clock.advance(1.0)
    sweep = sweep_of(receiver, clock, shared=False)
    assert await pass_and_handle(sweep, receiver) == SWEEP_SECONDS
    assert receiver.recorder.ids == ["wamid.8"]


async def test_an_idle_pass_is_one_read_and_old_keys_are_still_forgotten_hourly(
    receiver: Receiver, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox = receiver.store.whatsapp_inbox
    await left(receiver.store, "wamid.9")
    receiver.receiving.handling.soon(int(CUSTOMER))
    await receiver.receiving.handling.idle()
    sweep = sweep_of(receiver, clock)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS  # clears the body
    calls: list[str] = []
    for name in ("prune_handled", "waiting_chats"):
        method = getattr(inbox, name)

        async def counted(*args: Any, _method: Any = method, _name: str = name) -> Any:
            calls.append(_name)
            return await _method(*args)

        monkeypatch.setattr(inbox, name, counted)
    for _ in range(3):
        clock.advance(ORPHANED_SECONDS)
        assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    assert calls == []  # each pass read what the inbox holds, and nothing else
    stored = json.dumps({"message": text("wamid.9"), "contact": {"wa_id": CUSTOMER}})
    clock.advance(FORGET_SECONDS)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    assert calls == ["prune_handled"]  # the hourly forgetting
    assert not await inbox.add("wamid.9", "message", int(CUSTOMER), stored)  # a repeat
    clock.advance(KEPT_SECONDS)
    assert await pass_and_handle(sweep, receiver) == ORPHANED_SECONDS
    # Forgotten a week after: Meta no longer sends it again, and the customer's number is gone.
    assert await inbox.add("wamid.9", "message", int(CUSTOMER), stored)
    assert receiver.recorder.ids == ["wamid.9"]
