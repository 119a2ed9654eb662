"""A crash between sending and marking: after a restart, at most the messages that were in
flight at the kill are sent again, never more, and nothing is lost.

The Bot API is slow: a message is in the chat as soon as it is sent, its answer comes back only
later. Each "process" is a relay over its own connection to the same SQLite file; a kill
abandons it in the middle of a send, with nothing after it run (no ``finally``, no commit), as
``kill -9`` would. In flight at the kill means claimed and not marked sent in the file.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.chat_ref import ChatRef
from bot.store import Store

from .support import BOT_LINK, MakeRelay, OpenStore
from .test_end_to_end import manual_dispatch
from .world import MakeWorld

IN_FLIGHT = "SELECT count(*) FROM sent_messages WHERE sent_at IS NULL AND claimed_by IS NOT NULL"
MARKED = "SELECT count(*) FROM sent_messages WHERE sent_at IS NOT NULL"


class SlowBotApi:
    """Telegram as the chats see it: ``delivered`` holds every message the moment it is sent.
    The answer to send number ``kill_at`` never comes back: the process is killed while that
    send is in flight (a slow Bot API makes that window wide), and sends nothing after it."""

    def __init__(self, delivered: list[tuple[int, str]], *, kill_at: int | None = None) -> None:
        self.delivered = delivered
        self.kill_at = kill_at
        self._taken = 0
        self.in_flight = asyncio.Event()
        self._never = asyncio.Event()

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id
        self._taken += 1
        if self.kill_at is not None and self._taken > self.kill_at:
            await self._never.wait()  # killed: the relay sends to other chats at once, but a
            # dead process sends nothing more
        self.delivered.append((chat_id, text))
        if self._taken == self.kill_at:
            self.in_flight.set()
            await self._never.wait()
        return len(self.delivered)

    def otp_link(self, token: str) -> str:
        return BOT_LINK + token


def count(path: Path, query: str) -> int:
    """What the file holds, read as the next process would (committed data only)."""
    with closing(sqlite3.connect(path)) as raw:
        return int(raw.execute(query).fetchone()[0])


async def test_kills_mid_send_repeat_at_most_the_messages_in_flight(
    make_world: MakeWorld, make_relay: MakeRelay, open_store: OpenStore, tmp_path: Path
) -> None:
    world = await make_world(manual_dispatch)
    for _ in range(3):  # each: created and status_changed, to the customer and two operators
        delivery = await world.order()
        await world.client.assign_rider(delivery.id, "rdr_tunde")
        world.clock.advance(1)
    await world.sandbox.drain_webhooks()  # stored and acknowledged; no relay has run
    path = tmp_path / "bot.db"
    delivered: list[tuple[int, str]] = []
    in_flight_at_kills: list[int] = []
    dead: list[tuple[Store, asyncio.Task[Any]]] = []

    for sent_before_kill in (1, 2, 3, 2, 4):  # five kills, each in the middle of a send
        store = await open_store()
        api = SlowBotApi(delivered, kill_at=sent_before_kill)
        worker = asyncio.create_task(make_relay(store, channel=api).process_pending())
        await asyncio.wait_for(api.in_flight.wait(), 5)
        in_flight_at_kills.append(count(path, IN_FLIGHT))
        dead.append((store, worker))  # killed: never resumed, nothing after it runs

    store = await open_store()
    relay = make_relay(store, channel=SlowBotApi(delivered))
    while await relay.process_pending():
        pass

    owed = count(path, MARKED)
    duplicates = len(delivered) - len(set(delivered))
    print(
        f"{len(in_flight_at_kills)} kills, in flight at each {in_flight_at_kills}: "
        f"{duplicates} of {owed} messages sent twice"
    )
    assert (await store.inbox.counts()).pending == 0
    assert len(set(delivered)) == owed  # every message arrived, each under its own marker
    assert all(in_flight >= 1 for in_flight in in_flight_at_kills)
    assert duplicates <= sum(in_flight_at_kills)  # the bound
    assert duplicates >= len(in_flight_at_kills)  # each kill did repeat what it was sending
    for old_store, worker in dead:
        await old_store.close()  # its claims are the file's; closing writes nothing
        worker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await worker
