"""Operators stop a customer, and restore them: ``CustomerBlocking``.

::

    blocking = CustomerBlocking(store)
    done = await blocking.block(UserRef("telegram", 1003), by="telegram:1900", reason="spam")
    refused = await blocking.refusal(user, catalogue)  # a Turn with one polite sentence, or None

While a customer is blocked every turn the chat service would run for them (a new order, an
answer, a repeat) is refused with one polite sentence (``safety.blocked``) and nothing is
created; their open drafts are dropped when the block is made; their existing deliveries are
not touched, so the relay keeps telling them how those go. Each block and unblock is written
to the audit trail (``store.audit``) with who did it and how it ended.

What else a block ends is told through ``on_block``: the hand-off desk (``bot.handoff``)
registers there to end the customer's conversation with staff at once. A block made where no
desk runs (the shell) is found by the bot's own desk instead (``HandoffDesk``'s upkeep).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import UserRef
from bot.store import Store
from conversations import Turn
from conversations.texts.catalogue import Catalogue

log = logging.getLogger(__name__)

REASON_LEAST: Final = 3
REASON_MOST: Final = 200
"""A reason a form asks for (the console's) is this long, so the trail says something and
its lines stay readable."""

# Told of each block, with the customer and who made it, once the block is written.
BlockFollower = Callable[[UserRef, str], Awaitable[object]]


@dataclass(frozen=True)
class Blocked:
    """The outcome of a block: ``new`` is False when the customer was blocked already;
    ``drafts`` is how many open orders of theirs were dropped."""

    user: UserRef
    new: bool
    drafts: int

    def said(self, catalogue: Catalogue, shown: str) -> str:
        """The block's outcome, for whoever made it (an operator, the shell), said from
        ``catalogue`` (the reader's: the operator's own client language in Telegram, the
        business's in the shell), naming the customer as ``shown``
        (``customer_names.customer_shown``)."""
        message = "safety.block_done" if self.new else "safety.block_again"
        done = catalogue.say(message, customer=shown)
        if not self.drafts:
            return done
        return f"{done} {catalogue.say('safety.drafts_dropped', count=self.drafts)}"


class CustomerBlocking:
    """Block, unblock, and the refusal a blocked customer's turn gets."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._followers: list[BlockFollower] = []

    def on_block(self, follower: BlockFollower) -> None:
        """Call ``follower`` after every block (a repeated one too: what it ends may still
        be open, a block from the shell having found nobody to end it)."""
        self._followers.append(follower)

    async def block(self, user: UserRef, *, by: str, reason: str | None = None) -> Blocked:
        """Block ``user`` (``by``: who asked, for the trail) and drop their open drafts."""
        new = await self._store.customer_blocks.block(user, by=by, reason=reason)
        drafts = 0
        for chat in await self._store.customer_blocks.drafts_of(user):
            # Under the chat's turn, so a turn running for it finishes first and is dropped.
            async with self._store.chat_locks.hold(chat):
                drafts += await self._store.sessions.delete(chat)
        outcome = "done" if new else "already blocked"
        if drafts:
            outcome += f"; {drafts} open order(s) dropped"
        await self._store.audit.record(by, "block", str(user), outcome, reason)
        log.info("customer %s blocked by %s (%s)", user.for_log, by, outcome)
        for follower in self._followers:
            await follower(user, by)
        return Blocked(user, new, drafts)

    async def unblock(self, user: UserRef, *, by: str) -> bool:
        """Restore ``user``; False when they were not blocked."""
        lifted = await self._store.customer_blocks.unblock(user)
        outcome = "done" if lifted else "was not blocked"
        await self._store.audit.record(by, "unblock", str(user), outcome)
        log.info("customer %s unblocked by %s (%s)", user.for_log, by, outcome)
        return lifted

    async def refusal(self, user: UserRef, catalogue: Catalogue) -> Turn | None:
        """The turn a blocked ``user`` gets instead of theirs, said from ``catalogue``; None
        when they may order."""
        if await self._store.customer_blocks.get(user) is None:
            return None
        return blocked_turn(catalogue)


def block_reason(typed: str) -> str | None:
    """``typed`` as a block's reason: its words on one line, or None when they are fewer than
    ``REASON_LEAST`` or more than ``REASON_MOST`` characters."""
    reason = " ".join(typed.split())
    return reason if REASON_LEAST <= len(reason) <= REASON_MOST else None


def unblocked_said(catalogue: Catalogue, shown: str, lifted: bool) -> str:
    """An unblock's outcome (``lifted``: the customer was blocked), for whoever made it, said
    from ``catalogue`` (the reader's, as for ``Blocked.said``), naming the customer as
    ``shown``."""
    message = "safety.unblock_done" if lifted else "safety.unblock_none"
    return catalogue.say(message, customer=shown)


def blocked_turn(catalogue: Catalogue) -> Turn:
    """The turn of a blocked customer, said from ``catalogue``: one polite sentence (an
    adapter compares with it, to add no greeting of its own)."""
    return Turn(messages=(catalogue.say("safety.blocked"),), status="ended")
