"""When ``CreateFollowUp`` looks again on a store other processes keep creates in too (its
``look_seconds``): every ``IDLE_LOOK_SECONDS`` while no create is in flight or kept (an idle
bot, of which a host runs a thousand), with two reads; every ``FIRST_FOLLOW_UP_SECONDS`` while
some are; and the moment a kept row falls due or a dead sender's lease runs out."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ordering.recorded_creates import LEASE_SECONDS
from bot.ordering.unconfirmed_worker import FIRST_FOLLOW_UP_SECONDS, IDLE_LOOK_SECONDS
from tests.relay.support import RecordingChannel

from .conftest import Org
from .test_lost_answers import CHAT, Bot, lose_create_answers, sandbox_deliveries
from .test_recorded_creates import order_and_die, swap_client, watch_creates


async def test_an_idle_follow_up_reads_two_dues_and_looks_again_after_its_idle_look(
    org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert org.store is not None
    bot = Bot(org, org.store, RecordingChannel(), look_seconds=IDLE_LOOK_SECONDS)
    follow_up = bot.follow_up
    assert (follow_up.look_seconds, follow_up.follower_look) == (
        IDLE_LOOK_SECONDS,
        FIRST_FOLLOW_UP_SECONDS,  # a follower still takes over as soon as before
    )
    calls: list[str] = []
    for part, name in (
        (org.store.create_intents, "hand_over_expired"),
        (org.store.unconfirmed, "due"),
    ):
        method = getattr(part, name)

        async def counted(*args: Any, _method: Any = method, _name: str = name) -> Any:
            calls.append(_name)
            return await _method(*args)

        monkeypatch.setattr(part, name, counted)
    assert await bot.jobs.turn(follow_up) == IDLE_LOOK_SECONDS
    org.clock.advance(IDLE_LOOK_SECONDS)
    assert await bot.jobs.turn(follow_up) == IDLE_LOOK_SECONDS
    assert calls == []  # when the next row and the next lease are due, and nothing else


async def test_a_create_another_process_lost_is_followed_up_at_the_next_look(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    leader = Bot(org, org.store, channel, look_seconds=IDLE_LOOK_SECONDS)
    other = Bot(org, org.store, channel)  # its jobs never run: it leaves its rows to the leader
    assert await leader.jobs.turn(leader.follow_up) == IDLE_LOOK_SECONDS
    lose_create_answers(org)
    await other.order()  # kept, due 2 s later; nothing of it can wake the leader
    org.clock.advance(IDLE_LOOK_SECONDS)  # the leader's next look: at most this late
    assert await leader.jobs.turn(leader.follow_up) == IDLE_LOOK_SECONDS
    assert len(channel.texts(CHAT.id)) == 1
    # Kept just before a look, it is followed up the moment it falls due: while a create is
    # kept the leader looks every 2 s.
    lose_create_answers(org)
    await other.order(description="A pair of boots")
    assert await leader.jobs.turn(leader.follow_up) == pytest.approx(FIRST_FOLLOW_UP_SECONDS)
    org.clock.advance(FIRST_FOLLOW_UP_SECONDS)
    assert await leader.jobs.turn(leader.follow_up) == IDLE_LOOK_SECONDS
    made = sandbox_deliveries(org)
    told = channel.texts(CHAT.id)
    assert len(made) == len(told) == 2
    assert all(text.startswith("Good news") for text in told)
    assert all(any(d["id"] in text for text in told) for d in made)


async def test_a_dead_senders_intent_is_taken_over_the_moment_its_lease_runs_out(
    org: Org,
) -> None:
    # Its sender recorded it just after the leader's idle look; the lease outlasts that look.
    assert IDLE_LOOK_SECONDS < LEASE_SECONDS
    assert org.store is not None
    store = org.store
    channel = RecordingChannel()
    watched = await watch_creates(org, store, stall=True)
    await order_and_die(Bot(org, store, channel), watched)
    lease_until = await store.create_intents.next_expiry()
    assert lease_until is not None
    await swap_client(org)  # the leader's own client (the dead one's never answers)
    leader = Bot(org, store, channel, look_seconds=IDLE_LOOK_SECONDS)
    org.clock.advance(IDLE_LOOK_SECONDS)  # the leader's next idle look after the record
    looks = []
    while not channel.texts(CHAT.id):
        if looks:
            org.clock.advance(looks[-1])
        looks.append(await leader.jobs.turn(leader.follow_up))
    assert org.clock() == lease_until  # taken over, read back, sent again and told then
    assert looks == [FIRST_FOLLOW_UP_SECONDS, FIRST_FOLLOW_UP_SECONDS, 1.0, IDLE_LOOK_SECONDS]
    (made,) = sandbox_deliveries(org)
    assert made["id"] in channel.texts(CHAT.id)[0]
