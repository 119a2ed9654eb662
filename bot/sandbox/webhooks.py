"""Webhook delivery: a queue of signed POSTs with bounded retries, and a log of every attempt.

Events enter the queue only after the API response that caused them is complete (the API hands
them over in a Starlette background task), so a receiver never hears of a delivery before the
caller does. Each endpoint subscribed to the event type (``*`` or the type) gets its own job.

An attempt succeeds on any 2xx. A non-2xx answer, a timeout or a connection error is retried
after 5 s, 30 s, 2 min, 10 min and 30 min: at most 6 attempts in about 43 minutes, then the
job is dropped ("gave_up" in the log). Every attempt is signed afresh with the current time, so
a late retry still passes the receiver's 300 s timestamp check.

Jobs become *due* at clock times. ``deliver_due`` sends every due job; the optional worker
(``start``) calls it whenever work arrives or the next retry falls due; ``drain`` lets tests and
the demo wait for all due work without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import httpx

from bot.partner.signing import EVENT_HEADER, SIGNATURE_HEADER, sign
from bot.sandbox.clock import Clock
from bot.sandbox.events import Event
from bot.sandbox.scenario import WebhookEndpointSettings

RETRY_DELAYS_SECONDS: tuple[float, ...] = (5, 30, 120, 600, 1800)
MAX_ATTEMPTS = len(RETRY_DELAYS_SECONDS) + 1
ATTEMPT_TIMEOUT_SECONDS = 10.0
LOG_SIZE = 1000


@dataclass(frozen=True)
class WebhookAttempt:
    """One POST of one event to one endpoint, as the admin log shows it."""

    event_id: str
    event_type: str
    endpoint_id: str
    url: str
    attempt: int
    at: float
    status_code: int | None
    error: str | None
    outcome: str  # "delivered", "retry_scheduled" or "gave_up"
    next_attempt_at: float | None

    def as_dict(self) -> dict[str, object]:
        return {
            "event_id": self.event_id,
            "event_type": self.event_type,
            "endpoint_id": self.endpoint_id,
            "url": self.url,
            "attempt": self.attempt,
            "at": self.at,
            "status_code": self.status_code,
            "error": self.error,
            "outcome": self.outcome,
            "next_attempt_at": self.next_attempt_at,
        }


@dataclass
class _Job:
    event: Event
    endpoint: WebhookEndpointSettings
    due_at: float
    seq: int
    attempt: int = 1


class WebhookOutbox:
    def __init__(
        self,
        endpoints: Sequence[WebhookEndpointSettings],
        clock: Clock,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = ATTEMPT_TIMEOUT_SECONDS,
    ) -> None:
        self._endpoints = list(endpoints)
        self._clock = clock
        self._transport = transport
        self._timeout = timeout
        self._jobs: list[_Job] = []
        self._seq = 0
        self._log: deque[WebhookAttempt] = deque(maxlen=LOG_SIZE)
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._client: httpx.AsyncClient | None = None

    # --- queue ------------------------------------------------------------------------------

    def enqueue(self, events: Sequence[Event]) -> None:
        """Queue ``events`` for every subscribed endpoint, due now."""
        now = self._clock()
        for event in events:
            for endpoint in self._endpoints:
                if endpoint.wants(event.type):
                    self._seq += 1
                    self._jobs.append(_Job(event, endpoint, now, self._seq))
        self._wake.set()

    @property
    def pending(self) -> int:
        """Jobs not finished yet, due or waiting for a retry."""
        return len(self._jobs)

    def next_due_at(self) -> float | None:
        return min((job.due_at for job in self._jobs), default=None)

    def log(self) -> list[WebhookAttempt]:
        return list(self._log)

    # --- sending ----------------------------------------------------------------------------

    async def deliver_due(self) -> int:
        """Send every job that is due, oldest first, including retries that fell due meanwhile.

        Returns the number of attempts made. Jobs whose retry is in the future stay queued.
        """
        attempts = 0
        async with self._lock:
            while True:
                now = self._clock()
                due = sorted((j for j in self._jobs if j.due_at <= now), key=_job_order)
                if not due:
                    return attempts
                for job in due:
                    self._jobs.remove(job)
                    await self._attempt(job)
                    attempts += 1

    async def drain(self) -> None:
        """Return once no job is due (retries scheduled for later stay queued)."""
        await self.deliver_due()

    async def _attempt(self, job: _Job) -> None:
        sent_at = self._clock()
        headers = {
            "Content-Type": "application/json",
            EVENT_HEADER: job.event.type,
            SIGNATURE_HEADER: sign(job.event.raw, job.endpoint.secret, int(sent_at)),
        }
        status: int | None = None
        error: str | None = None
        client = self._http()
        try:
            response = await client.post(job.endpoint.url, content=job.event.raw, headers=headers)
            status = response.status_code
            if not 200 <= status < 300:
                error = f"receiver answered HTTP {status}"
        except httpx.TimeoutException:
            error = "timed out"
        except Exception as exc:
            # Any failure to get an answer (refused connection, or an in-process receiver that
            # raised through ASGITransport) is a failed attempt to retry, never a dead queue.
            error = f"{type(exc).__name__}: {exc}"
        if error is None:
            self._record(job, sent_at, status, None, "delivered", None)
            return
        if job.attempt >= MAX_ATTEMPTS:
            self._record(job, sent_at, status, error, "gave_up", None)
            return
        next_at = sent_at + RETRY_DELAYS_SECONDS[job.attempt - 1]
        self._record(job, sent_at, status, error, "retry_scheduled", next_at)
        job.attempt += 1
        job.due_at = next_at
        self._jobs.append(job)

    def _record(
        self,
        job: _Job,
        at: float,
        status: int | None,
        error: str | None,
        outcome: str,
        next_at: float | None,
    ) -> None:
        self._log.append(
            WebhookAttempt(
                event_id=job.event.id,
                event_type=job.event.type,
                endpoint_id=job.endpoint.id,
                url=job.endpoint.url,
                attempt=job.attempt,
                at=at,
                status_code=status,
                error=error,
                outcome=outcome,
                next_attempt_at=next_at,
            )
        )

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                transport=self._transport,
                timeout=httpx.Timeout(self._timeout),
                follow_redirects=False,
                trust_env=False,
                headers={"User-Agent": "partner-sandbox-webhooks"},
            )
        return self._client

    # --- worker -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Run a background worker that sends jobs as they fall due (the standalone server)."""
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._run(), name="sandbox-webhooks")

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            await self.deliver_due()
            next_due = self.next_due_at()
            delay = None if next_due is None else max(0.0, next_due - self._clock())
            if delay == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def aclose(self) -> None:
        """Stop the worker and close the HTTP client; queued jobs are dropped."""
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def _job_order(job: _Job) -> tuple[float, int]:
    return job.due_at, job.seq
