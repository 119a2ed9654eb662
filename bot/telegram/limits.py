"""Telegram's sending limits, kept before each send instead of learned from 429s.

Telegram allows about 30 messages a second in all, about one a second in a private chat
(short bursts pass) and 20 a minute in a group (which the bot spreads: 3 in any 9 s). Each
limit is a sliding window: at most ``count`` sends in any ``seconds``. A send books the earliest
slot every window allows and waits for it; booking is synchronous, so concurrent senders never
share a slot. When its slot comes, the send is judged again on the moments earlier sends were
really made (a sleeper can wake late, a send can go later than booked) and is counted from the
moment it goes: the window a send is judged by is the one Telegram counts, not a plan of it.

The relay waits for a chat's turn before composing its message (``reserve``; the send then
uses that turn), so news that reached the chat during the wait goes in the same message.

When Telegram still answers 429 with ``retry_after``, the limiter judges whom it meant
(``share_hold``). A 429 is judged to be about the bot as a whole, not its chat, when

* the chat's own windows held no other send than the refused one (a chat's limit cannot have
  been reached by one message), or
* another chat was answered 429 within the overall window (``SendLimits.overall``'s seconds)
  before it: several chats refused at once is the bot's overall limit.

Then every send, to every chat, is held for ``retry_after`` (``hold_every_chat``) and resumes
after; otherwise only that chat is held (``hold``) and other chats keep their own pace. Time
comes from an injected monotonic clock and sleep, so tests run the limits in scaled or fake
time.

Processes sharing one bot share its limits: when its turn comes, a send also asks the store's
``SendBudget`` (``bot.store.send_limits``), which on a shared store counts every process's
sends in the same windows and shares their holds, a chat's or the whole bot's
(``share_hold``). It answers "go" (the send is counted for all) or "wait this long" (another
process took the slot, or a hold stands); this limiter then sleeps that long and looks again.
On a store of its own the budget grants every send: the windows here are the whole limit.
``delay_for`` (the relay's hint of a backlog) and the judging of a 429 read this process's
windows only.
"""

from __future__ import annotations

import asyncio
import logging
import time
from bisect import bisect_left, insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from bot.clocks import Clock, Sleep
from bot.store.send_limits import UNSHARED_SEND_BUDGET, SendBudget, SpanLimit

