"""Injected faults and per-operation call counters, applied in front of the whole API.

A fault is armed for the next N calls of one operation. By default (``when="before"``) it
applies before authentication and the handler, as an upstream or network failure would.
``status`` and ``drop`` leave the call unhandled (it changes nothing); ``latency`` only delays it:

* ``status``: answer the error envelope with the given status (default: the operation's own
  failure status, 503 or 500) and the operation's failure code (``create_failed`` ...);
* ``latency``: wait ``latency_seconds`` (through the injected sleep) and then handle the call and
  answer normally. The request has been read in full before the wait, so a client that gives up
  meanwhile does not take its request with it: the call is still applied (its webhooks go out,
  an idempotency key remembers it) and only the answer is lost, as when a real server is slow;
* ``drop``: start the response and abort it, so the client sees the connection break with no
  usable answer (``httpx.RemoteProtocolError`` in process; a closed socket under uvicorn).

With ``when="after"`` the call is handled first, exactly as without a fault (the delivery is
created, cancelled, assigned ...; its webhooks are queued), and only then is its answer lost:
``status`` replaces the answer with the error envelope, ``drop`` breaks the connection instead
of answering, ``latency`` holds the answer back. That is the case a client's idempotency key
and its re-read after cancel, assign and unassign exist for: the request was applied, but the
caller cannot know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.clocks import Sleep
from bot.sandbox.error_envelope import ApiError, error_response, validation_error
from bot.sandbox.operations import OPERATIONS_BY_NAME, Operation, find_operation
from bot.sandbox.sandbox_errors import SandboxError

FaultKind = Literal["status", "latency", "drop"]
FaultTiming = Literal["before", "after"]
FAULT_KINDS: tuple[str, ...] = ("status", "latency", "drop")
FAULT_TIMINGS: tuple[str, ...] = ("before", "after")


class ConnectionDropped(httpx.RemoteProtocolError, SandboxError):
    """Raised inside the app for a ``drop`` fault; in process it reaches the client as is."""


@dataclass
class Fault:
    kind: FaultKind
    remaining: int
    status: int
    code: str
    latency_seconds: float
    when: FaultTiming = "before"


class FaultPlan:
    """Faults armed per operation, used up in the order they were armed."""

    def __init__(self) -> None:
        self._faults: dict[str, list[Fault]] = {}

    def inject(
        self,
        endpoint: str,
        kind: str,
        count: int = 1,
        *,
        status: int | None = None,
        latency_seconds: float = 2.0,
        code: str | None = None,
        when: str = "before",
    ) -> Operation:
        operation = find_operation(endpoint)
        problems: dict[str, list[str]] = {}
        if operation is None:
            problems["endpoint"] = ["must name an operation: " + ", ".join(OPERATIONS_BY_NAME)]
        if kind not in FAULT_KINDS:
            problems["kind"] = ["must be one of: " + ", ".join(FAULT_KINDS)]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000:
            problems["count"] = ["must be a whole number from 1 to 1000"]
        if status is not None and (isinstance(status, bool) or not 400 <= status <= 599):
            problems["status"] = ["must be an HTTP error status from 400 to 599"]
        if not 0 <= latency_seconds <= 600:
            problems["latency_seconds"] = ["must be from 0 to 600"]
        if when not in FAULT_TIMINGS:
            problems["when"] = ["must be one of: " + ", ".join(FAULT_TIMINGS)]
        if problems or operation is None:
            raise validation_error(problems, "The fault is not valid.")
        self._faults.setdefault(operation.name, []).append(
            Fault(
                kind=kind,  # type: ignore[arg-type]  # checked against FAULT_KINDS above
                remaining=count,
                status=status or operation.failure_status,
                code=code or operation.failure_code,
                latency_seconds=latency_seconds,
                when=when,  # type: ignore[arg-type]  # checked against FAULT_TIMINGS above
            )
        )
        return operation

    def take(self, operation: str) -> Fault | None:
        """The fault for this call of ``operation``, if one is armed (uses one of its count)."""
        queue = self._faults.get(operation)
        if not queue:
            return None
        fault = queue[0]
        fault.remaining -= 1
        if fault.remaining <= 0:
            queue.pop(0)
        return fault

    def clear(self) -> None:
        self._faults.clear()


class CallCounter:
    """Calls received per operation, counted before anything can refuse them."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()

    def count(self, operation: str) -> None:
        self._counts[operation] += 1

    def snapshot(self) -> dict[str, int]:
        return {name: self._counts.get(name, 0) for name in OPERATIONS_BY_NAME}


class FaultGate:
    """ASGI middleware: counts each API call and applies the fault armed for it, if any."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        plan: FaultPlan,
        counter: CallCounter,
        resolve: Callable[[Scope], str | None],
        sleep: Sleep,
    ) -> None:
        self._app = app
        self._plan = plan
        self._counter = counter
        self._resolve = resolve
        self._sleep = sleep

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        operation = self._resolve(scope) if scope["type"] == "http" else None
        if operation is None:
            await self._app(scope, receive, send)
            return
        self._counter.count(operation)
        fault = self._plan.take(operation)
        if fault is None:
            await self._app(scope, receive, send)
        elif fault.when == "after":
            await self._after(fault, scope, receive, send)
        elif fault.kind == "latency":
            await self._held(fault, scope, receive, send)
        else:
            await self._fail(fault, scope, receive, send)

    async def _held(self, fault: Fault, scope: Scope, receive: Receive, send: Send) -> None:
        """Wait, then handle the call, whether or not the client is still there to hear it."""
        request = await _read_request(receive)
        if request is None:
            return  # the client left before its request had arrived: there is nothing to apply
        await self._sleep(fault.latency_seconds)
        await self._app(scope, _replay(request, receive), _ignoring_gone_client(send))

    async def _after(self, fault: Fault, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle the call in full, then lose (or hold back) its answer."""
        answer: list[Message] = []

        async def keep(message: Message) -> None:
            answer.append(message)

        # Background tasks (the call's webhooks) run inside this, as after any answer.
        await self._app(scope, receive, keep)
        if fault.kind == "latency":
            await self._sleep(fault.latency_seconds)
            for message in answer:
                await send(message)
            return
        await self._fail(fault, scope, receive, send)

    @staticmethod
    async def _fail(fault: Fault, scope: Scope, receive: Receive, send: Send) -> None:
        if fault.kind == "status":
            error = ApiError(fault.status, fault.code, "Injected sandbox fault: upstream failure.")
            await error_response(error)(scope, receive, send)
            return
        # Headers go out first: uvicorn then closes the socket mid-response instead of
        # answering 500, which is what a dropped connection looks like to a client.
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise ConnectionDropped("sandbox fault: the connection was dropped")


async def _read_request(receive: Receive) -> list[Message] | None:
    """Every body message of the request, or None if the client disconnected first."""
    messages: list[Message] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        messages.append(message)
        if not message.get("more_body", False):
            return messages


def _replay(request: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives the already read request again, then listens to the client."""
    pending = list(request)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


def _ignoring_gone_client(send: Send) -> Send:
    """A ``send`` that drops the answer once the client has gone, instead of raising.

    ASGI 2.4 servers raise an ``OSError`` from ``send`` on a closed connection (uvicorn returns
    quietly). Either way the answer is lost but the call has been applied, and the rest of the
    response cycle, such as the background task that queues its webhooks, must still run.
    """
    gone = False

    async def send_while_connected(message: Message) -> None:
        nonlocal gone
        if gone:
            return
        try:
            await send(message)
        except OSError:
            gone = True

    return send_while_connected
