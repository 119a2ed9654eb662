"""``Seams``: what tests and benchmarks replace in the runtime; production uses the defaults."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx
from telegram.request import BaseRequest

from bot.clocks import Clock, Sleep
from bot.store.database import Synchronous
from bot.telegram.application import ChatOrderedProcessor
from bot.telegram.limits import RateLimiter


@dataclass(frozen=True)
class Seams:
    """What a test or a benchmark replaces; production uses the defaults.

    The Partner API's and the geocoder's transports, PTB's HTTP layer, the update processor,
    the send limiter (and so its clock), the store's clock and durability, idempotency keys,
    and the monotonic clock and sleep of the Telegram adapter's waits (an album's quiet window).
    """

    partner_transport: httpx.AsyncBaseTransport | None = None
    geocoder_transport: httpx.AsyncBaseTransport | None = None
    telegram_request: BaseRequest | None = None
    telegram_updates_request: BaseRequest | None = None
    processor: ChatOrderedProcessor | None = None
    limiter: RateLimiter | None = None
    clock: Clock = time.time
    synchronous: Synchronous = "FULL"
    new_idempotency_key: Callable[[], str] | None = None
    monotonic: Clock = time.monotonic
    sleep: Sleep = asyncio.sleep
