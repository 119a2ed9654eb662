"""``StatusPoller``: polling mode, for a bot without a public host to receive webhooks.

A leader-only job (``bot.jobs``): of the processes sharing a store one polls for all.
Every ``interval_seconds`` the poller reads open deliveries (``store.deliveries.list_open``)
with ``GET /deliveries/{id}``. When a delivery's status differs from what its chat was last
shown, it stores a synthetic event in the same inbox the webhooks use, so the relay sends it
by the same path, once, in order::

    id       "poll:<delivery_id>:<status>:<updated_at>"   (the same change always has the same
             id, so seeing it again before the relay ran stores nothing new)
    type     delivery.status_changed, or delivery.completed / delivery.cancelled
    created  the delivery's updated_at (unix seconds): ordered against webhook events
    data     { object: the delivery as read, previous_status: the chat's last status }
    summary  one plain sentence written by the poller

Rate budget: the API key's per-minute limit is shared with every customer chat, so a round
reads at most ``budget_fraction`` of one minute's requests, scaled to the interval (at 60 s and
the default 0.5, half the limit per minute), and only while the key has room for the customers'
share (the rest of the minute) on top: it stops as soon as a request would have to wait behind
that many others. So a customer who confirms right after a round finds the key free, and on
a shared store the forecast is the budget it keeps (``expected_wait``), which counts what the
other processes used. An unknown limit counts as the smallest plan's 60 per minute.
Deliveries polled least recently go first, so with more open deliveries than one round allows
every delivery is still read in turn.

Trade-off against webhooks, documented for operators:

* latency: a change reaches the chat up to one interval (plus the rounds it takes to reach the
  delivery) after it happened, instead of within a second;
* only status changes are seen: no service-written ``summary``, ``customer_message_hint`` or
  ``agent_notes``, and no ``delivery.otp_issued``, so drop-off codes are not relayed (the
  service must send them itself: OTP via webhook only must be off);
* a status that changes and changes back between two reads is never seen;
* it costs API requests: one per open delivery per round.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable

from bot.clocks import Clock
from bot.jobs import Job
from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import Delivery
from bot.store import DeliveryLink, Store
from conversations.texts import deliveries_texts as wording
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue

logger = logging.getLogger(__name__)


_ASSUMED_REQUESTS_PER_MINUTE = 60
_FINAL_EVENT_TYPES = {"delivered": "delivery.completed", "cancelled": "delivery.cancelled"}


class StatusPoller(Job):
    """Feeds status changes read from the Partner API into the inbox; see the module docstring.

    ``on_event`` is called after a round stored new events (pass ``relay.wake``).
    ``max_per_round`` overrides the computed budget. Its ``look_seconds`` is the interval: a
    round every interval (after a failed one too), in the leading process.
    """

    name = "status-poller"
    leader_only = True

    def __init__(
        self,
        store: Store,
        client: PartnerClient,
        *,
        interval_seconds: float = 60.0,
        budget_fraction: float = 0.5,
        max_per_round: int | None = None,
        on_event: Callable[[], None] | None = None,
        clock: Clock = time.time,
        texts: BusinessTexts | None = None,
    ) -> None:
        if not math.isfinite(interval_seconds) or interval_seconds <= 0:
            raise ValueError("interval_seconds must be a positive number")
        if not 0 < budget_fraction <= 1:
            raise ValueError("budget_fraction must be in (0, 1]")
        if max_per_round is not None and max_per_round < 1:
            raise ValueError("max_per_round must be at least 1")
        super().__init__(look_seconds=interval_seconds)
        self._store = store
        self._client = client
        self._interval = interval_seconds
        self._fraction = budget_fraction
        self._max_per_round = max_per_round
        self._on_event = on_event
        # A polled change's summary is for operators: the business's default language.
        self._texts = texts or BusinessTexts(DEFAULT_TEXTS)
        self._clock = clock
        self._last_polled: dict[str, float] = {}

    def round_budget(self) -> int:
        """How many deliveries one round may read."""
        if self._max_per_round is not None:
            return self._max_per_round
        per_minute = self._client.limiter.requests_per_minute or _ASSUMED_REQUESTS_PER_MINUTE
        share = per_minute * self._fraction * min(self._interval, 60.0) / 60.0
        return max(1, math.floor(share))

    def customers_share(self) -> int:
        """Requests of a minute the poller leaves to customers: the rest of the key's limit."""
        per_minute = self._client.limiter.requests_per_minute or _ASSUMED_REQUESTS_PER_MINUTE
        return per_minute - max(1, math.floor(per_minute * self._fraction))

    async def run_once(self) -> None:
        """One round; the next comes after the interval (``look_seconds``)."""
        await self.poll_once()

    def backoff(self, failures: int) -> float:
        """A failed round is followed by the next one an interval later, as any other."""
        return self._interval

    async def poll_once(self) -> int:
        """One round; returns how many status changes were stored in the inbox."""
        open_links = await self._store.deliveries.list_open()
        still_open = {link.delivery_id for link in open_links}
        for delivery_id in set(self._last_polled) - still_open:
            del self._last_polled[delivery_id]
        open_links.sort(key=lambda link: self._last_polled.get(link.delivery_id, -math.inf))
        stored = 0
        for link in open_links[: self.round_budget()]:
            if await self._client.limiter.expected_wait(ahead=self.customers_share()) > 0:
                break  # the key is busy: customers' requests go first
            self._last_polled[link.delivery_id] = self._clock()
            try:
                delivery = await self._client.get_delivery(link.delivery_id)
            except errors.NotFound:
                logger.warning("delivery %s is unknown to the Partner API", link.delivery_id)
                continue
            except errors.ClientError as exc:
                logger.warning("polling %s refused (%s)", link.delivery_id, exc.code or exc.status)
                if isinstance(exc, errors.RateLimited | errors.AuthenticationError):
                    break
                continue
            except errors.PartnerError as exc:
                logger.warning("polling stopped for this round: %s", type(exc).__name__)
                break
            if delivery.status != link.status and await self._store_change(link, delivery):
                stored += 1
        if stored and self._on_event is not None:
            self._on_event()
        return stored

    async def _store_change(self, link: DeliveryLink, delivery: Delivery) -> bool:
        event_id, event_type, created, body = synthetic_event(
            self._texts.business_catalogue(), link, delivery, now=self._clock()
        )
        return await self._store.inbox.add(event_id, delivery.id, event_type, created, body)


def synthetic_event(
    catalogue: Catalogue, link: DeliveryLink, delivery: Delivery, *, now: float
) -> tuple[str, str, int, bytes]:
    """``(event_id, type, created, raw_body)`` of the event standing for a polled change."""
    if delivery.updated_at is not None:
        created = int(delivery.updated_at.timestamp())
        stamp = delivery.updated_at.isoformat()
    else:
        created = int(now)
        stamp = str(created)
    event_id = f"poll:{delivery.id}:{delivery.status}:{stamp}"
    event_type = _FINAL_EVENT_TYPES.get(delivery.status, "delivery.status_changed")
    body = {
        "id": event_id,
        "type": event_type,
        "created": created,
        "data": {"object": delivery.model_dump(mode="json"), "previous_status": link.status},
        "summary": wording.polled_summary(catalogue, delivery.id, delivery.status),
        "customer_message_hint": None,
        "docs_url": None,
        "agent_notes": [],
    }
    return event_id, event_type, created, json.dumps(body).encode("utf-8")
