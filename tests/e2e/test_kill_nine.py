"""``kill -9`` with a slow Bot API: the real ``deliverybot run``, killed five times while it
relays partner webhooks, repeats at most the messages in flight at the kills and loses none.

The bot runs as a child process (``python -m bot run``) in polling mode, its web app on a
loopback port taking the sandbox's signed events (``Service-Signature: t=...,v1=...``), which
are posted to it until acknowledged. The fake Bot API holds each ``sendMessage`` answer for
0.3 s after the message reached its chat. Each kill lands when the fake has taken the chosen
send of that run (an awaited event, not a timer), so the process dies waiting for that answer;
the bot then starts again on the same SQLite file. A send is in flight at a kill when the fake
took it and the file does not mark it sent (``sent_messages``): the bot had not finished it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.partner.client import PartnerClient
from bot.runtime.serving import listening_socket, start_web_server
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.sandbox.operations import API_PREFIX
from bot.store import Store
from tests.e2e.kill_nine_harness import (
    Arrival,
    BotProcess,
    EventRecorder,
    PartnerDelivery,
    SignedEvent,
    SlowSends,
)
from tests.fakes import FakeTelegram, TgChat, TgUser
from tests.relay.world import RECEIVER, image_host, order, public_resolver

SEND_DELAY = 0.3  # seconds the Bot API takes to answer each sendMessage
KILL_AT = (1, 2, 3, 2, 4)  # each run is killed when the fake takes this send of the run
CUSTOMERS = (TgUser(3001, "Ada"), TgUser(3002, "Bola"))
OPERATORS = TgChat.group(-100700, "Dispatch")
TELLS_THE_CUSTOMER = {"delivery.status_changed", "delivery.completed"}
WEBHOOK_PATH = "/hooks/partner"

MARKED = "SELECT event_id, chat_id, kind, message_id FROM sent_messages WHERE sent_at IS NOT NULL"
PENDING = "SELECT count(*) FROM inbox WHERE processed_at IS NULL"


@dataclass(frozen=True)
class Marked:
    """A message the file records as sent: its cause, chat, kind and Telegram message id."""

    event_id: str
    chat_id: int
    kind: str
    message_id: int


def marked(db_path: Path) -> list[Marked]:
    """The sent markers, read as the next process would (committed data only)."""
    with closing(sqlite3.connect(db_path)) as raw:
        return [Marked(*row) for row in raw.execute(MARKED)]


def unfinished(arrivals: Sequence[Arrival], db_path: Path) -> int:
    """How many of ``arrivals`` the file does not mark sent: in flight at a kill."""
    done = {(m.chat_id, m.message_id) for m in marked(db_path)}
    return sum((a.chat_id, a.message_id) not in done for a in arrivals)


@pytest.fixture
async def sandbox() -> AsyncIterator[tuple[Sandbox, EventRecorder]]:
    """The sandbox on a loopback port (the bot's Partner API), its webhooks recorded."""
    data = default_scenario_data()
    data["capabilities"]["publicRequest"]["autoDispatch"] = False  # riders move when told
    # Set off unpaid and delivered on photo proof: no payment or drop-off code to wait for.
    data["capabilities"]["paymentTiming"] = "after_delivery"
    data["capabilities"]["requireDeliveryOtp"] = False
    sock = listening_socket("127.0.0.1", 0)
    recorder = EventRecorder()
    sandbox = Sandbox(
        parse_scenario(data),
        webhook_transport=recorder,
        image_transport=image_host(),
        resolver=public_resolver,
        base_url=f"http://127.0.0.1:{sock.getsockname()[1]}{API_PREFIX}",
    )
    server = await start_web_server(sandbox.app, [sock])
    try:
        async with sandbox:
            yield sandbox, recorder
    finally:
        await server.shutdown(sockets=[sock])


async def deliveries_with_events(
    sandbox: Sandbox, recorder: EventRecorder, db_path: Path
) -> dict[int, list[SignedEvent]]:
    """One delivery per customer, linked to their chat as the ordering service links it, then
    assigned and taken to delivered; each chat's signed events, in the sandbox's order."""
    by_chat: dict[int, list[SignedEvent]] = {}
    async with (
        PartnerClient(sandbox.base_url, sandbox.api_key) as client,
        Store.open(db_path) as store,
    ):
        for customer in CUSTOMERS:
            delivery = await client.create_delivery(order())
            await store.deliveries.add(
                delivery.id, ChatRef("telegram", customer.id), customer.id, 0.0, RECEIVER,
                delivery.tracking_url, delivery.status,
                tracking_sent=True,  # the create's answer gave the link
            )  # fmt: skip
            await client.assign_rider(delivery.id, "rdr_tunde")
            for _ in range(3):  # picked_up, in_transit, delivered
                sandbox.advance_status(delivery.id)
            await sandbox.drain_webhooks()
            by_chat[customer.id] = [e for e in recorder.events if e.delivery_id == delivery.id]
    return by_chat


def interleaved(by_chat: dict[int, list[SignedEvent]]) -> list[SignedEvent]:
    """Every chat's events, round by round: the relay works on all chats at once."""
    rounds = max(len(events) for events in by_chat.values())
    return [events[i] for i in range(rounds) for events in by_chat.values() if i < len(events)]


def write_config(path: Path, *, sandbox: Sandbox, tg: FakeTelegram, port: int) -> None:
    path.write_text(
        f"""
[partner]
base_url = "{sandbox.base_url}"
api_key = "{sandbox.api_key}"

[telegram]
token = "{tg.token}"
api_base_url = "{tg.api_base_url}"
public_base_url = "http://127.0.0.1:{port}"
listen_port = {port}
drain_seconds = 0  # stopped with SIGTERM: no proxy to drain for

[webhooks]
enabled = true
signing_secret = "{sandbox.signing_secret}"
path = "{WEBHOOK_PATH}"

[operators]
chat_ids = [{OPERATORS.id}]

[storage]
path = "bot.sqlite3"
"""
    )


async def inbox_drained(base_url: str, *, timeout: float = 5.0) -> None:
    """Return once the running bot's ``/health`` reports nothing pending in its inbox.

    The relay finishes an event only once the fake answered its messages, and a child process
    has no event this test could await, so its health check is read.
    """
    async with httpx.AsyncClient() as web, asyncio.timeout(timeout):
        while (await web.get(f"{base_url}/health")).json()["inbox_pending"]:  # noqa: ASYNC110
            await asyncio.sleep(0.02)


def free_port() -> int:
    with closing(listening_socket("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


async def test_kill_nine_mid_send_repeats_at_most_the_sends_in_flight(
    sandbox: tuple[Sandbox, EventRecorder], tmp_path: Path
) -> None:
    partner, recorder = sandbox
    db_path = tmp_path / "bot.sqlite3"
    by_chat = await deliveries_with_events(partner, recorder, db_path)
    events = interleaved(by_chat)
    owed = {(e.event_id, OPERATORS.id, "operator") for e in events} | {
        (e.event_id, chat_id, "update")
        for chat_id, chat_events in by_chat.items()
        for e in chat_events
        if e.event_type in TELLS_THE_CUSTOMER
    }
    tg = FakeTelegram()
    slow = SlowSends(tg.app, delay=SEND_DELAY)
    tg.app = slow  # type: ignore[assignment]  # uvicorn serves any ASGI app
    for chat in (*CUSTOMERS, OPERATORS):
        tg.add_chat(chat)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    in_flight: list[int] = []
    unanswered: list[int] = []  # of those, the ones still waiting for the fake's answer
    async with tg.serving():
        write_config(tmp_path / "bot.toml", sandbox=partner, tg=tg, port=port)
        bot = BotProcess(tmp_path / "bot.toml", slow, tmp_path / "bot.log")
        sender = PartnerDelivery(base_url + WEBHOOK_PATH, bot)
        posting: asyncio.Task[None] | None = None
        try:
            await bot.start()
            posting = asyncio.create_task(sender.post_all(events))
            run_start = 0
            for kill_at in KILL_AT:
                await slow.sends_reach(run_start + kill_at)
                unanswered.append(len(slow.unanswered))
                await bot.kill()
                in_flight.append(unfinished(slow.arrivals[run_start:], db_path))
                run_start = len(slow.arrivals)
                await bot.start()
            await asyncio.wait_for(posting, timeout=20)
            # Every event relayed; the operators' group, allowed 3 messages in any 9 s, gets
            # its later news gathered (one message may carry several marked ones).
            await inbox_drained(base_url, timeout=30)
            await slow.all_answered(0)
            assert await bot.stop() == 0
        finally:
            if posting is not None:
                posting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await posting
            await bot.ensure_dead()

    sent = tg.sent_messages()
    marks = marked(db_path)
    duplicates = len(sent) - len({(m.chat_id, m.message_id) for m in marks})
    print(
        f"{len(events)} events, {len(marks)} messages, {len(KILL_AT)} kills; in flight at "
        f"each kill {in_flight} (unanswered {unanswered}): {duplicates} messages sent twice "
        f"(bound {sum(in_flight)}); "
        f"{sender.refused} posts refused while the bot was down"
    )

    # Every acknowledged event was relayed, each of its messages marked under its own key.
    assert sorted(sender.acknowledged) == sorted(e.event_id for e in events)
    with closing(sqlite3.connect(db_path)) as raw:
        assert raw.execute(PENDING).fetchone()[0] == 0
    assert {(m.event_id, m.chat_id, m.kind) for m in marks} == owed
    # ... and each marker names a message that really reached its chat.
    arrived = {(m.chat_id, m.message_id): m.text for m in sent}
    assert all((m.chat_id, m.message_id) in arrived for m in marks)
    # Nothing else was sent: every message is a marked one or a copy of one.
    copies_of = {(m.chat_id, arrived[(m.chat_id, m.message_id)]) for m in marks}
    assert {(m.chat_id, m.text) for m in sent} == copies_of

    # The bound: what was repeated is at most what was in flight at the kills, and each kill
    # did repeat the send it interrupted.
    assert all(count >= 1 for count in in_flight)
    assert len(KILL_AT) <= duplicates <= sum(in_flight)

    # No chat moves back: each customer sees its events in order; a repeat only ever follows
    # its original directly (the resend after a restart).
    async with Store.open(db_path) as store:
        for chat_id, chat_events in by_chat.items():
            position = {e.event_id: i for i, e in enumerate(chat_events)}
            event_of = {
                arrived[(m.chat_id, m.message_id)]: m.event_id
                for m in marks
                if m.chat_id == chat_id
            }
            assert len(event_of) == sum(m.chat_id == chat_id for m in marks)  # texts tell apart
            seen = [position[event_of[m.text or ""]] for m in tg.sent_messages(chat_id)]
            shown = [p for i, p in enumerate(seen) if i == 0 or p != seen[i - 1]]
            assert shown == sorted(set(shown)), f"chat {chat_id} moved back: {seen}"
            link = await store.deliveries.get(chat_events[0].delivery_id)
            assert link is not None and link.status == "delivered"
