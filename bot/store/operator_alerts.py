"""``store.operator_alerts``: when each operator alert was last sent, by any instance.

An alert (a setting the operators must fix, a create nobody could confirm) is not repeated
within a while: the same fault raised by every customer's order would otherwise flood the
operator chat. With several instances each would send it once more; the time it was last
sent is therefore kept here, and taken in one statement, so of two instances raising the same
alert at once only one sends it.
"""

from __future__ import annotations

import hashlib

from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_TAKE = """INSERT INTO operator_alerts (alert, sent_at) VALUES (?, ?)
    ON CONFLICT (alert) DO UPDATE SET sent_at = excluded.sent_at
    WHERE operator_alerts.sent_at <= ?"""
_PRUNE = "DELETE FROM operator_alerts WHERE sent_at <= ?"


class OperatorAlerts:
    """See the module docstring; times are the store clock's (unix seconds)."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def take(self, text: str, *, repeat_after: float) -> bool:
        """True when ``text`` may be sent now (it was not sent in the last ``repeat_after``
        seconds), recording that it is; False when it was."""
        now = self._clock()
        alert = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return await self._db.execute(_TAKE, (alert, now, now - repeat_after)) > 0

    async def prune(self, before: float) -> int:
        """Forget the alerts last sent before ``before``; how many."""
        return await self._db.execute(_PRUNE, (before,))
