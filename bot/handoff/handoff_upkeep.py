"""``HandoffUpkeep``: the background job of hand-offs (``bot.jobs``).

Each pass sends what an instance left undelivered (it died holding a message: its lease ran
out), ends the hand-offs of customers blocked from the shell (``HandoffDesk.end_blocked``), and
closes the hand-offs silent for ``[operators] handoff_idle_hours``, telling both sides. Every
instance runs it: a message is claimed before it is sent, and a hand-off is closed by one
``UPDATE``, so two passes at once never send or close anything twice.
"""

from __future__ import annotations

from typing import Final

from bot.handoff.desk import HandoffDesk
from bot.jobs import Job

UPKEEP_SECONDS: Final = 60.0  # about a lease: a dead instance's message waits no longer


class HandoffUpkeep(Job):
    """A pass every ``UPKEEP_SECONDS``: messages left behind are sent, blocked customers'
    hand-offs ended, idle hand-offs closed."""

    name = "handoffs"

    def __init__(self, desk: HandoffDesk) -> None:
        super().__init__()
        self._desk = desk

    async def run_once(self) -> float:
        await self._desk.redeliver()
        await self._desk.end_blocked()
        await self._desk.close_idle()
        return UPKEEP_SECONDS
