"""``SharedRequestLimiter``: the process's ``RequestLimiter``, plus a budget shared by every
process of the bot on the store (``store.rate_budget``).

Each request first waits its turn at this process's sliding log (so a burst of local requests
queues in memory, in order), then, still in that turn, asks the shared budget for a start. The
shared budget answers "go" (the start is recorded for every process to see, and in this
process's log) or "wait this long"; this process then sleeps that long and asks again. As in
the process's own log, a start holds its place in the shared budget until its answer is back:
``release`` tells the budget when (``finish``), and a window from then the place is free. A
429's ``Retry-After`` holds back this process at once and every other one through the
shared budget.

``expected_wait`` (what the create-wait notice tells a customer) asks the shared budget too:
this process's own log holds only its own starts, and three processes sharing 60 requests a
minute each see a third of them.

The key is known to the budget by ``key_fingerprint(api_key)`` only, so the database never
holds the secret.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Coroutine

from bot.clocks import Clock, Sleep
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.partner.request_limiter import DEFAULT_WINDOW_SECONDS, RequestLimiter, RequestSlot
from bot.store.coordination import SharedBudget

log = logging.getLogger(__name__)


# Pauses between the tries to tell the shared budget a request finished (None: the last try).
FINISH_RETRY_PAUSES: tuple[float | None, ...] = (0.5, 2.0, None)


def key_fingerprint(api_key: str) -> str:
    """A stable name for an API key that reveals nothing of it."""
    return hashlib.sha256(b"deliverybot-rate-budget:" + api_key.encode()).hexdigest()[:32]


class SharedRequestLimiter(RequestLimiter):
    """A ``RequestLimiter`` whose starts also count against ``budget``; see the module doc."""

    def __init__(
        self,
        budget: SharedBudget,
        key_id: str,
        requests_per_minute: int | None = None,
        *,
        window_seconds: float = DEFAULT_WINDOW_SECONDS,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        super().__init__(
            requests_per_minute,
            window_seconds=window_seconds,
            clock=clock,
            sleep=sleep,
            metrics=metrics,
        )
        self._budget = budget
        self._key_id = key_id
        self._pending: set[asyncio.Task[None]] = set()  # blocks and finishes being shared

    def __repr__(self) -> str:
        return f"Shared{super().__repr__()}"

    async def _wait_for_shared_start(self) -> float | None:
        """Ask the shared budget for a start, sleeping as long as it says, until granted, and
        return the start's ticket.

        Asked in this process's FIFO turn, after its own log let the request through; the
        request's start goes into that log only once granted, so a local backlog waiting for
        the shared budget never counts as starts made (it would hold the process back a whole
        window for requests that never went out)."""
        while True:
            wait, ticket = await self._budget.try_start(
                self._key_id, self.requests_per_minute, self._window
            )
            if wait <= 0:
                return ticket
            await self._sleep(wait)

    def release(self, slot: RequestSlot) -> None:
        """Release the slot here now, and in the shared budget once it has heard (until then,
        and if it never does, the budget counts the start as in use: the safe side)."""
        if slot.released:
            return
        super().release(slot)
        if slot.ticket is not None:
            self._share(self._share_finish(slot.ticket))

    async def expected_wait(self, *, ahead: int = 0) -> float:
        """Seconds a request asking now would wait: the longer of this process's line and
        the shared budget's (with this process's waiters, and ``ahead`` more, before it)."""
        local = await super().expected_wait(ahead=ahead)
        ahead += self._in_line
        try:
            shared = await self._budget.wait_time(
                self._key_id, self.requests_per_minute, self._window, ahead
            )
        except Exception:
            # Only a notice depends on it: the request itself still asks the budget.
            log.warning("could not ask the shared request budget how long a request waits")
            return local
        return max(local, shared)

    def block_for(self, seconds: float) -> None:
        """Hold back this process now, and every other once the budget has the block."""
        super().block_for(seconds)
        self._share(self._share_block(seconds))

    async def settle(self) -> None:
        """Also wait until the shared budget has heard every release and block told it (a
        release it never hears holds its place there until the budget's limit for that runs out)."""
        await super().settle()
        await asyncio.gather(*self._pending, return_exceptions=True)

    def _share(self, telling: Coroutine[None, None, None]) -> None:
        task = asyncio.get_running_loop().create_task(telling)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _share_finish(self, ticket: float) -> None:
        # Told again after a failure (a database blip): until the budget hears it, every
        # process counts the start as in use, for up to the budget's limit for that.
        for pause in FINISH_RETRY_PAUSES:
            try:
                await self._budget.finish(self._key_id, ticket)
                return
            except Exception:
                if pause is None:
                    log.warning("could not tell the shared request budget a request finished")
                    return
            await self._sleep(pause)

    async def _share_block(self, seconds: float) -> None:
        try:
            await self._budget.block_for(self._key_id, seconds)
        except Exception:
            # This process is held back anyway; the others learn from their own 429.
            log.warning("could not share a rate-limit block with the other processes")