log = logging.getLogger(__name__)

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

    A group is also kept to ``group_burst``: 20 a minute alone would let a busy group have 20
    messages in a second and then nothing for a minute (the relay's operator news held back
    all that minute); 3 in any 9 s spreads them to one every 3 s, and a reply of up to three
    messages still goes at once.

    ``margin``: each window is kept this much longer than Telegram's. A send is counted when
    its turn comes, and reaches Telegram a moment later (PTB builds the request, the loop may
    run another task first): a fraction of a millisecond usually, more now and then. Without
    a margin a send counted at the very end of a window can arrive before an earlier one's
    second is over. 2 ms costs 0.2 % of the overall rate.
    """

    overall: Window = field(default_factory=lambda: Window(30, 1.0))
    private_chat: Window = field(default_factory=lambda: Window(3, 3.0))
    group_chat: Window = field(default_factory=lambda: Window(20, 60.0))
    group_burst: Window = field(default_factory=lambda: Window(3, 9.0))
    max_attempts: int = 3
    longest_wait: float = 60.0
    margin: float = 0.002

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts counts the first send: at least 1")
        if self.margin < 0:
            raise ValueError("margin cannot be negative")


class SlidingWindow:
    """Sends under one ``Window``: slots booked by senders still waiting, and sends made.

    A booking is a sender's place in line: ``book`` gives the earliest slot every booking and
    send so far allows, so waiters are spread over the slots in the order they asked. When a
    sender's moment comes it ``take``s the slot, which counts from then until ``settle``
    records when the send was really made (a send counts as "now" while it is being made: its
    sender may still be composing it). Whether a send may go at all (``opens_at``) is judged on
    taken and settled sends only, at the moment it would go: a waiter that woke late (a busy
    event loop) or a send that was made later than booked never makes another sender's slot
    break the window, which judging by booked slots alone would.
    """

    def __init__(self, window: Window, margin: float = 0.0) -> None:
        self.window = window
        self._span = window.seconds + margin  # a send counts this long
        self._booked: list[float] = []  # slots of senders still waiting, sorted
        self._sent: list[float] = []  # when sends were made, sorted; pruned past the window
        self._taking = 0  # slots taken, their sends not made yet

    def book(self, now: float, not_before: float = 0.0) -> float:
        """Book the earliest slot at or after ``now`` and ``not_before``; return its time."""
        slot = self.next_slot(now, not_before)
        insort(self._booked, slot)
        return slot

    def next_slot(self, now: float, not_before: float = 0.0) -> float:
        """The slot ``book`` would give now, without booking it."""
        slot = max(now, not_before)
        count = self.window.count
        if self._taking >= count:
            return slot + self.window.seconds / count  # a rare crowd: look again soon
        # The count-th latest of all bookings and sends (those taken count as now) is among
        # the latest ``count`` of each.
        latest = sorted(self._booked[-count:] + self._sent[-count:] + [now] * self._taking)
        if len(latest) >= count:
            slot = max(slot, latest[-count] + self._span)
        return slot

    def opens_at(self, now: float) -> float:
        """The earliest moment at or after ``now`` a send may be made, judged on the sends
        made and taken (bookings are only places in line)."""
        count = self.window.count
        if self._taking >= count:
            return now + self.window.seconds / count
        needed = count - self._taking  # the sends already made that fill the window
        if len(self._sent) < needed:
            return now
        return max(now, self._sent[-needed] + self._span)

    def take(self, slot: float) -> None:
        """The sender of ``slot`` is about to send: the slot counts as a send from now."""
        self._drop_booking(slot)
        self._taking += 1

    def settle(self, at: float) -> None:
        """The send of a taken slot was made at ``at``."""
        self._taking -= 1
        insort(self._sent, at)
        # Sends a full window old limit nothing any more; at most ``count`` later ones matter.
        horizon = at - self._span
        while self._sent and (self._sent[0] <= horizon or len(self._sent) > self.window.count):
            self._sent.pop(0)

    def cancel(self, slot: float | None, *, taken: bool) -> None:
        """Give back ``slot`` unused: still booked, or (``taken``) taken."""
        if taken:
            self._taking -= 1
        elif slot is not None:
            self._drop_booking(slot)

    def sends_within(self, now: float) -> int:
        """Sends made or being made that still count at ``now``."""
        horizon = now - self._span
        return self._taking + sum(1 for at in self._sent if at > horizon)

    def idle(self, now: float) -> bool:
        """True when no booking or send still limits a send at ``now``."""
        if self._booked or self._taking:
            return False
        return not self._sent or self._sent[-1] + self._span <= now

    def _drop_booking(self, slot: float) -> None:
        index = bisect_left(self._booked, slot)
        if index < len(self._booked) and self._booked[index] == slot:
            del self._booked[index]


class ChatWindows:
    """A chat's windows kept together: a slot is one every window allows."""

    def __init__(self, windows: Sequence[Window], margin: float = 0.0) -> None:
        self._windows = [SlidingWindow(window, margin) for window in windows]

    def book(self, now: float, not_before: float = 0.0) -> float:
        """Book the earliest slot every window allows; return its time."""
        slot = self.next_slot(now, not_before)
        for window in self._windows:
            window.book(now, slot)
        return slot

    def next_slot(self, now: float, not_before: float = 0.0) -> float:
        """The slot ``book`` would give now, without booking it."""
        return _agreed(lambda at: max(w.next_slot(now, at) for w in self._windows), now, not_before)

    def opens_at(self, now: float) -> float:
        """The earliest moment at or after ``now`` every window lets a send be made."""
        return _agreed(lambda at: max(w.opens_at(at) for w in self._windows), now)

    def take(self, slot: float) -> None:
        """The sender of ``slot`` is about to send."""
        for window in self._windows:
            window.take(slot)

    def settle(self, at: float) -> None:
        """The send of a taken slot was made at ``at``."""
        for window in self._windows:
            window.settle(at)

    def cancel(self, slot: float | None, *, taken: bool) -> None:
        """Give back ``slot`` unused (see ``SlidingWindow.cancel``)."""
        for window in self._windows:
            window.cancel(slot, taken=taken)

    def sends_within(self, now: float) -> int:
        """The most sends any of the chat's windows still counts at ``now``."""
        return max(window.sends_within(now) for window in self._windows)

    def idle(self, now: float) -> bool:
        """True when no window still limits a send at ``now``."""
        return all(window.idle(now) for window in self._windows)


@dataclass(frozen=True)
class _Spans:
    """``SendLimits``' windows as the shared budget counts them: each kept ``margin`` longer
    (as here), and how long any send limits another (``keep``)."""

    overall: SpanLimit
    private: tuple[SpanLimit, ...]
    group: tuple[SpanLimit, ...]
    keep: float

    @classmethod
    def of(cls, limits: SendLimits) -> _Spans:
        def span(window: Window) -> SpanLimit:
            return SpanLimit(window.count, window.seconds + limits.margin)

        overall = span(limits.overall)
        private = (span(limits.private_chat),)
        group = (span(limits.group_chat), span(limits.group_burst))
        keep = max(limit.span for limit in (overall, *private, *group))
        return cls(overall, private, group, keep)


