"""Two instances of the bot on one PostgreSQL database keep Telegram's limits together.

Each instance is a ``TelegramSender`` over its own ``Store`` (its own connections), paced by a
``RateLimiter`` over the store's send budget. Both send a burst at once, to one private chat,
one group and many chats, through a fake Bot API that answers 429 to any send past Telegram's
limits (``SendLimits``' figures, without the bot's margin or its group burst: what Telegram
counts). Sharing the budget, they cause no 429; each keeping only its own limits, the same
burst does (the fake does refuse, so the first test can fail). A 429 one instance gets holds
its chat, or every chat when it is about the whole bot, on the other too.

Time is virtual: sleeps wait for the clock, which moves on only when every sender is asleep
(none is talking to the database), straight to the earliest wake.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any, cast

import pytest
from telegram import Bot
from telegram.error import RetryAfter

from bot.store import Store
from bot.store.pg_database import PgDatabase
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_send_limits import PgSendBudget
from bot.store.send_limits import UNSHARED_SEND_BUDGET, SendBudget
from bot.telegram.limits import RateLimiter, SendLimits, Window
from bot.telegram.message_sender import Delivered, TelegramSender
from bot.telegram.turn_messages import OutgoingMessage
from tests.store.pg_instances import pg_instances

ONE_CHAT, GROUP = 1001, -100200
MANY_CHATS = range(2000, 2040)
SENDS_TO_ONE_CHAT = 8


class VirtualTime:
    """A clock and a sleep: ``run`` moves the clock to the earliest wake once every task it
    runs is asleep or done."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._changed = asyncio.Event()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(seconds, 0.0), next(self._order), wake))
        self._changed.set()
        await wake

    async def run(self, work: list[Coroutine[Any, Any, None]]) -> None:
        tasks = [asyncio.create_task(job) for job in work]
        for task in tasks:
            task.add_done_callback(lambda _: self._changed.set())
        async with asyncio.timeout(60):
            while running := sum(not task.done() for task in tasks):
                if len(self._sleepers) < running:  # someone is still at work
                    self._changed.clear()
                    await self._changed.wait()
                    continue
                moment, _, wake = heapq.heappop(self._sleepers)
                self.now = max(self.now, moment)
                wake.set_result(None)
                await asyncio.sleep(0)
        await asyncio.gather(*tasks)


class StrictBotApi:
    """The Bot API's sends, refused with 429 past Telegram's limits: ``limits``' overall,
    private-chat and group windows, each exactly as long as Telegram's."""

    def __init__(self, time: VirtualTime, limits: SendLimits) -> None:
        self._time = time
        self._overall = limits.overall
        self._private = limits.private_chat
        self._group = limits.group_chat
        self.sent: list[tuple[float, int]] = []
        self.refused = 0
        self.told_to_wait = 0  # 429s answered on purpose (Telegram's own reasons), not counted
        # Until then every send is answered 429 (the bot as a whole is over Telegram's limit).
        self.flooded_until = 0.0
        self.flood_refused: list[tuple[float, int]] = []
        self._ids = itertools.count(1)

    @property
    def username(self) -> str:
        return "strict_bot"

    async def _post(self, endpoint: str, params: dict[str, object]) -> dict[str, object]:
        assert endpoint == "sendMessage"
        chat_id = cast(int, params["chat_id"])
        now = self._time.clock()
        if self.told_to_wait:
            self.told_to_wait -= 1
            raise RetryAfter(5)
        if now < self.flooded_until:
            self.flood_refused.append((now, chat_id))
            raise RetryAfter(int(self.flooded_until - now))
        chat_window = self._group if chat_id < 0 else self._private
        if self._full(self._overall, now, None) or self._full(chat_window, now, chat_id):
            self.refused += 1
            raise RetryAfter(1)
        self.sent.append((now, chat_id))
        return {"message_id": next(self._ids), "chat": {"id": chat_id}}

    def _full(self, window: Window, now: float, chat_id: int | None) -> bool:
        recent = [
            at
            for at, chat in self.sent
            if at > now - window.seconds and (chat_id is None or chat == chat_id)
        ]
        return len(recent) >= window.count


@pytest.fixture
async def instances(postgres_server: LocalPostgres, tmp_path: Path) -> AsyncIterator[list[Store]]:
    async with pg_instances(postgres_server, tmp_path / "media") as stores:
        yield stores


