"""Idempotency keys on create.

A key is remembered per org for ``idempotency_ttl_hours`` (24 h by default) together with a
fingerprint of the request body (its canonical JSON). Reusing the key with the same body answers
201 with the delivery the key first created, as it is now, plus ``Idempotent-Replayed: true``;
no new delivery and no new webhook. Reusing it with a different body is 400
``validation_error`` on ``idempotencyKey``. Concurrent creates with one key run one at a time,
so the second sees the first's delivery.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

from bot.clocks import Clock
from bot.sandbox.error_envelope import validation_error
from bot.sandbox.state import IdempotencyEntry


def fingerprint(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class IdempotencyRegistry:
    def __init__(self, ttl_seconds: float, clock: Clock) -> None:
        self._ttl = ttl_seconds
        self._clock = clock
        self._entries: dict[str, IdempotencyEntry] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def guard(self, key: str | None) -> AsyncIterator[None]:
        """Serialise creates that share ``key`` (no-op without a key)."""
        if key is None:
            yield
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            yield

    def replay(self, key: str | None, body_fingerprint: str) -> str | None:
        """The delivery id an earlier create with ``key`` made, or None for a fresh key."""
        if key is None:
            return None
        entry = self._entries.get(key)
        if entry is None or self._clock() - entry.created_at > self._ttl:
            return None
        if entry.fingerprint != body_fingerprint:
            raise validation_error(
                {"idempotencyKey": ["was already used with a different request body"]}
            )
        return entry.delivery_id

    def remember(self, key: str | None, body_fingerprint: str, delivery_id: str) -> None:
        if key is not None:
            self._entries[key] = IdempotencyEntry(body_fingerprint, delivery_id, self._clock())
