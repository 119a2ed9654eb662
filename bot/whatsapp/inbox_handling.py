"""Handling what ``POST /whatsapp`` stored: each chat's items in order, each once.

::

    POST /whatsapp ─> store.whatsapp_inbox (committed) ─> 200 ─> InboxHandling.soon(chat)
    soon: one task per chat: holding the chat's lock (``store.chat_locks``, shared by every
        instance on a PostgreSQL store), the chat's stored items not handled yet, oldest first
        (by ``seq``) ─> InboundHandler (a message) or StatusHandler (a status)
    WhatsAppInboxSweep (a leader-only job): clears handled bodies, forgets old keys, and hands
        chats whose items waited ``ORPHANED_SECONDS`` (their process died) to ``soon``

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
#: How often the sweep looks for orphans and clears handled bodies.
SWEEP_SECONDS: Final = 2.0
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
    instance takes the orphans."""

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
        super().__init__(look_seconds=SWEEP_SECONDS)
        self._inbox = inbox
        self._handling = handling
        self._shared = shared
        self._clock = clock
        self._orphaned = orphaned_seconds
        self._started = clock()

    async def run_once(self) -> float | None:
        now = self._clock()
        await self._inbox.prune_handled(now)
        than = now - self._orphaned
        if not self._shared:  # nobody else works on this store: earlier ones are orphans
            than = max(than, self._started)
        chats = await self._inbox.waiting_chats(than)
        if chats:
            log.info("%d whatsapp chats have messages stored but not handled; handling", len(chats))
        for chat_id in chats:
            self._handling.soon(chat_id)
        return SWEEP_SECONDS
