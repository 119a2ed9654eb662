"""Creates whose answer was lost, with two instances on one PostgreSQL database: only the
instance holding ``store.leadership`` follows them up, including the ones the other instance
kept (it finds them by looking), and another takes over when the leader stops. Two workers on
the same row would each read back and send the create again (two deliveries where the service
does not deduplicate keys) and alert the operators twice: should two meet on one row all the
same, each attempt is claimed by one.

Real sandbox (a 503 before the handler: nothing made, the outcome unknown to the bot), real
Partner client, real PostgreSQL; the customer's notices go to a recording channel.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ordering.unconfirmed_worker import FIRST_FOLLOW_UP_SECONDS
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from conversations.texts import dialogue
from tests.relay.support import RecordingChannel
from tests.support.words import SHIPPED

from .conftest import MakeOrg, Org, keep_test_photo
from .test_lost_answers import CHAT, Bot, sandbox_deliveries, without_key_deduplication


class Instance:
    """One bot process on the shared database; counts the follow-up passes it works."""

    def __init__(self, org: Org, store: Store, channel: RecordingChannel) -> None:
        self.store = store
        self.bot = Bot(
            org,
            store,
            channel,
            look_seconds=FIRST_FOLLOW_UP_SECONDS,
        )
        self.passes = 0
        process_due = self.bot.follow_up.process_due

        async def counted() -> int:
            self.passes += 1
            return await process_due()

        self.bot.follow_up.process_due = counted  # type: ignore[method-assign]

    def start(self) -> None:
        self.bot.jobs.start()

    async def stop(self) -> None:
        await self.bot.jobs.stop()


@pytest.fixture
async def org(make_org: MakeOrg, scenario_data: dict[str, Any]) -> Org:
    # Without deduplication a second worker's re-send would show as a second delivery.
    return without_key_deduplication(make_org, scenario_data)


@pytest.fixture
async def instances(
    org: Org, postgres_server: LocalPostgres, tmp_path: Path
) -> AsyncIterator[tuple[Instance, Instance, RecordingChannel]]:
    dsn = await postgres_server.create_database("lost_answers_across_instances")
    channel = RecordingChannel()
    made: list[Instance] = []
    try:
        for _ in range(2):
            store = await Store.connect_postgres(
                dsn, media_dir=tmp_path / "media", clock=org.clock, channels=SHIPPED_CHANNEL_KINDS
            )
            made.append(Instance(org, store, channel))
        await keep_test_photo(made[0].store)
        a, b = made
        yield a, b, channel
    finally:
        for instance in made:
            await instance.stop()
            await instance.store.close()


async def test_only_the_leader_follows_up_even_a_create_lost_on_the_other_instance(
    org: Org, instances: tuple[Instance, Instance, RecordingChannel]
) -> None:
    a, b, channel = instances
    assert a.store.leadership is not None and await a.store.leadership.leads()
    a.start()
    b.start()
    org.sandbox.inject_fault("create_delivery", "status", 1)  # a 503, nothing created

    turn = await b.bot.order()  # on b, which wakes its own worker

    assert turn.messages == (dialogue.CHECKING.render(SHIPPED),)
    await channel.wait_for(1)
    (made,) = sandbox_deliveries(org)
    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Good news") and made["id"] in told
    assert org.calls("create_delivery") == 2  # the lost one, then one follow-up
    assert a.passes >= 1
    assert b.passes == 0  # woken by its own lost create, it left it to the leader
    assert a.bot.alerts == b.bot.alerts == []


async def test_when_the_leader_stops_the_other_instance_follows_up(
    org: Org, instances: tuple[Instance, Instance, RecordingChannel]
) -> None:
    a, b, channel = instances
    assert a.store.leadership is not None and await a.store.leadership.leads()
    await a.store.leadership.close()  # a stops: its lock goes with its connection
    b.start()
    org.sandbox.inject_fault("create_delivery", "status", 1)

    turn = await a.bot.order()  # its last order, taken just before it stopped

    assert turn.messages == (dialogue.CHECKING.render(SHIPPED),)
    await channel.wait_for(1)
    (made,) = sandbox_deliveries(org)
    assert made["id"] in channel.texts(CHAT.id)[0]
    assert org.calls("create_delivery") == 2
    assert b.passes >= 1


async def test_two_workers_meeting_on_one_row_follow_it_up_once(
    org: Org, instances: tuple[Instance, Instance, RecordingChannel]
) -> None:
    # Leadership keeps this from happening; should two workers still meet on one row (a
    # leader that lost its lock mid-pass, and the next one), only the one that claimed it
    # reads back and sends the create again, and only it alerts the operators.
    a, b, channel = instances
    org.sandbox.inject_fault("create_delivery", "status", 1)  # the order's create: unknown
    await a.bot.order()
    # The follow-up is refused for certain, by a refusal the operators are told of.
    org.sandbox.inject_fault("create_delivery", "status", 2, status=400, code="image_host_rejected")
    org.clock.advance(FIRST_FOLLOW_UP_SECONDS)

    handled = await asyncio.gather(a.bot.follow_up.process_due(), b.bot.follow_up.process_due())

    assert sorted(handled) == [0, 1]
    assert org.calls("create_delivery") == 2  # the order's, and one follow-up
    assert len(a.bot.alerts + b.bot.alerts) == 1
    assert channel.texts(CHAT.id) == [dialogue.NOT_PLACED.render(SHIPPED)]
