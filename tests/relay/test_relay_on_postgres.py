"""The relay on PostgreSQL, where a send claim may belong to another instance.

An instance killed between claiming a message's send and sending it leaves a claim that the
others respect for one lease: until then that message fails at once, without a word to the
channel ("being sent"). The event waits for a retry, and its delivery's later events must wait
behind it: started in the same pass, a later one would move the chat's view past it, and the
earlier one, planned again against that view, would be "older" and never said.
"""

from __future__ import annotations

from pathlib import Path

from bot.chat_ref import ChatRef
from bot.relay import Relay, RelayTuning
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import SendKey, Store
from bot.store.pg_local_server import LocalPostgres
from tests.support.clock import FakeClock
from tests.support.store_fixture import empty_postgres_database

from .support import (
    CUSTOMER_CHAT,
    DELIVERY,
    OTHER_CHAT,
    OTHER_USER,
    START,
    RecordingChannel,
    event,
    link,
    put,
)

LEASE_SECONDS = 4.0


async def test_a_later_event_waits_behind_one_whose_send_a_dead_instance_claimed(
    postgres_server: LocalPostgres, tmp_path: Path, clock: FakeClock, channel: RecordingChannel
) -> None:
    dsn = await empty_postgres_database(postgres_server)
    media = tmp_path / "media"
    store = await Store.connect_postgres(
        dsn,
        media_dir=media,
        clock=clock,
        lease_seconds=LEASE_SECONDS,
        channels=SHIPPED_CHANNEL_KINDS,
    )
    dead = await Store.connect_postgres(
        dsn,
        media_dir=media,
        clock=clock,
        lease_seconds=LEASE_SECONDS,
        channels=SHIPPED_CHANNEL_KINDS,
    )
    try:
        await link(store, "pending")
        # Other deliveries' events between the two: the pass is still starting them when the
        # first one's chain closes.
        others = [f"dlv-other-{n:02d}" for n in range(40)]
        for n, other in enumerate(others):
            await link(store, delivery_id=other, chat_id=OTHER_CHAT + 1 + n, user_id=OTHER_USER)
        await put(store, event("evt_1", "matched", previous_status="pending", hint="Update 1."))
        for n, other in enumerate(others):
            await put(store, event(f"evt_other_{n}", delivery_id=other, created=START + 30))
        second = event(
            "evt_2", "picked_up", previous_status="matched", created=START + 60, hint="Update 2."
        )
        await put(store, second)
        assert await dead.sent.claim(SendKey("evt_1", ChatRef("telegram", CUSTOMER_CHAT), "update"))
        await dead.close()  # killed before Telegram got the message
        relay = Relay(
            store, channel, operators=[], clock=clock, sleep=clock.sleep, tuning=RelayTuning()
        )

        await relay.process_pending()
        assert channel.texts(CUSTOMER_CHAT) == []  # the second waits behind the first
        clock.advance(LEASE_SECONDS + 1)  # the dead claim is stale; the first's retry is due
        await relay.process_pending()

        said = channel.texts(CUSTOMER_CHAT)
        assert len(said) == 2 and "Update 1." in said[0] and "Update 2." in said[1]
        view = await store.deliveries.get(DELIVERY)
        assert view is not None and view.status == "picked_up"
        assert (await store.inbox.counts()).pending == 0
    finally:
        await store.close()