def _agreed(latest: Callable[[float], float], *moments: float) -> float:
    """The first moment from ``max(moments)`` on that ``latest`` keeps (each window's answer
    can push it past another's limit, so ask again, a few times at most)."""
    moment = max(moments)
    for _ in range(8):
        later = latest(moment)
        if later <= moment:
            break
        moment = later
    return moment


class RateLimiter:
    """The overall window, one window per chat (groups have negative ids), and holds; each
    send also granted by ``budget``, which other processes may share (see the module doc)."""

    def __init__(
        self,
        limits: SendLimits | None = None,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        budget: SendBudget = UNSHARED_SEND_BUDGET,
    ) -> None:
        self.limits = limits = limits or SendLimits()
        self.clock = clock
        self.sleep = sleep
        self._budget = budget
        self._spans = _Spans.of(limits)
        self._overall = SlidingWindow(self.limits.overall, self.limits.margin)
        self._chats: dict[int, ChatWindows] = {}
        self._held_until: dict[int, float] = {}
        self._every_chat_held_until = 0.0  # Telegram's 429 about the whole bot
        self._recent_429s: list[tuple[float, int]] = []  # (when, chat), within the overall span
        self._reserved: set[int] = set()  # chats whose turn ``reserve`` keeps

    async def acquire(self, chat_id: int) -> None:
        """Wait until a message may go to ``chat_id``, and count it as sent then.

        A turn ``reserve``d for the chat is used instead of waiting again.
        """
        if chat_id in self._reserved:
            self._reserved.discard(chat_id)
            self._settle(chat_id)
            return
        await self._take_turn(chat_id)
        self._settle(chat_id)

    async def reserve(self, chat_id: int) -> float:
        """Wait for ``chat_id``'s turn and keep it for the next ``acquire`` of the chat (which
        then goes at once); returns the seconds waited.

        The relay waits first and composes after, so whatever news reached the chat during
        the wait goes in the message. The turn counts as used from now: give it back with
        ``release`` if nothing is sent after all.
        """
        if chat_id in self._reserved:
            return 0.0
        waited = await self._take_turn(chat_id)
        self._reserved.add(chat_id)
        return waited

    def release(self, chat_id: int) -> None:
        """Give back a turn ``reserve`` kept for ``chat_id`` and no send used (no-op if none).

        The shared budget keeps counting it (the safe side: it may have been the chat's last
        slot for another process, which has waited for it already)."""
        if chat_id in self._reserved:
            self._reserved.discard(chat_id)
            self._chat_window(chat_id).cancel(None, taken=True)
            self._overall.cancel(None, taken=True)

    def delay_for(self, chat_id: int) -> float:
        """Seconds a message to ``chat_id`` would wait for its turn if sent now (0: none).

        Nothing is booked: the relay asks this to learn whether a chat has a backlog, and then
        gathers the chat's pending news into one message instead of queueing each.
        """
        now = self.clock()
        held = self._held_until_for(chat_id)
        chat = self._chats.get(chat_id)
        slot = held if chat is None else chat.next_slot(now, held)
        return max(0.0, self._overall.next_slot(now, slot) - now)

    def hold(self, chat_id: int, seconds: float) -> None:
        """Send nothing more to ``chat_id`` for ``seconds`` (Telegram's ``retry_after``)."""
        until = self.clock() + seconds
        self._held_until[chat_id] = max(self._held_until.get(chat_id, 0.0), until)

    def hold_every_chat(self, seconds: float) -> None:
        """Send nothing more to any chat for ``seconds`` (a 429 about the whole bot)."""
        until = self.clock() + seconds
        self._every_chat_held_until = max(self._every_chat_held_until, until)

    def is_about_every_chat(self, chat_id: int) -> bool:
        """Whether a 429 just answered to a send to ``chat_id`` is about the whole bot (the
        rule is in the module docstring); the send has been counted in the chat's windows."""
        now = self.clock()
        span = self.limits.overall.seconds
        self._recent_429s = [(at, chat) for at, chat in self._recent_429s if at > now - span]
        other_chats = any(chat != chat_id for _, chat in self._recent_429s)
        self._recent_429s.append((now, chat_id))
        window = self._chats.get(chat_id)
        alone = window is None or window.sends_within(now) <= 1
        return other_chats or alone

    async def share_hold(self, chat_id: int, seconds: float) -> bool:
        """Hold back what Telegram's 429 to a send to ``chat_id`` was about, here now and for
        every process sharing the budget once it has the hold (when it cannot be told, this
        process is held anyway: the others learn from their own 429). True when every chat is
        held (``is_about_every_chat``), False when only ``chat_id`` is."""
        every_chat = self.is_about_every_chat(chat_id)
        if every_chat:
            self.hold_every_chat(seconds)
        else:
            self.hold(chat_id, seconds)
        try:
            if every_chat:
                await self._budget.hold_every_chat(seconds)
            else:
                await self._budget.hold(chat_id, seconds)
        except Exception:
            log.warning("could not share Telegram's hold with the other processes")
        return every_chat

    def held_for(self, chat_id: int) -> float:
        """Seconds until ``chat_id`` may be sent to again because of a hold, its own or every
        chat's (0 if none)."""
        return max(0.0, self._held_until_for(chat_id) - self.clock())

    def _held_until_for(self, chat_id: int) -> float:
        return max(self._held_until.get(chat_id, 0.0), self._every_chat_held_until)

    def window_for(self, chat_id: int) -> Window:
        """The per-chat limit of ``chat_id``: group chats have negative ids."""
        return self.limits.group_chat if chat_id < 0 else self.limits.private_chat

    def _chat_window(self, chat_id: int) -> ChatWindows:
        window = self._chats.get(chat_id)
        if window is None:
            if len(self._chats) >= _PRUNE_ABOVE:
                self._forget_idle(self.clock())
            windows = [self.window_for(chat_id)]
            if chat_id < 0:
                windows.append(self.limits.group_burst)
            window = self._chats[chat_id] = ChatWindows(windows, self.limits.margin)
        return window

    def _forget_idle(self, now: float) -> None:
        for chat_id in [c for c, w in self._chats.items() if w.idle(now)]:
            del self._chats[chat_id]
        for chat_id in [c for c, until in self._held_until.items() if until <= now]:
            del self._held_until[chat_id]

    async def _take_turn(self, chat_id: int) -> float:
        """Wait in line for the chat's window, then the overall one, then until both really
        allow a send now; both slots are then taken (counted as now until ``_settle``).
        Returns the seconds slept (0: the turn was free)."""
        chat = self._chat_window(chat_id)
        # The chat's turn first, then the overall one: booking an overall slot for a chat that
        # is still held would keep that slot from every other chat.
        chat_slot = chat.book(self.clock(), self._held_until_for(chat_id))
        try:
            slept = await self._until(chat_slot)
            overall_slot = self._overall.book(self.clock())
            try:
                slept += await self._until(overall_slot)
                # Judged on the sends really made: a send booked before this one may have gone
                # later than its slot, and the window counts when a send went.
                while True:
                    while (ready := self._opens_at(chat_id, chat)) > self.clock():
                        slept += await self._until(ready)
                    # Still in this turn: the processes sharing the budget may have taken it.
                    shared_wait = await self._shared_wait(chat_id)
                    if shared_wait <= 0:
                        break
                    await self.sleep(shared_wait)
                    slept += shared_wait
            except BaseException:
                self._overall.cancel(overall_slot, taken=False)
                raise
        except BaseException:
            chat.cancel(chat_slot, taken=False)
            raise
        chat.take(chat_slot)
        self._overall.take(overall_slot)
        return slept

    async def _shared_wait(self, chat_id: int) -> float:
        """0 when the shared budget counted this send; else the seconds to wait first."""
        chat = self._spans.group if chat_id < 0 else self._spans.private
        try:
            return await self._budget.try_send(chat_id, self._spans.overall, chat, self._spans.keep)
        except Exception:
            # Sending by this process's windows alone risks a 429 (which holds the chat);
            # stopping every send while the database is unreachable would be worse.
            log.warning("could not ask the shared Telegram send budget; sent by this one's limits")
            return 0.0

    def _opens_at(self, chat_id: int, chat: ChatWindows) -> float:
        now = self.clock()
        held = self._held_until_for(chat_id)
        return max(held, chat.opens_at(now), self._overall.opens_at(now))

    def _settle(self, chat_id: int) -> None:
        now = self.clock()
        self._chat_window(chat_id).settle(now)
        self._overall.settle(now)

    async def _until(self, moment: float) -> float:
        """Sleep until ``moment``; the seconds it meant to sleep (0 when it is past)."""
        delay = moment - self.clock()
        if delay <= 0:
            return 0.0
        await self.sleep(delay)
        return delay
