"""Telegram updates through the durable inbox (``store.telegram_inbox``).

::

    webhook / getUpdates ─> store_update (committed) ─> 200 / offset moves ─> PTB's queue
    ChatOrderedProcessor + InboxHandOff: holding the chat's lock, the chat's stored updates up
        to this one not handled yet, oldest first
    UpdateInboxSweep (a job): prunes handled updates
        and hands updates stored but left unhandled (their process died) to the queue

An update is stored before Telegram is told it arrived, so a crash between the 200 and its
handling loses nothing: the update is handled after the restart, or by another instance. Two
updates of one chat that reached two instances back to back (the second sent after the first's
200) are handled in order: whichever instance takes the chat's lock first handles every stored
update of the chat up to its own, oldest first. The other instance, getting the lock next,
finds its update handled (``store.updates`` drops it as a repeat). An update that never went
through the inbox (a test putting it on the queue) is handled as before.

What goes on PTB's queue is a ``ReceivedUpdate`` (``bot.telegram.received_update``: parsed by
PTB when handled) from the webhook and from here, and PTB's own Update from polling and tests.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Final, TypeAlias

from telegram import Update
from telegram.ext import Application

from bot.chat_ref import TELEGRAM, ChatRef
from bot.clocks import Clock
from bot.jobs import Job
from bot.store import SeenUpdates, StoredUpdate, UpdateInbox
from bot.telegram.received_update import ReceivedUpdate, chat_of, handle_received, kind_of_data

# ``bot.telegram.application.BotApplication``, named here without importing that module
# (which imports this one).
BotApplication: TypeAlias = Application[Any, Any, Any, Any, Any, Any]

log = logging.getLogger(__name__)

#: An update stored this long ago and still not handled is taken to be orphaned (its process
#: died) and handed to this process: far longer than a turn normally waits for its chat.
ORPHANED_SECONDS: Final = 10.0
#: How often the sweep looks while updates are stored (and a follower asks to lead).
SWEEP_SECONDS: Final = 2.0
#: How long a pushed update waits for its turn to commit it before it is stored on its own
#: (``hand_in``): a turn takes a few milliseconds; one that waits for its chat or the Partner
#: API takes longer, and its update should not wait for it to be acknowledged.
TURN_WAIT_SECONDS: Final = 0.02


def chat_ref_of(update: object) -> ChatRef | None:
    """The Telegram chat ``update`` belongs to, or None."""
    chat_id = chat_of(update)
    return None if chat_id is None else ChatRef(TELEGRAM, chat_id)


async def store_update(inbox: UpdateInbox, update: Update | ReceivedUpdate, body: str) -> bool:
    """Store ``update`` (``body``: its JSON as Telegram sent it, ``stored_body``) before it is
    acknowledged; False when it is stored already (a repeat still waiting)."""
    return await inbox.add(update.update_id, chat_ref_of(update), body)


async def hand_in(
    queue: asyncio.Queue[object],
    update: Update | ReceivedUpdate,
    inbox: UpdateInbox | None,
    body: str,
    *,
    seen: SeenUpdates | None = None,
) -> None:
    """Put ``update`` on PTB's ``queue``; on return it is durable, as a webhook push must be
    before its 200: stored in ``inbox``, or already handled.

    With ``seen`` (the Application is handling updates), the update first waits up to
    ``TURN_WAIT_SECONDS`` for its turn: a turn commits the update's id in ``store.updates``
    with its session (``bot.store.updates``), and an update handled is more than stored. So
    the usual turn makes one commit, not two (under ``synchronous=FULL`` one fsync, not two).
    An update whose turn is slower (its chat busy, a create on its way) is stored on its own
    after the wait.

    Without ``seen`` the insert is queued on the store first and the update handed to PTB while
    it commits, so the turn does not wait for the disk. Either way Telegram hears 200 only once
    the update is durable; an update handled before its row commits is recorded in
    ``store.updates`` by its turn, so the row is pruned unread; and when the insert fails the
    500 makes Telegram repeat it, which ``store.updates`` drops if the turn went through.
    """
    if inbox is None:
        await queue.put(update)
        return
    if seen is not None:
        committed = seen.committed(update.update_id)
        try:
            await queue.put(update)  # PTB's queue is unbounded: this never waits
            await asyncio.wait_for(committed, TURN_WAIT_SECONDS)
            return
        except TimeoutError:
            pass  # its turn is slower: stored on its own
        finally:
            seen.forget(update.update_id, committed)
        await store_update(inbox, update, body)
        return
    storing = asyncio.ensure_future(store_update(inbox, update, body))
    await queue.put(update)  # PTB's queue is unbounded: this never waits
    await storing


def stored_body(raw: bytes, data: dict[str, Any]) -> str:
    """The text kept in the inbox for an update read from ``raw`` (parsed: ``data``): the
    body itself when it is plain UTF-8 JSON, so it is not encoded again."""
    try:
        text = raw.decode()
    except UnicodeDecodeError:  # a lone surrogate written out in UTF-8 bytes
        text = ""
    if not text or "\x00" in text:  # not UTF-8 (a UTF-16 body reads as text with NULs)
        # ASCII JSON: a lone surrogate in a customer's text is kept as its escape.
        return json.dumps(data)
    return text


def received_from(stored: StoredUpdate) -> ReceivedUpdate:
    """A stored update as the door queued it: its JSON is parsed by PTB when handled."""
    data = json.loads(stored.body)
    chat_id = stored.chat.id if stored.chat is not None else None
    return ReceivedUpdate(stored.update_id, chat_id, kind_of_data(data), data)


class InboxHandOff:
    """What ``ChatOrderedProcessor`` does before an update when updates go through the inbox:
    holding the chat's lock, ``earlier`` handles the chat's stored updates older than this one
    (they reached another instance, or one that died). An update is handled once its id is in
    ``store.updates`` (``seen``; one PTB cannot parse is recorded there too); the sweep prunes
    it."""

    def __init__(self, inbox: UpdateInbox, application: BotApplication, seen: SeenUpdates) -> None:
        self.inbox = inbox
        self.seen = seen
        self._application = application

    async def earlier(self, update: object) -> None:
        """Handle the stored updates of ``update``'s chat that came before it, oldest first
        (under the chat's lock)."""
        chat = chat_ref_of(update)
        if chat is None or not isinstance(update, Update | ReceivedUpdate):
            return
        for stored in await self.inbox.pending_before(chat, update.update_id):
            await handle_received(self._application, received_from(stored), self.seen)


class UpdateInboxSweep(Job):
    """Prunes handled updates, then hands stored updates nobody handled for
    ``ORPHANED_SECONDS`` (their process died) to this process's Application, once each; on a
    store this process has alone, every update stored before it started too. A leader-only
    job: one instance takes the orphans.

    It looks again when the next stored update would be orphaned, and every ``SWEEP_SECONDS``
    while updates are stored (so a handled one's copy is soon deleted). With none stored it
    looks again after ``ORPHANED_SECONDS``: an update stored meanwhile is orphaned no sooner,
    and the next pass sees when it will be. So a bot nobody writes to costs one pass every
    10 s (a host of a thousand idle businesses runs a thousand of these), and an orphan is
    still taken over ``ORPHANED_SECONDS`` after it arrived. A follower asks for the
    leadership every ``SWEEP_SECONDS``, so a leader's orphans are not left longer."""

    name = "telegram-update-inbox"
    leader_only = True

    def __init__(
        self,
        inbox: UpdateInbox,
        application: BotApplication,
        *,
        shared: bool,
        clock: Clock = time.time,
        orphaned_seconds: float = ORPHANED_SECONDS,
    ) -> None:
        super().__init__(look_seconds=orphaned_seconds, follower_look=SWEEP_SECONDS)
        self._inbox = inbox
        self._application = application
        self._shared = shared
        self._clock = clock
        self._orphaned = orphaned_seconds
        self._started = clock()
        self._queued: set[int] = set()

    async def run_once(self) -> float:
        if not await self._inbox.count():  # the idle bot's pass: one read
            return self._orphaned
        await self._inbox.prune_handled()
        now = self._clock()
        than = now - self._orphaned
        if not self._shared:  # nobody else works on this store: earlier ones are orphans
            than = max(than, self._started)
        # Every update stored and not handled yet (another instance's clock may run ahead).
        waiting = await self._inbox.older(now + self._orphaned)
        orphans = [stored for stored in waiting if stored.received_at <= than]
        # Queued once while still waiting; one handled leaves the set with the inbox row.
        self._queued &= {stored.update_id for stored in orphans}
        for stored in orphans:
            if stored.update_id in self._queued:
                continue
            self._queued.add(stored.update_id)
            log.info("update %s was stored but not handled; handling it here", stored.update_id)
            await self._application.update_queue.put(received_from(stored))
        if not waiting:
            return self._orphaned
        young = [stored.received_at for stored in waiting if stored.received_at > than]
        if not young:
            return SWEEP_SECONDS
        return min(SWEEP_SECONDS, min(young) + self._orphaned - now)
