"""Creates recorded before they are sent (``store.create_intents``): committed before the
request leaves, settled by its answer, and finished by the follow-up when the sender died with
the create in flight (here: its task cancelled mid-request, which leaves what a kill -9 leaves).

Real sandbox, client and SQLite store; the Partner transport can hold a create's answer (or the
create itself) for ever, as a killed process never reads it.
"""

from __future__ import annotations

import asyncio
import sqlite3

import httpx
import pytest

from bot.ordering.recorded_creates import LEASE_SECONDS
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest
from bot.store import Store, create_intents
from conversations import Session, Turn
from tests.relay.support import RecordingChannel

from .conftest import CONFIRM_ANSWER, TO_SUMMARY, Org
from .test_lost_answers import CHAT, USER, Bot, lose_create_answers, sandbox_deliveries


class WatchedCreates(httpx.AsyncBaseTransport):
    """The sandbox's transport, noting how many intents were committed as each create left.
    With ``stall``, a create is then held for ever, before it reaches the sandbox
    (``land=False``) or after the sandbox applied it (``land=True``): its sender dies waiting.
    """

    def __init__(
        self, inner: httpx.AsyncBaseTransport, store: Store, *, stall: bool, land: bool
    ) -> None:
        self._inner = inner
        self._store = store
        self._stall = stall
        self._land = land
        self.stalled = asyncio.Event()
        self.intents_seen: list[int] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "POST" or not request.url.path.endswith("/deliveries"):
            return await self._inner.handle_async_request(request)
        self.intents_seen.append(await self._store.create_intents.count())
        if not self._stall:
            return await self._inner.handle_async_request(request)
        if self._land:
            await self._inner.handle_async_request(request)
        self.stalled.set()
        await asyncio.Event().wait()  # never answered
        raise AssertionError("unreachable")


async def swap_client(org: Org, transport: httpx.AsyncBaseTransport | None = None) -> None:
    """Give ``org`` a new client over ``transport`` (the sandbox's own by default), closing
    the one it had; before a ``Bot`` is built on it."""
    old = org.client
    org.client = PartnerClient(
        org.sandbox.base_url,
        org.sandbox.api_key,
        transport=transport or httpx.ASGITransport(app=org.sandbox.app),
        clock=org.clock,
        sleep=org.clock.sleep,
    )
    org.cache = CapabilityCache.for_client(org.client, clock=org.clock)
    await old.aclose()


async def watch_creates(
    org: Org, store: Store, *, stall: bool = False, land: bool = False
) -> WatchedCreates:
    inner = httpx.ASGITransport(app=org.sandbox.app)
    watched = WatchedCreates(inner, store, stall=stall, land=land)
    await swap_client(org, watched)
    return watched


async def test_a_create_is_recorded_before_it_leaves_and_settled_with_its_link(org: Org) -> None:
    assert org.store is not None
    sent = await watch_creates(org, org.store)
    bot = Bot(org, org.store, RecordingChannel())

    turn = await bot.order()

    assert turn.status == "created"
    assert sent.intents_seen == [1]  # committed before the request left
    assert await org.store.create_intents.count() == 0  # settled with the answer
    (made,) = sandbox_deliveries(org)
    link = await org.store.deliveries.get(made["id"])
    assert link is not None and (link.chat, link.user_id) == (CHAT, USER.id)
    assert await bot.chats.history.last_order(USER) is not None


async def test_a_refused_create_leaves_no_intent(org: Org) -> None:
    assert org.store is not None
    bot = Bot(org, org.store, RecordingChannel())
    org.sandbox.inject_fault("create_delivery", "status", 1, status=403, code="service_disabled")

    turn = await bot.order()

    assert turn.status != "created" and sandbox_deliveries(org) == []
    assert await org.store.create_intents.count() == 0
    assert await org.store.unconfirmed.count_open() == 0


async def test_an_unknown_outcome_moves_the_intent_to_the_unconfirmed_creates(org: Org) -> None:
    assert org.store is not None
    bot = Bot(org, org.store, RecordingChannel())
    lose_create_answers(org)

    turn = await bot.order()

    assert turn.status == "unconfirmed"
    assert await org.store.create_intents.count() == 0
    assert await org.store.unconfirmed.count_open() == 1


async def order_and_die(bot: Bot, watched: WatchedCreates) -> None:
    """Confirm an order; end its turn while the create is in flight, as a kill would (the
    lease is no longer renewed, the answer never read)."""
    ordering = asyncio.create_task(bot.order())
    stalled = asyncio.create_task(watched.stalled.wait())
    await asyncio.wait([ordering, stalled], return_when=asyncio.FIRST_COMPLETED)
    stalled.cancel()
    assert not ordering.done(), ordering.result()  # it stalls in flight
    ordering.cancel()
    await asyncio.gather(ordering, return_exceptions=True)


async def another_process(org: Org, store: Store, channel: RecordingChannel) -> Bot:
    """A bot on the same store with a client of its own (the dead one's never answers)."""
    await swap_client(org)
    return Bot(org, store, channel)


