"""An agent channel's customer the business does not take an order from now, as both doors
say it: blocked by an operator (``CustomerBlocked``: 403 ``customer_blocked``) or over one of
``[limits]`` (``CustomerOverLimit``: 429 ``customer_limit``).

A chat customer reads one sentence; an agent gets the same facts as data, so a program can
wait without parsing words::

    {"error": "customer_limit",
     "message": "You've placed 10 orders in the last hour, ... in about 35 minutes.",
     "limit": {"kind": "creates_per_hour", "most": 10},
     "retry_after": 2100, "retry_at": "2026-11-27T11:16:40Z"}

``retry_after`` (also the ``Retry-After`` header) and ``retry_at`` are null for a limit that
frees up when something happens rather than at a time (an open or unpaid delivery ending):
there is no header then. The 429 of the channel key's own budget (``rate_limited``) is another
thing: it is about the app, this one about one of its customers.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from bot.agents.agents_errors import AgentsError
from bot.limit_kinds import LIMIT_KINDS
from bot.safety.customer_limits import LimitHit

BLOCKED_CODE = "customer_blocked"
LIMIT_CODE = "customer_limit"


class CustomerBlocked(AgentsError):
    """An operator blocked the customer: no conversation is started for them (``message``:
    the sentence a chat customer reads)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def body(self) -> dict[str, Any]:
        """The door's JSON answer."""
        return {"error": BLOCKED_CODE, "message": self.message}


class CustomerOverLimit(AgentsError):
    """The customer is over ``hit``'s limit: nothing was started or created (``message``: the
    sentence a chat customer reads, in the conversation's language)."""

    def __init__(self, hit: LimitHit, message: str) -> None:
        super().__init__(message)
        self.hit = hit
        self.message = message

    @property
    def retry_after(self) -> int | None:
        """Whole seconds until the customer may go on, rounded up; None: not a matter of time."""
        wait = self.hit.wait_seconds
        return None if wait is None else max(1, math.ceil(wait))

    def headers(self) -> dict[str, str]:
        """``Retry-After`` when there is a time to wait for."""
        seconds = self.retry_after
        return {} if seconds is None else {"Retry-After": str(seconds)}

    def body(self) -> dict[str, Any]:
        """The door's JSON answer (see the module docstring)."""
        retry_at = self.hit.retry_at
        return {
            "error": LIMIT_CODE,
            "message": self.message,
            "limit": {"kind": self.hit.kind, "most": self.hit.limit},
            "retry_after": self.retry_after,
            "retry_at": None if retry_at is None else _utc(math.ceil(retry_at)),
        }


def _utc(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


LIMIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A customer over one of the business's limits: nothing was started or "
    "created; say `message` to them, and try again after `retry_at` (null: once one of their "
    "open or unpaid deliveries ends).",
    "properties": {
        "error": {"type": "string", "enum": [LIMIT_CODE]},
        "message": {"type": "string"},
        "limit": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": sorted(LIMIT_KINDS)},
                "most": {"type": "integer"},
            },
            "required": ["kind", "most"],
        },
        "retry_after": {"type": ["integer", "null"], "minimum": 1},
        "retry_at": {"type": ["string", "null"], "format": "date-time"},
    },
    "required": ["error", "message", "limit", "retry_after", "retry_at"],
}
"""``CustomerOverLimit.body`` as the OpenAPI document describes it."""
