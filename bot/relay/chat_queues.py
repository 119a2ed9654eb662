"""``ChatQueues``: the relay's messages, queued per chat and served fairly, a backlog as one.

Each chat has its own first-in-first-out queue and, while it holds anything, its own server
task, so a chat that must wait (Telegram allows about one message a second per chat) waits
alone: the other chats' messages go on meanwhile. Across chats the channel's own pacing decides
who goes next (``bot.telegram.limits`` books the overall window in the order chats ask), and a
chat asks again only after its previous message went out, so each chat with news gets its turn
in a round, however much news another chat has.

One message per piece of news while the chat keeps up. When the channel says a message to the
chat would have to wait (``PacedChannel.send_delay``: the chat has a backlog), the server waits
for the chat's turn once, then sends every message still pending for it as one
(``Sender.send_together``, up to ``coalesce_chars``), each under its own sent marker. It never
waits twice for the same message, so a busy neighbour cannot push a chat back for ever.

Each message sent is marked at once (one commit per Telegram message), so a crash repeats only
what was being sent at that moment, whatever other chats the same events still wait for.

``submit`` returns a future that the chat's server resolves with the message's ``Outcome``;
it never raises into that future.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.relay.channel_protocol import Channel, PacedChannel, SendFailed
from bot.relay.outbox import COALESCED_SEPARATOR, Outcome, Outgoing, Sender
from bot.store import SentReceipt

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Queued:
    message: Outgoing
    outcome: asyncio.Future[Outcome]


class ChatQueues:
    """Per-chat queues in front of a ``Sender``; see the module docstring."""

    def __init__(
        self,
        sender: Sender,
        channel: Channel,
        *,
        sleep: Callable[[float], Awaitable[None]],
        coalesce_chars: int,
    ) -> None:
        self._sender = sender
        self._paced = channel if isinstance(channel, PacedChannel) else None
        self._sleep = sleep
        self._coalesce_chars = coalesce_chars
        self._queues: dict[int, deque[_Queued]] = {}
        self._servers: dict[int, asyncio.Task[None]] = {}

    def submit(self, message: Outgoing) -> asyncio.Future[Outcome]:
        """Queue ``message`` behind its chat's earlier ones; the future tells what became of it."""
        chat_id = message.key.chat_id
        outcome: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(chat_id, deque()).append(_Queued(message, outcome))
        if chat_id not in self._servers:
            server = asyncio.create_task(self._serve(chat_id), name=f"relay chat {chat_id}")
            server.add_done_callback(_seen)
            self._servers[chat_id] = server
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

    async def _serve(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            while queue:
                delay = 0.0 if self._paced is None else self._paced.send_delay(chat_id)
                if delay > 0:
                    # A backlog: wait for the chat's turn once, then say all that is pending.
                    await self._sleep(delay)
                    batch = self._take_backlog(queue)
                else:
                    batch = [queue.popleft()]
                await self._send(batch)
        finally:
            # Left over only when closed: nobody serves it now; its events stay in the inbox.
            for queued in queue:
                queued.outcome.cancel()
            del self._servers[chat_id], self._queues[chat_id]

    def _take_backlog(self, queue: deque[_Queued]) -> list[_Queued]:
        batch = [queue.popleft()]
        length = len(batch[0].message.text)
        while queue:
            length += len(COALESCED_SEPARATOR) + len(queue[0].message.text)
            if length > self._coalesce_chars:
                break
            batch.append(queue.popleft())
        return batch

    async def _send(self, batch: list[_Queued]) -> None:
        try:
            outcomes = await self._sender.send_together([queued.message for queued in batch])
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
        receipts = [outcome for outcome in outcomes if isinstance(outcome, SentReceipt)]
        if receipts:
            # Marked at once, not only when their events finish: an event may wait for a
            # message to another chat, and a crash meanwhile would repeat these too.
            try:
                await self._sender.mark(receipts)
            except Exception as exc:
                # Still claimed: the event's finishing commit marks them.
                logger.warning("relay messages not marked yet (%s)", type(exc).__name__)


def _seen(server: asyncio.Task[None]) -> None:
    """A server ends by cancellation, or by what takes the process down; the latter reached
    whoever waited for its messages already, through their futures."""
    if not server.cancelled():
        server.exception()
