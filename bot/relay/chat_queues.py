"""``ChatQueues``: the relay's messages, queued per chat and served fairly, a backlog as one.

Each chat has its own first-in-first-out queue and, while it holds anything, its own server
task, so a chat that must wait (Telegram allows about one message a second per chat) waits
alone: the other chats' messages go on meanwhile. Across chats the channel's own pacing decides
who goes next (``bot.telegram.limits`` books the overall window in the order chats ask), and a
chat asks again only after its previous message went out, so each chat with news gets its turn
in a round, however much news another chat has.

One message per piece of news while the chat keeps up. When the chat has to wait for its
turn (it has a backlog), what it is sent is composed after the wait: the server takes the
chat's turn first (``ChatTurns.reserve``, the chat's channel's registered pacing: Telegram's
limiter, the chat's own window and the overall one), then sends every message pending for it
by then as one (``Sender.send_together``, up to ``coalesce_chars``), each under its own sent
marker, and the send uses the turn taken. So news that arrived while the chat waited, for the
overall window too, rides along instead of waiting for a turn of its own. A channel that only
tells the wait (``PacedChannel.send_delay``) is waited on the same way, the wait then being its
estimate. A server never waits twice for the same message, so a busy neighbour cannot push a
chat back for ever.

A backlog longer than one message becomes a digest: the first pending messages in full, then
every following one that may be abridged (operators' news, ``Outgoing.abridged_as``) counted in
one closing line naming their deliveries. An operator group (20 messages a minute, spread by
the limiter to one every 3 s when busy) thus gets one message per turn that covers all its
news, instead of falling further behind at each turn and holding those events back for
minutes. Customers' messages and codes are never abridged: what does not fit waits for the
chat's next turn.

Each message sent is marked at once (one commit per Telegram message), so a crash repeats only
what was being sent at that moment, whatever other chats the same events still wait for.

``submit`` returns a future that the chat's server resolves with the message's ``Outcome``;
it never raises into that future. A message may name its ``group`` (the relay: its delivery):
when one fails, the chat's queued messages of the same group fail with it instead of going
out, so a delivery's later news never reaches the chat before earlier news that waits for a
retry.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.relay.channel_protocol import Channel, ChatTurns, PacedChannel, SendFailed
from bot.relay.outbox import COALESCED_SEPARATOR, Outcome, Outgoing, Sender
from bot.store import SentReceipt

logger = logging.getLogger(__name__)

# Characters of a digest kept for its closing line (a sentence and up to 20 references).
DIGEST_TAIL_ROOM = 400


@dataclass(frozen=True)
class _Queued:
    message: Outgoing
    outcome: asyncio.Future[Outcome]
    group: str | None = None


class ChatQueues:
    """Per-chat queues in front of a ``Sender``; see the module docstring."""

    def __init__(
        self,
        sender: Sender,
        channel: Channel,
        *,
        sleep: Callable[[float], Awaitable[None]],
        coalesce_chars: int,
        turns: ChatTurns | None = None,
    ) -> None:
        self._sender = sender
        self._turns = turns
        self._paced = channel if isinstance(channel, PacedChannel) else None
        self._sleep = sleep
        self._coalesce_chars = coalesce_chars
        self._queues: dict[ChatRef, deque[_Queued]] = {}
        self._servers: dict[ChatRef, asyncio.Task[None]] = {}

    def submit(self, message: Outgoing, *, group: str | None = None) -> asyncio.Future[Outcome]:
        """Queue ``message`` behind its chat's earlier ones; the future tells what became of it.
        A failure of a message of ``group`` fails the chat's later ones of that group too."""
        chat = message.key.chat
        outcome: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(chat, deque()).append(_Queued(message, outcome, group))
        if chat not in self._servers:
            server = asyncio.create_task(self._serve(chat), name=f"relay chat {chat}")
            server.add_done_callback(_seen)
            self._servers[chat] = server
        return outcome

    def pending(self) -> int:
        """Messages queued and not yet handed to the channel."""
        return sum(len(queue) for queue in self._queues.values())

    async def close(self) -> None:
        """Stop every chat's server; queued messages are left unsent (still owed in the inbox)."""
        servers = list(self._servers.values())
        for server in servers:
            server.cancel()
        await asyncio.gather(*servers, return_exceptions=True)

    async def _serve(self, chat: ChatRef) -> None:
        queue = self._queues[chat]
        try:
            while queue:
                if self._turns is not None:
                    waited = await self._turns.reserve(chat)
                    try:
                        await self._send(*self._next_message(queue, backlog=waited > 0))
                    finally:
                        self._turns.release(chat)  # nothing when the send used the turn
                    continue
                delay = 0.0 if self._paced is None else self._paced.send_delay(chat)
                if delay > 0:
                    await self._sleep(delay)
                await self._send(*self._next_message(queue, backlog=delay > 0))
        finally:
            # Left over only when closed: nobody serves it now; its events stay in the inbox.
            for queued in queue:
                queued.outcome.cancel()
            del self._servers[chat], self._queues[chat]

    def _next_message(
        self, queue: deque[_Queued], *, backlog: bool
    ) -> tuple[list[_Queued], int | None]:
        """What the chat's next message carries, and how many of those are said in full (None:
        all): the next piece of news while the chat keeps up; after a wait, all that is pending
        (in full when it fits, as a digest when the rest may be abridged)."""
        if not backlog:
            return [queue.popleft()], None
        pending = [queued.message for queued in queue]
        in_full = _fitting(pending, self._coalesce_chars)
        if in_full == len(pending) or pending[in_full].abridged_as is None:
            return [queue.popleft() for _ in range(max(in_full, 1))], None
        in_full = _fitting(pending, max(0, self._coalesce_chars - DIGEST_TAIL_ROOM))
        told = in_full
        while told < len(pending) and pending[told].abridged_as is not None:
            told += 1
        if told == 0:  # the first piece may not be abridged, and is longer than a digest's room
            return [queue.popleft()], None
        return [queue.popleft() for _ in range(told)], in_full

    async def _send(self, batch: list[_Queued], in_full: int | None) -> None:
        messages = [queued.message for queued in batch]
        try:
            outcomes = await self._sender.send_together(messages, in_full=in_full)
        except asyncio.CancelledError:
            for queued in batch:
                queued.outcome.cancel()
            raise
        except Exception as exc:
            # The store failed around the send: the messages stay owed, like a failed send.
            logger.warning("relay messages to a chat not sent (%s)", type(exc).__name__)
            outcomes = [SendFailed(type(exc).__name__)] * len(batch)
        except BaseException as exc:
            # The process is going down: whoever waits for these messages learns it too.
            for queued in batch:
                queued.outcome.set_exception(exc)
            raise
        for queued, outcome in zip(batch, outcomes, strict=True):
            if not queued.outcome.done():
                queued.outcome.set_result(outcome)
        failed = {
            queued.group
            for queued, outcome in zip(batch, outcomes, strict=True)
            if isinstance(outcome, SendFailed) and queued.group is not None
        }
        if failed:
            self._fail_behind(messages[0].key.chat, failed)
        receipts = [outcome for outcome in outcomes if isinstance(outcome, SentReceipt)]
        if receipts:
            # Marked at once, not only when their events finish: an event may wait for a
            # message to another chat, and a crash meanwhile would repeat these too.
            try:
                await self._sender.mark(receipts)
            except Exception as exc:
                # Still claimed: the event's finishing commit marks them.
                logger.warning("relay messages not marked yet (%s)", type(exc).__name__)

    def _fail_behind(self, chat: ChatRef, groups: set[str]) -> None:
        """Fail the chat's queued messages of ``groups``: they wait behind the failed one."""
        queue = self._queues.get(chat)
        if not queue:
            return
        behind = SendFailed("an earlier message of its group was not sent")
        kept = [queued for queued in queue if queued.group is None or queued.group not in groups]
        for queued in queue:
            if queued.group is not None and queued.group in groups and not queued.outcome.done():
                queued.outcome.set_result(behind)
        queue.clear()
        queue.extend(kept)


def _fitting(messages: list[Outgoing], limit: int) -> int:
    """How many of ``messages``, from the first, fit in one text of ``limit`` characters."""
    length = -len(COALESCED_SEPARATOR)
    for count, message in enumerate(messages):
        length += len(COALESCED_SEPARATOR) + len(message.text)
        if length > limit:
            return count
    return len(messages)


def _seen(server: asyncio.Task[None]) -> None:
    """A server ends by cancellation, or by what takes the process down; the latter reached
    whoever waited for its messages already, through their futures."""
    if not server.cancelled():
        server.exception()
