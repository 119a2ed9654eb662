"""Telegram's sending limits, kept before each send instead of learned from 429s.

Telegram allows about 30 messages a second in all, about one a second in a private chat
(short bursts pass) and 20 a minute in a group. Each limit is a sliding window: at most
``count`` sends in any ``seconds``. A send books the earliest slot every window allows and
waits for it; booking is synchronous, so concurrent senders never share a slot.

When Telegram still answers 429 with ``retry_after``, only that chat is held back
(``hold``); other chats keep their own pace. Time comes from an injected monotonic clock and
sleep, so tests run the limits in scaled or fake time.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from bot.clocks import Clock, Sleep

_PRUNE_ABOVE: Final = 1024  # chats remembered before idle ones are forgotten


@dataclass(frozen=True)
class Window:
    """At most ``count`` sends in any ``seconds``."""

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or self.seconds <= 0:
            raise ValueError("a window allows at least one send in a positive time")


@dataclass(frozen=True)
class SendLimits:
    """The limits a ``Sender`` keeps, and how it treats Telegram's 429 answers.

    A private chat gets bursts of 3 at an average of one message a second: a turn's notes and
    prompt arrive together, and the sustained rate stays at Telegram's guideline. A 429 is
    retried up to ``max_attempts`` sends in all, unless Telegram asks for a wait longer than
    ``longest_wait`` seconds (then the send gives up at once; the chat stays held).
    """

    overall: Window = field(default_factory=lambda: Window(30, 1.0))
    private_chat: Window = field(default_factory=lambda: Window(3, 3.0))
    group_chat: Window = field(default_factory=lambda: Window(20, 60.0))
    max_attempts: int = 3
    longest_wait: float = 60.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts counts the first send: at least 1")


class SlidingWindow:
    """Slots booked under one ``Window``: the last ``count`` booked times."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self._booked: deque[float] = deque(maxlen=window.count)

    def book(self, now: float, not_before: float = 0.0) -> float:
        """Book the earliest slot at or after ``now`` and ``not_before``; return its time."""
        slot = self.next_slot(now, not_before)
        # Slots only grow (now and the oldest booking do), so the deque stays sorted.
        self._booked.append(slot)
        return slot

    def next_slot(self, now: float, not_before: float = 0.0) -> float:
        """The slot ``book`` would give now, without booking it."""
        slot = max(now, not_before)
        if len(self._booked) == self.window.count:
            slot = max(slot, self._booked[0] + self.window.seconds)
        return slot

    def idle(self, now: float) -> bool:
        """True when no booking still limits a send at ``now``."""
        return not self._booked or self._booked[-1] + self.window.seconds <= now


class RateLimiter:
    """The overall window, one window per chat (groups have negative ids), and holds."""

    def __init__(
        self,
        limits: SendLimits | None = None,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.limits = limits or SendLimits()
        self.clock = clock
        self.sleep = sleep
        self._overall = SlidingWindow(self.limits.overall)
        self._chats: dict[int, SlidingWindow] = {}
        self._held_until: dict[int, float] = {}

    async def acquire(self, chat_id: int) -> None:
        """Wait until a message may go to ``chat_id``, and count it as sent then."""
        # The chat's turn first, then the overall one: booking an overall slot for a chat that
        # is still held would keep that slot from every other chat.
        held = self._held_until.get(chat_id, 0.0)
        await self._until(self._chat_window(chat_id).book(self.clock(), held))
        await self._until(self._overall.book(self.clock()))

    def delay_for(self, chat_id: int) -> float:
        """Seconds a message to ``chat_id`` would wait for its turn if sent now (0: none).

        Nothing is booked: the relay asks this to learn whether a chat has a backlog, and then
        gathers the chat's pending news into one message instead of queueing each.
        """
        now = self.clock()
        held = self._held_until.get(chat_id, 0.0)
        chat = self._chats.get(chat_id)
        slot = held if chat is None else chat.next_slot(now, held)
        return max(0.0, self._overall.next_slot(now, slot) - now)

    def hold(self, chat_id: int, seconds: float) -> None:
        """Send nothing more to ``chat_id`` for ``seconds`` (Telegram's ``retry_after``)."""
        until = self.clock() + seconds
        self._held_until[chat_id] = max(self._held_until.get(chat_id, 0.0), until)

    def held_for(self, chat_id: int) -> float:
        """Seconds until ``chat_id`` may be sent to again because of a hold (0 if none)."""
        return max(0.0, self._held_until.get(chat_id, 0.0) - self.clock())

    def window_for(self, chat_id: int) -> Window:
        """The per-chat limit of ``chat_id``: group chats have negative ids."""
        return self.limits.group_chat if chat_id < 0 else self.limits.private_chat

    def _chat_window(self, chat_id: int) -> SlidingWindow:
        window = self._chats.get(chat_id)
        if window is None:
            if len(self._chats) >= _PRUNE_ABOVE:
                self._forget_idle(self.clock())
            window = self._chats[chat_id] = SlidingWindow(self.window_for(chat_id))
        return window

    def _forget_idle(self, now: float) -> None:
        for chat_id in [c for c, w in self._chats.items() if w.idle(now)]:
            del self._chats[chat_id]
        for chat_id in [c for c, until in self._held_until.items() if until <= now]:
            del self._held_until[chat_id]

    async def _until(self, moment: float) -> None:
        delay = moment - self.clock()
        if delay > 0:
            await self.sleep(delay)