async def test_a_create_whose_sender_died_after_it_landed_is_found_linked_and_told(
    org: Org,
) -> None:
    assert org.store is not None
    store = org.store
    channel = RecordingChannel()
    watched = await watch_creates(org, store, stall=True, land=True)
    await order_and_die(Bot(org, store, channel), watched)
    (made,) = sandbox_deliveries(org)
    assert await store.deliveries.get(made["id"]) is None  # linked to no chat yet
    assert await store.create_intents.count() == 1

    other = await another_process(org, store, channel)
    assert await other.follow_up.run_once() is not None  # the lease still runs: not taken
    assert await store.unconfirmed.count_open() == 0 and channel.sent == []
    org.clock.advance(LEASE_SECONDS)
    await other.follow_up.run_once()

    assert await store.create_intents.count() == 0
    link = await store.deliveries.get(made["id"])
    assert link is not None and (link.chat, link.user_id) == (CHAT, USER.id)
    assert await other.chats.history.last_order(USER) is not None  # "repeat" works
    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Good news") and made["id"] in told
    assert org.calls("create_delivery") == 1  # found by the read-back, not sent again
    assert await store.unconfirmed.count_open() == 0


async def test_a_create_whose_sender_died_before_it_landed_is_sent_again_with_its_key(
    org: Org,
) -> None:
    assert org.store is not None
    store = org.store
    channel = RecordingChannel()
    watched = await watch_creates(org, store, stall=True)
    await order_and_die(Bot(org, store, channel), watched)
    assert sandbox_deliveries(org) == []
    (row,) = await store._db.fetch_all("SELECT request FROM create_intents")
    recorded = CreateDeliveryRequest.model_validate_json(str(row[0]))

    other = await another_process(org, store, channel)
    org.clock.advance(LEASE_SECONDS)
    await other.follow_up.run_once()

    (made,) = sandbox_deliveries(org)
    link = await store.deliveries.get(made["id"])
    assert link is not None and link.chat == CHAT
    (told,) = channel.texts(CHAT.id)
    assert made["id"] in told
    assert await store.create_intents.count() == 0
    # Sent with the recorded key: the same request again is the same delivery.
    assert (await org.client.create_delivery(recorded)).id == made["id"]
    assert len(sandbox_deliveries(org)) == 1


async def test_a_create_whose_intent_cannot_be_written_is_not_sent_and_its_key_not_kept(
    org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's move to "creating" (its new key) is written in the intent's commit: when
    that commit fails, neither is kept and nothing leaves."""
    assert org.store is not None
    bot = Bot(org, org.store, RecordingChannel())
    monkeypatch.setattr(create_intents, "_RECORD", "INSERT INTO no_such_table VALUES (1)")

    with pytest.raises(sqlite3.Error):
        await bot.order()

    assert org.calls("create_delivery") == 0
    assert await org.store.create_intents.count() == 0
    saved = await org.store.sessions.get(CHAT)
    assert saved is not None
    session = Session.model_validate_json(saved.data)
    assert (session.step, session.idempotency_key) == ("summary", None)


# --- answered, the customer not told yet: the reply is owed -------------------------------------


async def at_the_summary(bot: Bot) -> None:
    await bot.chats.start(CHAT, USER)
    for answer in TO_SUMMARY:
        await bot.chats.handle(CHAT, USER, answer)


async def test_a_sender_that_died_before_its_reply_went_out_gets_its_customer_told_once(
    org: Org,
) -> None:
    """The create's answer arrived and the delivery was linked; the process died while the
    reply was on its way (here: its task cancelled inside the reply, which leaves what a kill
    -9 leaves). The intent stays, answered: a lease later another process tells the customer."""
    assert org.store is not None
    store = org.store
    channel = RecordingChannel()
    bot = Bot(org, store, channel)
    await at_the_summary(bot)
    replying = asyncio.Event()

    async def reply_never_sent(turn: Turn) -> None:
        assert turn.status == "created"
        replying.set()
        await asyncio.Event().wait()  # the process dies here

    confirm = bot.chats.handle(CHAT, USER, CONFIRM_ANSWER, reply=reply_never_sent)
    confirming = asyncio.create_task(confirm)
    await replying.wait()
    confirming.cancel()
    await asyncio.gather(confirming, return_exceptions=True)

    (made,) = sandbox_deliveries(org)
    link = await store.deliveries.get(made["id"])
    assert link is not None and link.chat == CHAT  # linked in the answer's commit
    assert await store.create_intents.count() == 1  # answered, the customer not told

    other = await another_process(org, store, channel)
    await other.follow_up.run_once()
    assert channel.sent == []  # the lease still runs
    org.clock.advance(LEASE_SECONDS)
    await other.follow_up.run_once()

    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Good news") and made["id"] in told
    assert org.calls("create_delivery") == 1  # told, not read back nor sent again
    assert await store.create_intents.count() == 0
    assert await store.unconfirmed.due(org.clock() + 3600) == []
    org.clock.advance(3600)
    await other.follow_up.run_once()
    assert len(channel.sent) == 1  # once


async def test_a_created_turn_whose_reply_went_out_leaves_the_follow_up_nothing(org: Org) -> None:
    assert org.store is not None
    store = org.store
    channel = RecordingChannel()
    bot = Bot(org, store, channel)
    await at_the_summary(bot)
    replies: list[Turn] = []

    async def reply(turn: Turn) -> None:
        assert await store.create_intents.count() == 1  # owed until the reply is out
        replies.append(turn)

    turn = await bot.chats.handle(CHAT, USER, CONFIRM_ANSWER, reply=reply)

    assert turn.status == "created" and replies == [turn]
    assert await store.create_intents.count() == 0
    org.clock.advance(LEASE_SECONDS)
    await bot.follow_up.run_once()
    assert channel.sent == []  # the customer had the turn's reply: told once
