"""What the bot's code calls to record a metric: one call per site, nothing when metrics are off.

``enable(version)`` switches recording on for the process (``deliverybot run`` with
``[metrics] enabled = true``); until then every function here returns at its first line, so a
bot without metrics pays one attribute read per site. Labels are checked against fixed lists
here, so a caller cannot grow a series per customer by mistake (``families``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from types import TracebackType
from typing import ParamSpec, TypeVar

from bot.metrics import families as m

_state = {"on": False}

# The flow a create goes out for: set by the chat service just before the create (the engine's
# ``before_create`` runs in the same task), read by ``CountedCreator``.
_creating_flow: ContextVar[str] = ContextVar("deliverybot_creating_flow", default="unknown")

RATE_LIMIT_CAUSES = ("service_429", "own_limit")


def enable(version: str) -> None:
    """Record from now on, and say which version runs (``deliverybot_build_info``)."""
    _state["on"] = True
    m.BUILD_INFO.clear()  # one version at a time, also when a process enables it again
    m.BUILD_INFO.labels(version).set(1)


def disable() -> None:
    """Stop recording (benchmarks compare both; a test that enabled it puts it back)."""
    _state["on"] = False


def enabled() -> bool:
    """Whether metrics are being recorded in this process."""
    return _state["on"]


class _Update:
    """``measured_update``'s context: times the update and counts it by its outcome."""

    __slots__ = ("channel", "kind", "outcome", "started", "token")

    def __init__(self, channel: str, kind: str) -> None:
        self.channel = channel
        self.kind = kind
        self.outcome = "handled"
        self.started = 0.0

    def __enter__(self) -> _Update:
        self.started = time.perf_counter()
        self.token = _current_update.set(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        _current_update.reset(self.token)
        if kind is not None:
            self.outcome = "failed"
        m.UPDATES.labels(self.channel, self.kind, self.outcome).inc()
        m.TURN_SECONDS.labels(self.channel).observe(time.perf_counter() - self.started)


class _Unmeasured:
    """The context when metrics are off: nothing at all."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> None:
        return None


_UNMEASURED = _Unmeasured()
_current_update: ContextVar[_Update | None] = ContextVar("deliverybot_update", default=None)


def measured_update(channel: str, kind: str) -> _Update | _Unmeasured:
    """``with measured_update("telegram", "text"):`` around one update's handling: counted in
    ``deliverybot_updates_total`` (failed when it raises or ``update_failed`` is called inside)
    and timed in ``deliverybot_turn_seconds``."""
    if not _state["on"]:
        return _UNMEASURED
    return _Update(channel, kind)


def update_failed() -> None:
    """The update being measured failed although nothing was raised out of it (PTB hands a
    handler's exception to the error handler, which calls this)."""
    current = _current_update.get()
    if current is not None:
        current.outcome = "failed"


P = ParamSpec("P")
R = TypeVar("R")


def measured_endpoint(
    channel: str, kind: str, endpoint: Callable[P, Awaitable[R]]
) -> Callable[P, Awaitable[R]]:
    """``endpoint`` (a Starlette handler) counted as an update of ``channel`` and ``kind``, its
    outcome the answer's class: ok (2xx, 3xx), rate_limited (429), refused (other 4xx), failed
    (5xx or raised)."""

    async def measured(*args: P.args, **kwargs: P.kwargs) -> R:
        if not _state["on"]:
            return await endpoint(*args, **kwargs)
        with _Update(channel, kind) as update:
            response = await endpoint(*args, **kwargs)
            update.outcome = _answer_class(getattr(response, "status_code", 200))
            return response

    return measured


def _answer_class(status: int) -> str:
    if status < 400:
        return "ok"
    if status == 429:
        return "rate_limited"
    return "refused" if status < 500 else "failed"


def creating_in(flow: str) -> None:
    """The create about to go out in this task is for ``flow`` (``CountedCreator`` labels it)."""
    if _state["on"]:
        _creating_flow.set(flow)


def creating_flow() -> str:
    """The flow set by ``creating_in`` in this task, or ``unknown``."""
    return _creating_flow.get()


def count_create(flow: str, outcome: str) -> None:
    """One create's outcome (``families.CREATES`` lists them)."""
    if _state["on"]:
        m.CREATES.labels(flow, outcome).inc()


def count_settled_later(saved_order: str) -> None:
    """An unconfirmed create the follow-up found created; ``saved_order`` is its kept order
    (JSON), which names its flow."""
    if not _state["on"]:
        return
    try:
        flow = json.loads(saved_order).get("flow") or "unknown"
    except (ValueError, AttributeError):
        flow = "unknown"
    m.CREATES.labels(str(flow), "settled_later").inc()


def observe_partner_request(operation: str, status: str, seconds: float) -> None:
    """One attempt at the Partner API (``operation`` from ``partner_operation``)."""
    if _state["on"]:
        m.PARTNER_REQUESTS.labels(operation, status).inc()
        m.PARTNER_REQUEST_SECONDS.labels(operation).observe(seconds)


def count_partner_request(operation: str, status: str) -> None:
    """One attempt at the Partner API that got no answer to time (``status`` "error")."""
    if _state["on"]:
        m.PARTNER_REQUESTS.labels(operation, status).inc()


def count_partner_rate_limited(cause: str) -> None:
    """A 429 from the service (``service_429``) or a wait of the bot's own (``own_limit``)."""
    if _state["on"]:
        m.PARTNER_RATE_LIMITED.labels(cause if cause in RATE_LIMIT_CAUSES else "other").inc()


def count_webhook_event(event_type: str, is_new: bool) -> None:
    """A signed Partner API event, stored or redelivered."""
    if _state["on"]:
        known = event_type if event_type.startswith("delivery.") and len(event_type) < 40 else "?"
        m.WEBHOOK_EVENTS.labels(known, "stored" if is_new else "redelivered").inc()


def count_telegram_rate_limited() -> None:
    """Telegram answered a send with 429 (RetryAfter)."""
    if _state["on"]:
        m.TELEGRAM_RATE_LIMITED.inc()


def count_funnel_event(flow: str, step: str, kind: str) -> None:
    """One funnel step event (``bot.funnel.steps``; step names are the flows' own)."""
    if _state["on"]:
        m.FUNNEL_EVENTS.labels(flow, step, kind).inc()
