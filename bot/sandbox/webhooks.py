"""Webhook delivery: a queue of signed POSTs with bounded retries, and a log of every attempt.

Events enter the queue only after the API response that caused them is complete (the API hands
them over in a Starlette background task), so a receiver never hears of a delivery before the
caller does. Each endpoint subscribed to the event type (``*`` or the type) gets its own job.

Every endpoint has its own queue, sent in order, one attempt at a time; endpoints are served
concurrently, so a receiver that hangs until its time-out delays only its own events.

An attempt succeeds on any 2xx. A non-2xx answer, a timeout or a connection error is retried
5 s, 30 s, 2 min, 10 min and 30 min after the failed attempt *ended* (a 10 s time-out does not
eat into the pause): at most 6 attempts, then the job is dropped ("gave_up" in the log). Every
attempt is signed afresh with the current time, so a late retry still passes the receiver's
300 s timestamp check.

Jobs become *due* at clock times. ``deliver_due`` sends every due job; the optional worker
(``start``, one task per endpoint) sends jobs as they arrive or their retry falls due; ``drain``
lets tests and the demo wait for all due work without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import httpx

from bot.clocks import Clock
from bot.partner.signing import EVENT_HEADER, SIGNATURE_HEADER, sign
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


class _EndpointQueue:
    """One endpoint's jobs, sent in order by one sender at a time."""

    def __init__(self, endpoint: WebhookEndpointSettings) -> None:
        self.endpoint = endpoint
        self.jobs: list[_Job] = []
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.in_flight = 0

    def due(self, now: float) -> list[_Job]:
        return sorted((job for job in self.jobs if job.due_at <= now), key=_job_order)

    def next_due_at(self) -> float | None:
        return min((job.due_at for job in self.jobs), default=None)


class WebhookOutbox:
    def __init__(
        self,
        endpoints: Sequence[WebhookEndpointSettings],
        clock: Clock,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = ATTEMPT_TIMEOUT_SECONDS,
    ) -> None:
        self._queues = [_EndpointQueue(endpoint) for endpoint in endpoints]
        self._clock = clock
        self._transport = transport
        self._timeout = timeout
        self._seq = 0
        self._log: deque[WebhookAttempt] = deque(maxlen=LOG_SIZE)
        self._workers: list[asyncio.Task[None]] = []
        self._client: httpx.AsyncClient | None = None

    # --- queue ------------------------------------------------------------------------------

    def enqueue(self, events: Sequence[Event]) -> None:
        """Queue ``events`` for every subscribed endpoint, due now."""
        now = self._clock()
        for event in events:
            for queue in self._queues:
                if queue.endpoint.wants(event.type):
                    self._seq += 1
                    queue.jobs.append(_Job(event, queue.endpoint, now, self._seq))
                    queue.wake.set()

    @property
    def pending(self) -> int:
        """Jobs not finished yet: due, being sent, or waiting for a retry."""
        return sum(len(queue.jobs) + queue.in_flight for queue in self._queues)

    def next_due_at(self) -> float | None:
        return min(
            (due for queue in self._queues if (due := queue.next_due_at()) is not None),
            default=None,
        )

    def log(self) -> list[WebhookAttempt]:
        return list(self._log)

    # --- sending ----------------------------------------------------------------------------

    async def deliver_due(self) -> int:
        """Send every job that is due, including retries that fell due meanwhile.

        Each endpoint's jobs go oldest first; endpoints are served concurrently. Returns the
        number of attempts made. Jobs whose retry is in the future stay queued.
        """
        counts = await asyncio.gather(*(self._deliver_queue(q) for q in self._queues))
        return sum(counts)

    async def drain(self) -> None:
        """Return once no job is due (retries scheduled for later stay queued)."""
        await self.deliver_due()

    async def _deliver_queue(self, queue: _EndpointQueue) -> int:
        attempts = 0
        async with queue.lock:
            while due := queue.due(self._clock()):
                for job in due:
                    queue.jobs.remove(job)
                    queue.in_flight += 1
                    try:
                        await self._attempt(queue, job)
                    finally:
                        queue.in_flight -= 1
                    attempts += 1
        return attempts

    async def _attempt(self, queue: _EndpointQueue, job: _Job) -> None:
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
        # The pause starts when this attempt is over, however long the receiver held it.
        next_at = self._clock() + RETRY_DELAYS_SECONDS[job.attempt - 1]
        self._record(job, sent_at, status, error, "retry_scheduled", next_at)
        job.attempt += 1
        job.due_at = next_at
        queue.jobs.append(job)

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

    # --- workers ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Run background workers, one per endpoint, that send jobs as they fall due."""
        if self._workers and not all(worker.done() for worker in self._workers):
            return
        self._workers = [
            asyncio.create_task(self._run(queue), name=f"sandbox-webhooks-{queue.endpoint.id}")
            for queue in self._queues
        ]

    async def _run(self, queue: _EndpointQueue) -> None:
        while True:
            queue.wake.clear()
            await self._deliver_queue(queue)
            next_due = queue.next_due_at()
            delay = None if next_due is None else max(0.0, next_due - self._clock())
            if delay == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queue.wake.wait(), timeout=delay)

    async def aclose(self) -> None:
        """Stop the workers and close the HTTP client; queued jobs are dropped."""
        for worker in self._workers:
            worker.cancel()
        for worker in self._workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        self._workers = []
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def _job_order(job: _Job) -> tuple[float, int]:
    return job.due_at, job.seq
