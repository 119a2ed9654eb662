"""Handling what ``POST /whatsapp`` stored: each chat's items in order, each once.

::

    POST /whatsapp ─> store.whatsapp_inbox (committed) ─> 200 ─> InboxHandling.soon(chat)
    soon: one task per chat: holding the chat's lock (``store.chat_locks``, shared by every
        instance on a PostgreSQL store), the chat's stored items not handled yet, oldest first
        (by ``seq``) ─> InboundHandler (a message) or StatusHandler (a status)
    WhatsAppInboxSweep (a leader-only job): clears handled bodies, forgets old keys, and hands
        chats whose items waited ``ORPHANED_SECONDS`` (their process died) to ``soon``; one
        read every ``ORPHANED_SECONDS`` while the inbox holds no body

Exactly once: an item is handled when its number is in ``store.updates`` (``SeenUpdates``),
as ``-seq``: Telegram's update ids are positive 32-bit numbers, so the two never meet
(``bot.store.whatsapp_inbox`` says the same). ``begin`` reads whether it was handled; the turn's
first write of the chat's session records it in the same commit (``bot.store.sessions``);
``finish`` records it when no session write did (a status, a message that changed nothing).
All of it holding the chat's lock, so two instances never handle one chat's items at once,
and the second to take the lock finds them handled.

A handler that raises has its item recorded handled all the same, with one error line (an
item that always fails must not stop its chat for ever; Telegram's updates are treated alike).
A cancelled handling (the bot stopping) records nothing: the sweep hands the item to whichever
instance runs next.

Statuses are stored and handled like messages: a ``failed`` news message must be retried or
reported, and a status lost between the 200 and its handling would be silence.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Final

from bot.chat_ref import WHATSAPP, ChatRef
from bot.chatlocks import ChatTurnLocks
from bot.clocks import Clock
from bot.jobs import Job
from bot.store import SeenUpdates, StoredItem, WhatsAppInbox
from bot.whatsapp.contracts import InboundHandler, StatusHandler
from bot.whatsapp.payload import message_of, status_of

log = logging.getLogger(__name__)

#: An item stored this long ago and still not handled is taken to be orphaned (its process
#: died between the 200 and the handling): far longer than a turn waits for its chat.
ORPHANED_SECONDS: Final = 10.0
#: How often the sweep looks while items wait (and a follower asks to lead).
SWEEP_SECONDS: Final = 2.0
#: The longest an idle sweep goes without forgetting the keys handled over ``KEPT_SECONDS``
#: ago (``bot.store.whatsapp_inbox``): they hold the customers' numbers.
FORGET_SECONDS: Final = 3600.0
#: Items read from a chat at once; a chat with more is read again.
BATCH: Final = 100


class InboxHandling:
    """Hands each chat's stored items to the handlers; see the module docstring."""

    def __init__(
        self,
        inbox: WhatsAppInbox,
        seen: SeenUpdates,
        locks: ChatTurnLocks,
        handler: InboundHandler,
        statuses: StatusHandler,
    ) -> None:
        self._inbox = inbox
        self._seen = seen
        self._locks = locks
        self._handler = handler
        self._statuses = statuses
        self._running: dict[int, asyncio.Task[None]] = {}  # chat id -> its handling task
        self._again: set[int] = set()  # chats with items stored while their task ran

    def soon(self, chat_id: int) -> None:
        """Handle ``chat_id``'s stored items in a task of this process (one per chat: when it
        runs already, it reads the chat again before it ends)."""
        if chat_id in self._running:
            self._again.add(chat_id)
            return
        # Never the chat id in a task's name or a log line: it is the customer's phone number.
        task = asyncio.create_task(self._run(chat_id), name="whatsapp-chat")
        self._running[chat_id] = task

    def busy(self) -> bool:
        """Whether some chat's handling runs in this process."""
        return bool(self._running)

    async def idle(self) -> None:
        """Wait until no chat's handling runs (the tests', and a drain's, event to await)."""
        while self._running:
            await asyncio.wait(list(self._running.values()))

    async def handle_chat(self, chat_id: int) -> int:
        """Holding the chat's lock, handle up to ``BATCH`` of its stored items, oldest first;
        how many were read."""
        chat = ChatRef(WHATSAPP, chat_id)
        async with self._locks.hold(chat):
            items = await self._inbox.pending(chat_id, BATCH)
            for item in items:
                await self._handle(chat, item)
        return len(items)

    async def _run(self, chat_id: int) -> None:
        try:
            while True:
                self._again.discard(chat_id)
                read = await self.handle_chat(chat_id)
                if read < BATCH and chat_id not in self._again:
                    return
        except Exception:
            # The store failed: the items stay stored, and the sweep hands them on.
            log.exception("a whatsapp chat's stored messages wait for the sweep")
        finally:
            self._running.pop(chat_id, None)
            self._again.discard(chat_id)

    async def _handle(self, chat: ChatRef, item: StoredItem) -> None:
        if not await self._seen.begin(item.update_id, chat):
            return  # another instance handled it while this one waited for the lock
        try:
            stored = json.loads(item.body)
            if item.kind == "status":
                await self._statuses.status(status_of(stored))
            else:
                await self._handler.handle(message_of(stored))
        except ValueError as error:  # stored by an older bot, and unreadable now
            log.warning("whatsapp item %s dropped: %s", item.seq, error)
        except Exception:
            log.exception("whatsapp item %s: handling failed; not handled again", item.seq)
        await self._seen.finish(item.update_id, chat)

    async def aclose(self) -> None:
        """Cancel the handling under way (its items stay stored for the next instance)."""
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class WhatsAppInboxSweep(Job):
    """Clears the bodies of handled items and forgets old keys, then hands chats whose items
    nobody handled for ``ORPHANED_SECONDS`` (their process died) to this process; on a store
    this process has alone, every item stored before it started too. A leader-only job: one
    instance takes the orphans.

    Each pass first reads what the inbox holds (``WhatsAppInbox.held``). With no body held it
    looks again after ``ORPHANED_SECONDS``: an item stored meanwhile is orphaned no sooner,
    and the next pass sees when it will be. So a bot nobody writes to costs one read every
    10 s (a host of a thousand idle businesses runs a thousand of these), an orphan is still
    taken over ``ORPHANED_SECONDS`` after it arrived, and a handled item's body is cleared
    within ``ORPHANED_SECONDS``. While items wait it looks every ``SWEEP_SECONDS``, and at the
    moment the oldest is orphaned. Old keys are forgotten by a pass that clears bodies, and
    at least every ``FORGET_SECONDS`` by an idle one. A follower asks for the leadership every
    ``SWEEP_SECONDS``, so a leader's orphans are not left longer."""

    name = "whatsapp-inbox"
    leader_only = True

    def __init__(
        self,
        inbox: WhatsAppInbox,
        handling: InboxHandling,
        *,
        shared: bool,
        clock: Clock = time.time,
        orphaned_seconds: float = ORPHANED_SECONDS,
    ) -> None:
        # An item stored after a pass is orphaned no sooner than ``orphaned_seconds`` later.
        idle_look = max(orphaned_seconds, SWEEP_SECONDS)
        super().__init__(look_seconds=idle_look, follower_look=SWEEP_SECONDS)
        self._inbox = inbox
        self._handling = handling
        self._shared = shared
        self._clock = clock
        self._orphaned = orphaned_seconds
        self._started = clock()
        self._pruned_at: float | None = None  # never yet: the first pass forgets old keys

    async def run_once(self) -> float | None:
        held = await self._inbox.held()
        now = self._clock()
        forget_due = self._pruned_at is None or now - self._pruned_at >= FORGET_SECONDS
        if held.bodies or forget_due:
            await self._inbox.prune_handled(now)
            self._pruned_at = now
        if held.oldest_waiting is None:  # the idle bot's pass: one read
            return self.look_seconds
        than = now - self._orphaned
        if not self._shared:  # nobody else works on this store: earlier ones are orphans
            than = max(than, self._started)
        if held.oldest_waiting > than:  # none orphaned yet: look when the oldest will be
            return min(SWEEP_SECONDS, held.oldest_waiting + self._orphaned - now)
        chats = await self._inbox.waiting_chats(than)
        if chats:
            log.info("%d whatsapp chats have messages stored but not handled; handling", len(chats))
        for chat_id in chats:
            self._handling.soon(chat_id)
        return SWEEP_SECONDS
