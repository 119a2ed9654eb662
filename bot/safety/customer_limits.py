"""``[limits]`` for each customer: ``CustomerLimits`` says whether they may start an order or
have one created, and what to tell them when not.

::

    hit = await limits.before_create(user)     # at the summary's Confirm
    if hit is not None:
        turn = the summary again, after hit.said(catalogue)   # nothing is created

A caller that answers in its own terms (an agent channel's 429) hands the chat service a list
for the hits of its call (``limit_hits``); the chat service still hands back its turn::

    hits: list[LimitHit] = []
    turn = await chats.handle(chat, user, confirm, limit_hits=hits)
    if hits: ...                                   # hits[0]: which limit, until when

Counted in the store (``store.customer_counts``), so every instance and a restart see the same
counts. Each hit is written to the audit trail (actor ``bot``, action ``limit``); the operator
chats are told once per customer per day (a sent marker ``limit:<customer>:<day>``, shared by
instances), so a customer hammering the limit does not flood them. Operators read that alert
in the business's language, as they read everything else, whichever customer's turn hit it.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.config.limits_section import LimitsConfig
from bot.limit_kinds import LimitKind
from bot.store import SendKey, Store
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

HOUR = 3600.0
DAY = 86_400.0
AlertOperators = Callable[[str], Awaitable[None]]
_ALERT_KIND = "limit_alert"
_NO_CHAT = ChatRef(TELEGRAM, 0)  # the marker is the customer's and the day's, of no chat


@dataclass(frozen=True)
class LimitHit:
    """``kind``'s ``limit`` is reached; ``wait_seconds`` until the customer may go on (None:
    until one of their open deliveries is delivered or cancelled, or an unpaid one is paid)."""

    kind: LimitKind
    limit: int
    wait_seconds: float | None
    at: float = field(default=0.0, compare=False)  # when it was hit (the store's clock)

    @property
    def retry_at(self) -> float | None:
        """When the customer may go on (None: once an open delivery of theirs ends)."""
        return None if self.wait_seconds is None else self.at + self.wait_seconds

    def said(self, catalogue: Catalogue) -> str:
        """What the customer is told, said from ``catalogue``."""
        message = f"safety.limit.{self.kind}"
        if self.wait_seconds is None:
            return catalogue.say(message, limit=self.limit)
        return catalogue.say(message, limit=self.limit, wait=_wait(catalogue, self.wait_seconds))


class CustomerLimits:
    """The checks of ``[limits]``; ``alert_operators`` (None: nobody to tell) hears each
    customer's first hit of a day, said from ``texts``' business catalogue (the business's
    ``BusinessTexts``: operators read their alerts in the business's language)."""

    def __init__(
        self,
        store: Store,
        limits: LimitsConfig,
        alert_operators: AlertOperators | None = None,
        *,
        texts: BusinessTexts,
    ) -> None:
        self._store = store
        self._limits = limits
        self._alert = alert_operators
        self._texts = texts

    async def before_draft(self, user: UserRef) -> LimitHit | None:
        """Whether ``user`` may start an order now; when they may, it is counted as started
        (while ``drafts_per_hour`` is on)."""
        counts, most = self._store.customer_counts, self._limits.drafts_per_hour
        if not most:
            return None  # not counted either: a write per order started, for nothing
        started = await counts.drafts_since(user, self._store.clock() - HOUR)
        if started.count >= most:
            return await self._hit(user, "drafts_per_hour", most, started.oldest, HOUR)
        await counts.start_draft(user)
        return None

    async def before_create(self, user: UserRef) -> LimitHit | None:
        """Whether a delivery may be created for ``user`` now."""
        counts, limits, now = self._store.customer_counts, self._limits, self._store.clock()
        most_open = limits.open_deliveries
        if most_open and await counts.open_deliveries(user) >= most_open:
            return await self._hit(user, "open_deliveries", most_open, None, 0)
        most_unpaid = limits.unpaid_deliveries
        if most_unpaid and await counts.unpaid_deliveries(user) >= most_unpaid:
            return await self._hit(user, "unpaid_deliveries", most_unpaid, None, 0)
        windows: tuple[tuple[LimitKind, int, float], ...] = (
            ("creates_per_day", limits.creates_per_day, DAY),
            ("creates_per_hour", limits.creates_per_hour, HOUR),
        )
        for kind, most, window in windows:
            if not most:
                continue
            created = await counts.created_since(user, now - window)
            if created.count >= most:
                return await self._hit(user, kind, most, created.oldest, window)
        return None

    async def _hit(
        self, user: UserRef, kind: LimitKind, limit: int, oldest: float | None, window: float
    ) -> LimitHit:
        now = self._store.clock()
        wait = None if oldest is None else max(oldest + window - now, 60.0)
        hit = LimitHit(kind, limit, wait, now)
        await self._store.audit.record("bot", "limit", str(user), f"refused: {kind}", str(limit))
        day = int(now // DAY)
        key = SendKey(f"limit:{user}:{day}", _NO_CHAT, _ALERT_KIND)
        if self._alert is not None and await self._store.sent.mark_sent(key, None):
            staff = self._texts.business_catalogue()
            await self._alert(
                staff.say("safety.limit_alert", customer=user, kind=kind, limit=limit)
            )
        return hit


def _wait(catalogue: Catalogue, seconds: float) -> str:
    """``about 40 minutes`` / ``about 3 hours``, rounded up: never earlier than true."""
    if seconds < 90 * 60:
        return catalogue.say("safety.wait.minutes", count=math.ceil(seconds / 60))
    return catalogue.say("safety.wait.hours", count=math.ceil(seconds / HOUR))
