"""What the store offers for one or many instances: chat locks, leadership, the rate budget,
Telegram's send budget and agent channels' request buckets.

Every ``Store`` has all five, and ``shared`` says whether other processes work on the same
data. Nothing above ``bot/store/`` asks which backend it has:

=================  ==========================================  ==============================
                   one process (SQLite)                        several (PostgreSQL)
=================  ==========================================  ==============================
``chat_locks``     ``ChatLocks``: this process's memory        ``PgChatLocks``: advisory locks
``leadership``     ``ALWAYS_LEADS``: the one process leads      ``PgLeadership``: the lock holder
``rate_budget``    ``UNSHARED_BUDGET``: grants every start at   ``PgRateBudget``: every
                   once; the process's own ``RequestLimiter``   instance's starts in a table
                   log is the whole budget
``send_budget``    ``UNSHARED_SEND_BUDGET``: grants every      ``PgSendBudget``: every
                   send; the process's ``RateLimiter`` is the  instance's sends and holds in
                   whole limit                                 tables
``request_buckets``  ``LocalBuckets``: this process's memory   ``PgRequestBuckets``: a row
                                                               per agent channel
=================  ==========================================  ==============================

A backend builds its ``Coordination`` when the store opens and closes it with the store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.chatlocks import ChatLocks, ChatTurnLocks
from bot.store.send_limits import UNSHARED_SEND_BUDGET, LocalBuckets, RequestBuckets, SendBudget


class SharedBudget(Protocol):
    """Where processes share a key's request starts (the Partner API client's
    ``SharedRequestLimiter`` asks it; every backend offers one as ``store.rate_budget``)."""

    async def try_start(
        self, key_id: str, limit: int | None, window: float
    ) -> tuple[float, float | None]:
        """``(0, ticket)``: a start recorded, in use until ``finish(ticket)``; or
        ``(seconds, None)``: how long to wait before asking again."""
        ...

    async def finish(self, key_id: str, ticket: float) -> None:
        """The start ``ticket`` names has its answer: it counts from now, for one window."""
        ...

    async def block_for(self, key_id: str, seconds: float) -> None:
        """Hold every process back for ``seconds``."""
        ...

    async def wait_time(self, key_id: str, limit: int | None, window: float, ahead: int) -> float:
        """Seconds a start asked for now would wait behind ``ahead`` others (nothing recorded)."""
        ...


class Leadership(Protocol):
    """Which instance runs the jobs only one may run (the status poller, the follow-up of
    lost creates, the agent event webhooks)."""

    async def leads(self) -> bool:
        """Whether this instance does the job's next pass."""
        ...

    async def close(self) -> None:
        """Stop leading, for another instance."""
        ...


class _AlwaysLeads:
    """The one process on the store leads."""

    async def leads(self) -> bool:
        """Always True."""
        return True

    async def close(self) -> None:
        """Nothing to let go of."""


class _UnsharedBudget:
    """No other process spends the key's budget: every start is granted at once and nothing
    is recorded, so ``SharedRequestLimiter`` over it is exactly its own ``RequestLimiter``."""

    async def try_start(
        self, key_id: str, limit: int | None, window: float
    ) -> tuple[float, float | None]:
        """Granted now, with no ticket to finish."""
        return 0.0, None

    async def finish(self, key_id: str, ticket: float) -> None:
        """Never called: no start has a ticket."""

    async def block_for(self, key_id: str, seconds: float) -> None:
        """Nobody else to hold back."""

    async def wait_time(self, key_id: str, limit: int | None, window: float, ahead: int) -> float:
        """No wait beyond the process's own."""
        return 0.0


ALWAYS_LEADS: Leadership = _AlwaysLeads()
UNSHARED_BUDGET: SharedBudget = _UnsharedBudget()


async def _nothing_to_close() -> None:
    return None


@dataclass(frozen=True)
class Coordination:
    """The seams of one open store, whether they are shared, and how to close them."""

    chat_locks: ChatTurnLocks
    leadership: Leadership
    rate_budget: SharedBudget
    send_budget: SendBudget
    request_buckets: RequestBuckets
    shared: bool
    close: Callable[[], Awaitable[None]] = _nothing_to_close
    # WhatsApp's send windows and holds, apart from Telegram's (``bot.whatsapp.pacing``).
    whatsapp_send_budget: SendBudget = UNSHARED_SEND_BUDGET


def in_process() -> Coordination:
    """One process owns the store: its memory is enough."""
    return Coordination(
        ChatLocks(),
        ALWAYS_LEADS,
        UNSHARED_BUDGET,
        UNSHARED_SEND_BUDGET,
        LocalBuckets(),
        shared=False,
    )
