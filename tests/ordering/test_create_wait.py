"""A customer whose create the request limit holds back is told how long, then it goes on."""

from __future__ import annotations

import pytest

from bot.ordering.create_wait import CreateWaitNotice
from bot.partner.request_limiter import RequestLimiter
from bot.relay.channel_protocol import SendFailed
from conversations.texts import dialogue


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def no_sleep(seconds: float) -> None:
    raise AssertionError("the notice never waits")


class Chats:
    """A channel that keeps what each chat was sent (or fails every send)."""

    def __init__(self, *, failing: bool = False) -> None:
        self.sent: list[tuple[int, str]] = []
        self.failing = failing

    async def send(self, chat_id: int, text: str) -> int | None:
        if self.failing:
            raise SendFailed("offline")
        self.sent.append((chat_id, text))
        return len(self.sent)

    def otp_link(self, token: str) -> str:
        return f"https://t.me/bot?start=otp_{token}"


async def full_limiter(clock: Clock, starts: int) -> RequestLimiter:
    limiter = RequestLimiter(60, clock=clock, sleep=no_sleep)
    for _ in range(starts):
        await limiter.acquire()
    return limiter


async def test_a_short_wait_is_not_mentioned() -> None:
    clock, chats = Clock(), Chats()
    limiter = await full_limiter(clock, 60)
    clock.now = 57.5  # the next start is free at 60: 2.5 s away
    assert await CreateWaitNotice(limiter, chats).before_create(7) == 2.5
    assert chats.sent == []


async def test_a_long_wait_is_said_with_how_long() -> None:
    clock, chats = Clock(), Chats()
    limiter = await full_limiter(clock, 60)
    clock.now = 18.0
    assert await CreateWaitNotice(limiter, chats).before_create(7) == 42.0
    assert chats.sent == [(7, dialogue.create_waiting(42.0))]
    assert "about 45 seconds" in chats.sent[0][1]


async def test_a_failed_notice_does_not_stop_the_create() -> None:
    limiter = await full_limiter(Clock(), 60)
    assert await CreateWaitNotice(limiter, Chats(failing=True)).before_create(7) == 60.0


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
    assert said in dialogue.create_waiting(seconds)
