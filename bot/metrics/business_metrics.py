"""``Metrics``: what the bot's code calls to record, one call per site; this class records
nothing (a business with ``[metrics]`` off), ``PrometheusMetrics`` records into a business's own
registry.

Every business has one, built with its core (``bot.bot_core.build_core``) and passed to what
records: the chat service's counted creator, the Partner API client, the relay's sends, the
audit trail's observer, the channels' measured updates, the web endpoints. Nothing is process
wide: two businesses in one process count apart, and one with metrics off pays one call that
returns at once per site.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Final, ParamSpec, TypeVar

from bot.metrics.health_figures import ProcessCounts, WorkFigures

P = ParamSpec("P")
R = TypeVar("R")


class UpdateMeasure:
    """One update being measured (``Metrics.measured_update``): a context manager whose
    ``failed`` marks the update failed although nothing was raised out of it. This one
    measures nothing."""

    __slots__ = ()

    def __enter__(self) -> UpdateMeasure:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        return None

    def failed(self) -> None:
        """The update failed (its channel's error handler was called for it)."""


UNMEASURED: Final = UpdateMeasure()


class Metrics:
    """A business's metrics with ``[metrics]`` off: every call returns at once.

    The methods are the recording sites' whole vocabulary; ``PrometheusMetrics`` gives each its
    counter or histogram and checks its labels against fixed lists.
    """

    __slots__ = ()

    def measured_update(self, channel: str, kind: str) -> UpdateMeasure:
        """``with metrics.measured_update("telegram", "text") as measure:`` around one update's
        handling: counted in ``deliverybot_updates_total`` (failed when it raises or
        ``measure.failed()`` is called) and timed in ``deliverybot_turn_seconds``."""
        return UNMEASURED

    def measured_endpoint(
        self, channel: str, kind: str, endpoint: Callable[P, Awaitable[R]]
    ) -> Callable[P, Awaitable[R]]:
        """``endpoint`` (a Starlette handler) counted as an update of ``channel`` and ``kind``,
        its outcome the answer's class: ok (2xx, 3xx), rate_limited (429), refused (other 4xx),
        failed (5xx or raised)."""
        return endpoint

    def count_create(self, flow: str, outcome: str) -> None:
        """One create's outcome (``deliverybot_creates_total`` lists them)."""

    def count_settled_later(self, saved_order: str) -> None:
        """An unconfirmed create the follow-up found created; ``saved_order`` is its kept order
        (JSON), which names its flow."""

    def observe_partner_call(self, method: str, path: str, status: str, seconds: float) -> None:
        """One attempt at the Partner API that was answered with ``status``, timed."""

    def count_partner_failure(self, method: str, path: str) -> None:
        """An attempt that got no answer (time-out, refused or dropped connection)."""

    def count_partner_rate_limited(self, cause: str) -> None:
        """A 429 from the service (``service_429``) or a wait of the bot's own (``own_limit``)."""

    def count_webhook_event(self, event_type: str, is_new: bool) -> None:
        """A signed Partner API event, stored or redelivered."""

    def count_telegram_rate_limited(self) -> None:
        """Telegram answered a send with 429 (RetryAfter)."""

    def count_whatsapp_status(self, status: str) -> None:
        """WhatsApp reported a status (sent, delivered, read, failed) of one of the bot's
        messages; any other word counts as ``other``."""

    def count_funnel_event(self, flow: str, step: str, kind: str) -> None:
        """One funnel step event (``bot.funnel.steps``; step names are the flows' own)."""

    def count_audit_event(self, action: str, outcome: str) -> None:
        """One event of the audit trail (``store.audit.record``'s ``action`` and ``outcome``):
        an operator action or a limit hit (``bot.metrics.audit_counts``)."""

    def observe_relay_send(self, channel: str, seconds: float) -> None:
        """One relayed message sent to a chat of ``channel``, timed."""

    def count_relay_failure(self, channel: str, reason: str) -> None:
        """One relayed message not sent: unreachable, send_failed or error."""

    def count_tracking_read(self, outcome: str) -> None:
        """One pass of the rider tracker that had riders to show: its ``GET /riders`` made
        (ok, failed) or put off for the customers' share of the key's budget (busy)."""

    def count_tracking_shown(self, channel: str, position: bool) -> None:
        """One tracked delivery's rider handed to its chat's channel, with a position or as
        not available right now."""

    def count_retention_removed(self, kind: str, rows: int) -> None:
        """``rows`` removed (or stripped) by the retention job's prune of ``kind``
        (``bot.store.retention_prunes.RETENTION_KINDS``)."""

    def count_scrape_error(self) -> None:
        """A scrape whose database gauges could not be read."""

    def set_work_gauges(self, figures: WorkFigures) -> None:
        """The gauges of shared work read at a scrape: each inbox's waiting events and its
        oldest one's age, the creates still followed up, the open orders by flow."""

    def process_counts(self) -> ProcessCounts | None:
        """What this process counted since it started, as its exposition says it; None when
        nothing is recorded (``[metrics]`` off)."""
        return None

    def exposition(self) -> bytes:
        """The text exposition of everything recorded (nothing here)."""
        return b""


NO_METRICS: Final = Metrics()
"""The metrics of a business with ``[metrics]`` off (stateless, so one serves all)."""
