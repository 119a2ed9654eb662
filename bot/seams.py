"""``Seams``: what tests, benchmarks and the demo replace in the bot; production uses the
defaults.

One type for every way the bot is built (``build_core``, ``Runtime``): the Partner API's, the
geocoder's, the agent webhooks' and the WhatsApp Cloud API's transports; a geocoder or a flow
registry of the caller's own; PTB's HTTP layer, the update processor and the send limiter
(Telegram only); the clocks, the sleep, the store's durability and the idempotency keys.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from bot.clocks import Clock, Sleep
from bot.metrics.business_metrics import Metrics
from bot.store.database import Synchronous
from conversations import Geocoder
from conversations.flow import FlowRegistry
from conversations.texts.business_texts import SharedTexts

if TYPE_CHECKING:  # Telegram's types: a bot without Telegram never loads PTB for its seams
    from telegram.request import BaseRequest

    from bot.telegram.application import ChatOrderedProcessor
    from bot.telegram.limits import RateLimiter


@dataclass(frozen=True)
class Seams:
    """See the module docstring. ``geocoder`` replaces the one ``[geocoding]`` describes (the
    demo's offline gazetteer; its giver closes it); ``registry`` the shipped flows;
    ``monotonic`` and ``sleep`` also time the Telegram adapter's waits (an album's quiet
    window)."""

    partner_transport: httpx.AsyncBaseTransport | None = None
    geocoder_transport: httpx.AsyncBaseTransport | None = None
    agent_webhook_transport: httpx.AsyncBaseTransport | None = None
    whatsapp_transport: httpx.AsyncBaseTransport | None = None  # the Cloud API's (a fake's)
    geocoder: Geocoder | None = None
    registry: FlowRegistry | None = None
    telegram_request: BaseRequest | None = None
    telegram_updates_request: BaseRequest | None = None
    processor: ChatOrderedProcessor | None = None
    limiter: RateLimiter | None = None
    clock: Clock = time.time
    monotonic: Clock = time.monotonic
    sleep: Sleep = asyncio.sleep
    synchronous: Synchronous = "FULL"
    new_idempotency_key: Callable[[], str] | None = None
    # What the business records its metrics into, instead of a registry built with its core:
    # a host of many businesses keeps each business's (or one shared) across its builds.
    metrics: Metrics | None = None
    # The texts a host's businesses share (``SharedTexts``): equal ``[texts]``, one set of
    # catalogues. None: the business builds its own.
    shared_texts: SharedTexts | None = None