def sender(
    store: Store, api: StrictBotApi, time: VirtualTime, budget: SendBudget
) -> TelegramSender:
    limiter = RateLimiter(clock=time.clock, sleep=time.sleep, budget=budget)
    return TelegramSender(cast(Bot, api), store, limiter=limiter)


async def burst(senders: list[TelegramSender], time: VirtualTime) -> list[bool]:
    """Every sender at once: a run of messages to one chat and to one group (each in order,
    as the relay sends a chat's), and one to each of many chats. Whether each was delivered."""
    delivered: list[bool] = []

    async def to_chat(one: TelegramSender, chat_id: int, count: int) -> None:
        for n in range(count):
            result = await one.send_message(chat_id, OutgoingMessage(f"news {n}"))
            delivered.append(isinstance(result, Delivered))

    work = []
    for one in senders:
        work += [to_chat(one, ONE_CHAT, SENDS_TO_ONE_CHAT), to_chat(one, GROUP, SENDS_TO_ONE_CHAT)]
        work += [to_chat(one, chat_id, 1) for chat_id in MANY_CHATS]
    await time.run(work)
    return delivered


def pg_budget(store: Store, time: VirtualTime) -> PgSendBudget:
    db = store._db
    assert isinstance(db, PgDatabase)
    return PgSendBudget(db, clock=time.clock)  # the senders' virtual clock, not the server's


async def test_two_instances_sharing_the_budget_cause_no_429(instances: list[Store]) -> None:
    time = VirtualTime()
    api = StrictBotApi(time, SendLimits())
    senders = [sender(store, api, time, pg_budget(store, time)) for store in instances]
    delivered = await burst(senders, time)
    assert api.refused == 0
    assert all(delivered) and len(delivered) == 2 * (2 * SENDS_TO_ONE_CHAT + len(MANY_CHATS))
    # Paced, not starved: the group's 16 go at 3 in any 9 s, within a minute.
    assert time.now - 1000.0 < 60.0


async def test_two_instances_each_keeping_only_its_own_limits_are_refused(
    instances: list[Store],
) -> None:
    time = VirtualTime()
    api = StrictBotApi(time, SendLimits())
    senders = [sender(store, api, time, UNSHARED_SEND_BUDGET) for store in instances]
    await burst(senders, time)
    assert api.refused > 0


async def test_a_429_one_instance_got_holds_that_chat_back_on_the_other(
    instances: list[Store],
) -> None:
    time = VirtualTime()
    api = StrictBotApi(time, SendLimits())
    first, second = (sender(store, api, time, pg_budget(store, time)) for store in instances)
    api.told_to_wait = 1  # the first send is told to wait 5 s

    async def send(one: TelegramSender, text: str, after: float) -> None:
        await time.sleep(after)
        assert isinstance(await one.send_message(ONE_CHAT, OutgoingMessage(text)), Delivered)

    # The second asks a second later, within the hold: it waits for it too, instead of being
    # refused (by its own windows alone it would send at once).
    await time.run([send(first, "first", 0.0), send(second, "second", 1.0)])
    assert [at for at, _ in api.sent] == [1005.0, 1005.0]
    assert api.refused == 0


async def test_a_429_about_the_whole_bot_holds_every_chat_on_both_instances(
    instances: list[Store],
) -> None:
    time = VirtualTime()
    api = StrictBotApi(time, SendLimits())
    api.flooded_until = 1005.0  # Telegram refuses every send for 5 s
    first, second = (sender(store, api, time, pg_budget(store, time)) for store in instances)

    async def send(one: TelegramSender, chat_id: int, after: float) -> None:
        await time.sleep(after)
        assert isinstance(await one.send_message(chat_id, OutgoingMessage("news")), Delivered)

    # The first instance's only message to its chat is refused: no chat's limit explains it,
    # so every chat is held, on both instances. The second, a second later, sends to many
    # other chats: none is tried before the hold ends, and none is refused.
    others = [send(second, chat_id, 1.0) for chat_id in MANY_CHATS]
    await time.run([send(first, ONE_CHAT, 0.0), *others])
    assert api.flood_refused == [(1000.0, ONE_CHAT)]
    assert api.refused == 0
    assert min(at for at, _ in api.sent) == 1005.0
    assert {chat for _, chat in api.sent} == {ONE_CHAT, *MANY_CHATS}
