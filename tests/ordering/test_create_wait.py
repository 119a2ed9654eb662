"""A customer whose create the request limit holds back is told how long, then it goes on."""

from __future__ import annotations

import asyncio

import pytest

from bot.chat_ref import TELEGRAM, ChatRef
from bot.ordering.create_wait import CreateWaitNotice
from bot.partner.request_limiter import RequestLimiter
from bot.relay.channel_protocol import SendFailed
from conversations.texts import dialogue
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from tests.support.clock import FakeClock

CHAT = ChatRef(TELEGRAM, 7)
SHIPPED = BusinessTexts(DEFAULT_TEXTS)
ENGLISH = SHIPPED.catalogue_for(None)  # the business default


async def no_sleep(seconds: float) -> None:
    raise AssertionError("the notice never waits")


class Chats:
    """A channel that keeps what each chat was sent (or fails every send)."""

    def __init__(self, *, failing: bool = False) -> None:
        self.sent: list[tuple[int, str]] = []
        self.failing = failing

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id
        if self.failing:
            raise SendFailed("offline")
        self.sent.append((chat_id, text))
        return len(self.sent)

    def otp_link(self, token: str) -> str:
        return f"https://t.me/bot?start=otp_{token}"


async def full_limiter(clock: FakeClock, starts: int) -> RequestLimiter:
    limiter = RequestLimiter(60, clock=clock, sleep=no_sleep)
    for _ in range(starts):  # each answered at once
        limiter.release(await limiter.acquire())
    return limiter


async def test_a_short_wait_is_not_mentioned() -> None:
    clock, chats = FakeClock(0.0), Chats()
    limiter = await full_limiter(clock, 60)
    clock.now = 57.5  # the next start is free at 60: 2.5 s away
    assert (await CreateWaitNotice(limiter, chats).before_create(CHAT, ENGLISH)).seconds == 2.5
    assert chats.sent == []


async def test_a_long_wait_is_said_with_how_long() -> None:
    clock, chats = FakeClock(0.0), Chats()
    limiter = await full_limiter(clock, 60)
    clock.now = 18.0
    assert (await CreateWaitNotice(limiter, chats).before_create(CHAT, ENGLISH)).seconds == 42.0
    assert chats.sent == [(7, dialogue.create_waiting(ENGLISH, 42.0))]
    assert "about 45 seconds" in chats.sent[0][1]


async def test_a_failed_notice_does_not_stop_the_create() -> None:
    limiter = await full_limiter(FakeClock(0.0), 60)
    foreseen = await CreateWaitNotice(limiter, Chats(failing=True)).before_create(CHAT, ENGLISH)
    assert foreseen.seconds == 60.0


class Unforeseen(RequestLimiter):
    """One request a minute, its slot already taken; a request waits until ``go`` is set. Its
    forecast sees no wait until a request is in line (as another instance's starts, asked for
    at the same moment, are not in the shared budget's forecast yet)."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(1, clock=clock, sleep=self._until_go)
        self.clock = clock
        self.go = asyncio.Event()

    async def _until_go(self, seconds: float) -> None:
        await self.go.wait()
        self.clock.now += seconds

    async def expected_wait(self) -> float:
        return 0.0 if not self._in_line else 42.0


class Told(Chats):
    def __init__(self) -> None:
        super().__init__()
        self.told = asyncio.Event()

    async def send(self, chat: ChatRef, text: str) -> int | None:
        self.told.set()
        return await super().send(chat, text)


async def test_a_wait_nobody_foresaw_is_said_while_the_request_still_waits() -> None:
    limiter, chats = Unforeseen(FakeClock(0.0)), Told()
    await limiter.acquire()  # the minute's one start, taken
    notice = CreateWaitNotice(limiter, chats, threshold_seconds=0.02)
    foreseen = await notice.before_create(CHAT, ENGLISH)
    assert foreseen.seconds == 0.0
    assert chats.sent == []
    create = asyncio.create_task(limiter.acquire(foreseen.held_back))  # the create's request
    async with asyncio.timeout(5):
        await chats.told.wait()
    assert chats.sent == [(7, dialogue.create_waiting(ENGLISH, 42.0))]
    assert not create.done()
    limiter.go.set()
    await create


async def test_a_late_notice_is_said_in_the_language_of_the_turn_that_armed_it() -> None:
    limiter, chats = Unforeseen(FakeClock(0.0)), Told()
    await limiter.acquire()
    notice = CreateWaitNotice(limiter, chats, threshold_seconds=0.02)
    turn = SHIPPED.catalogue_for("fr")  # the customer's turn, said in French
    foreseen = await notice.before_create(CHAT, turn)
    create = asyncio.create_task(limiter.acquire(foreseen.held_back))
    french = dialogue.create_waiting(turn, 42.0)
    async with asyncio.timeout(5):
        await chats.told.wait()
    assert chats.sent == [(7, french)] and french != dialogue.create_waiting(ENGLISH, 42.0)
    limiter.go.set()
    await create


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (3.2, "about 5 seconds"),
        (42.0, "about 45 seconds"),
        (89.0, "about 90 seconds"),
        (95.0, "about 2 minutes"),
        (60 * 4.5, "about 5 minutes"),
    ],
)
def test_the_wait_is_said_in_round_figures(seconds: float, said: str) -> None:
    assert said in dialogue.create_waiting(ENGLISH, seconds)
