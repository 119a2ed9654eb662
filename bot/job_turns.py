"""``JobTurns``: when a background job that must run once for all instances does its work.

The follow-up of lost creates and the agent event webhooks work rows any process on the store
may have kept. With several instances only the leader works them (``leads``, the instance
holding ``store.leadership``), and since what another process kept cannot wake this one, the
job also looks at least every ``look_seconds``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class JobTurns:
    """``leads``: None to work always, else asked before each pass; ``look_seconds``: None to
    wait only for a wake or the next due row, else the longest wait between passes."""

    leads: Callable[[], Awaitable[bool]] | None = None
    look_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.leads is not None and self.look_seconds is None:
            # A job that does not lead would never ask again.
            raise ValueError("a job that asks whether it leads needs look_seconds")

    async def leading(self) -> bool:
        """Whether this process does the next pass."""
        return self.leads is None or await self.leads()

    def wait(self, due_in: float | None) -> float | None:
        """How long to wait before the next pass, when the next row is due in ``due_in``
        seconds (None: none is)."""
        if self.look_seconds is None:
            return due_in
        return self.look_seconds if due_in is None else min(due_in, self.look_seconds)
