"""Every metric the bot exposes (``Families``), made on a business's own registry.

Labels are bounded on purpose: a channel's name, an update's kind, a flow's name, an outcome,
an operation, an HTTP status, a reason from a fixed list. Never a chat id, a phone number, a
delivery id or a secret: a label value per customer would grow the series without bound and put
personal data into the monitoring system.

The gauges read from the database (``*_pending``, ``*_open``, ``inbox_oldest_seconds``) are set
by ``bot.metrics.endpoint`` just before each scrape; with several instances they read the same
rows, so every instance reports the same values.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

# Seconds: a turn is milliseconds unless it creates a delivery (a Partner API call).
_TURN_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_CALL_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Families:
    """Every family of the bot, on ``registry`` (a business's own: ``PrometheusMetrics``)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.build_info = Gauge(
            "deliverybot_build_info",
            "The running bot's version (always 1).",
            ["version"],
            registry=registry,
        )
        self.updates = Counter(
            "deliverybot_updates",
            "Customer updates handled, by channel, kind (text, photo, callback, command, an agent "
            "route...) and outcome (handled, failed, or the HTTP answer's class for agent routes).",
            ["channel", "kind", "outcome"],
            registry=registry,
        )
        self.turn_seconds = Histogram(
            "deliverybot_turn_seconds",
            "Time to handle one customer update, reply included, by channel.",
            ["channel"],
            buckets=_TURN_BUCKETS,
            registry=registry,
        )
        self.creates = Counter(
            "deliverybot_creates",
            "Delivery creates by flow and outcome: created, refused (by the decision table), "
            "unconfirmed (answer lost, followed up), held (duplicate of an unconfirmed one), "
            "settled_later (an unconfirmed one found created by the follow-up).",
            ["flow", "outcome"],
            registry=registry,
        )
        self.partner_requests = Counter(
            "deliverybot_partner_requests",
            "Partner API attempts by operation (method and path template) and HTTP status "
            '("error" when no answer came: time-out, refused connection).',
            ["operation", "status"],
            registry=registry,
        )
        self.partner_request_seconds = Histogram(
            "deliverybot_partner_request_seconds",
            "Partner API attempt time, until the answer's headers, by operation.",
            ["operation"],
            buckets=_CALL_BUCKETS,
            registry=registry,
        )
        self.partner_rate_limited = Counter(
            "deliverybot_partner_rate_limited",
            "Partner API rate limiting by cause: service_429 (the service answered 429) or "
            "own_limit (the bot held a request back to stay under the key's limit).",
            ["cause"],
            registry=registry,
        )
        self.webhook_events = Counter(
            "deliverybot_webhook_events",
            "Signed Partner API events received, by type and outcome (stored, redelivered).",
            ["type", "outcome"],
            registry=registry,
        )
        self.inbox_pending = Gauge(
            "deliverybot_inbox_pending",
            "Events waiting in an inbox (read from the database at scrape time).",
            ["inbox"],
            registry=registry,
        )
        self.inbox_oldest_seconds = Gauge(
            "deliverybot_inbox_oldest_seconds",
            "Age of the oldest event waiting in an inbox, 0 when none waits (read at scrape time).",
            ["inbox"],
            registry=registry,
        )
        self.relay_send_seconds = Histogram(
            "deliverybot_relay_send_seconds",
            "Time to send one relayed message (event news) to a chat, by channel.",
            ["channel"],
            buckets=_CALL_BUCKETS,
            registry=registry,
        )
        self.relay_failures = Counter(
            "deliverybot_relay_failures",
            "Relayed messages not sent, by channel and reason (unreachable: the chat blocked "
            "the bot; send_failed: the channel refused or gave up, retried later; error: "
            "anything else).",
            ["channel", "reason"],
            registry=registry,
        )
        self.tracking_reads = Counter(
            "deliverybot_tracking_reads",
            "The rider tracker's GET /riders, one per pass with riders to show, apart from the "
            "orders' Partner API calls (ok; failed; busy: put off, the key's budget kept for "
            "customers).",
            ["outcome"],
            registry=registry,
        )
        self.tracking_shown = Counter(
            "deliverybot_tracking_shown",
            "Tracked deliveries' riders handed to their chat's channel, by channel, with a "
            "position or as not available right now.",
            ["channel", "shown"],
            registry=registry,
        )
        self.telegram_rate_limited = Counter(
            "deliverybot_telegram_rate_limited",
            "Telegram's 429 answers (RetryAfter) to the bot's sends.",
            registry=registry,
        )
        self.whatsapp_statuses = Counter(
            "deliverybot_whatsapp_statuses",
            "Statuses WhatsApp reported for the bot's messages (sent, delivered, read, failed).",
            ["status"],
            registry=registry,
        )
        self.followups_pending = Gauge(
            "deliverybot_followups_pending",
            "Creates whose answer was lost, still being followed up (read at scrape time).",
            registry=registry,
        )
        self.sessions_open = Gauge(
            "deliverybot_sessions_open",
            "Unfinished orders by flow (read at scrape time).",
            ["flow"],
            registry=registry,
        )
        self.retention_removed = Counter(
            "deliverybot_retention_removed",
            "Rows of personal data removed past their [privacy] time by the retention job, by "
            "kind (drafts, transcripts, finished_orders: deliveries anonymised, "
            "customer_details, inbox, photos, audit, handoffs).",
            ["kind"],
            registry=registry,
        )
        self.scrape_errors = Counter(
            "deliverybot_metrics_database_errors",
            "Scrapes whose database gauges could not be read (they keep their last values).",
            registry=registry,
        )
        self.funnel_events = Counter(
            "deliverybot_funnel_events",
            "Funnel step events by flow, step and kind (reached, answered, reasked, went_back, "
            "abandoned, created): bot.funnel; deliverybot report shows them per step.",
            ["flow", "step", "kind"],
            registry=registry,
        )
        self.operator_actions = Counter(
            "deliverybot_operator_actions",
            "Operator actions written to the audit trail by this process, by action (block, "
            "unblock, assign, unassign, handoff_take, ...) and outcome (done, refused, "
            "unchanged, other).",
            ["action", "outcome"],
            registry=registry,
        )
        self.limit_hits = Counter(
            "deliverybot_limit_hits",
            "Customers refused by one of [limits] in this process, by kind (the key) and outcome "
            "(refused: nothing was started or created).",
            ["kind", "outcome"],
            registry=registry,
        )
