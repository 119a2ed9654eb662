"""``PrometheusMetrics``: a business's metrics recorded into its own ``CollectorRegistry``.

Built once per business with its core (``bot.bot_core.build_core``, when ``[metrics]
enabled``), which says the running version in ``deliverybot_build_info`` as it is built; its
``exposition`` is what that business's ``/metrics`` serves. Labels are checked here against
fixed lists, so a caller cannot grow a series per customer by mistake (``families``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from types import TracebackType

from prometheus_client import CollectorRegistry, Counter, generate_latest

from bot.metrics.audit_counts import audit_series
from bot.metrics.business_metrics import NO_METRICS, Metrics, P, R, UpdateMeasure
from bot.metrics.families import Families
from bot.metrics.health_figures import ProcessCounts, WorkFigures
from bot.metrics.partner_calls import partner_operation
from bot.store.retention_prunes import RETENTION_KINDS

RATE_LIMIT_CAUSES = ("service_429", "own_limit")
WHATSAPP_STATUSES = ("sent", "delivered", "read", "failed")
TRACKING_READS = ("ok", "busy", "failed")


class _MeasuredUpdate(UpdateMeasure):
    """``measured_update``'s context: times the update and counts it by its outcome."""

    __slots__ = ("channel", "families", "kind", "outcome", "started")

    def __init__(self, families: Families, channel: str, kind: str) -> None:
        self.families = families
        self.channel = channel
        self.kind = kind
        self.outcome = "handled"
        self.started = 0.0

    def __enter__(self) -> _MeasuredUpdate:
        self.started = time.perf_counter()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is not None:
            self.outcome = "failed"
        self.families.updates.labels(self.channel, self.kind, self.outcome).inc()
        seconds = time.perf_counter() - self.started
        self.families.turn_seconds.labels(self.channel).observe(seconds)

    def failed(self) -> None:
        self.outcome = "failed"


class PrometheusMetrics(Metrics):
    """See the module docstring; ``registry`` is this business's alone."""

    __slots__ = ("families", "registry")

    def __init__(self, version: str) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.families = Families(self.registry)
        self.families.build_info.labels(version).set(1)

    def __repr__(self) -> str:
        return "PrometheusMetrics()"

    def measured_update(self, channel: str, kind: str) -> UpdateMeasure:
        return _MeasuredUpdate(self.families, channel, kind)

    def measured_endpoint(
        self, channel: str, kind: str, endpoint: Callable[P, Awaitable[R]]
    ) -> Callable[P, Awaitable[R]]:
        families = self.families

        async def measured(*args: P.args, **kwargs: P.kwargs) -> R:
            with _MeasuredUpdate(families, channel, kind) as update:
                response = await endpoint(*args, **kwargs)
                update.outcome = _answer_class(getattr(response, "status_code", 200))
                return response

        return measured

    def count_create(self, flow: str, outcome: str) -> None:
        self.families.creates.labels(flow, outcome).inc()

    def count_settled_later(self, saved_order: str) -> None:
        try:
            flow = json.loads(saved_order).get("flow") or "unknown"
        except (ValueError, AttributeError):
            flow = "unknown"
        self.families.creates.labels(str(flow), "settled_later").inc()

    def observe_partner_call(self, method: str, path: str, status: str, seconds: float) -> None:
        operation = partner_operation(method, path)
        self.families.partner_requests.labels(operation, status).inc()
        self.families.partner_request_seconds.labels(operation).observe(seconds)

    def count_partner_failure(self, method: str, path: str) -> None:
        self.families.partner_requests.labels(partner_operation(method, path), "error").inc()

    def count_partner_rate_limited(self, cause: str) -> None:
        known = cause if cause in RATE_LIMIT_CAUSES else "other"
        self.families.partner_rate_limited.labels(known).inc()

    def count_webhook_event(self, event_type: str, is_new: bool) -> None:
        known = event_type if event_type.startswith("delivery.") and len(event_type) < 40 else "?"
        self.families.webhook_events.labels(known, "stored" if is_new else "redelivered").inc()

    def count_telegram_rate_limited(self) -> None:
        self.families.telegram_rate_limited.inc()

    def count_whatsapp_status(self, status: str) -> None:
        known = status if status in WHATSAPP_STATUSES else "other"
        self.families.whatsapp_statuses.labels(known).inc()

    def count_funnel_event(self, flow: str, step: str, kind: str) -> None:
        self.families.funnel_events.labels(flow, step, kind).inc()

    def count_audit_event(self, action: str, outcome: str) -> None:
        limit_hit, first, second = audit_series(action, outcome)
        family = self.families.limit_hits if limit_hit else self.families.operator_actions
        family.labels(first, second).inc()

    def observe_relay_send(self, channel: str, seconds: float) -> None:
        self.families.relay_send_seconds.labels(channel).observe(seconds)

    def count_relay_failure(self, channel: str, reason: str) -> None:
        self.families.relay_failures.labels(channel, reason).inc()

    def count_tracking_read(self, outcome: str) -> None:
        known = outcome if outcome in TRACKING_READS else "other"
        self.families.tracking_reads.labels(known).inc()

    def count_tracking_shown(self, channel: str, position: bool) -> None:
        self.families.tracking_shown.labels(
            channel, "position" if position else "unavailable"
        ).inc()

    def count_retention_removed(self, kind: str, rows: int) -> None:
        known = kind if kind in RETENTION_KINDS else "other"
        self.families.retention_removed.labels(known).inc(rows)

    def count_scrape_error(self) -> None:
        self.families.scrape_errors.inc()

    def set_work_gauges(self, figures: WorkFigures) -> None:
        for inbox, waiting in figures.inboxes.items():
            self.families.inbox_pending.labels(inbox).set(waiting.pending)
            self.families.inbox_oldest_seconds.labels(inbox).set(waiting.oldest_seconds)
        self.families.followups_pending.set(figures.followups)
        sessions = self.families.sessions_open
        sessions.clear()  # a flow with no open order drops out instead of keeping a count
        for flow, count in figures.open_by_flow.items():
            sessions.labels(flow).set(count)

    def process_counts(self) -> ProcessCounts:
        families = self.families
        return ProcessCounts(
            partner_429=_total(families.partner_rate_limited, cause="service_429"),
            own_limit_waits=_total(families.partner_rate_limited, cause="own_limit"),
            telegram_429=_total(families.telegram_rate_limited),
            partner_no_answer=_total(families.partner_requests, status="error"),
            relay_failures=_total(families.relay_failures),
            unconfirmed_creates=_total(families.creates, outcome="unconfirmed"),
        )

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def _total(family: Counter, **labels: str) -> int:
    """The sum of ``family``'s ``_total`` samples whose labels include ``labels``: read from
    what the family collects, as the exposition is."""
    return round(
        sum(
            sample.value
            for metric in family.collect()
            for sample in metric.samples
            if sample.name.endswith("_total") and labels.items() <= sample.labels.items()
        )
    )


def _answer_class(status: int) -> str:
    if status < 400:
        return "ok"
    if status == 429:
        return "rate_limited"
    return "refused" if status < 500 else "failed"


def business_metrics(enabled: bool, version: str) -> Metrics:
    """A business's metrics: recorded (``[metrics] enabled``) or not at all."""
    return PrometheusMetrics(version) if enabled else NO_METRICS
