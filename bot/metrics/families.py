"""Every metric the bot exposes, on one registry of its own (``REGISTRY``).

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

REGISTRY = CollectorRegistry(auto_describe=True)

# Seconds: a turn is milliseconds unless it creates a delivery (a Partner API call).
_TURN_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_CALL_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

BUILD_INFO = Gauge(
    "deliverybot_build_info",
    "The running bot's version (always 1).",
    ["version"],
    registry=REGISTRY,
)
UPDATES = Counter(
    "deliverybot_updates",
    "Customer updates handled, by channel, kind (text, photo, callback, command, an agent "
    "route...) and outcome (handled, failed, or the HTTP answer's class for agent routes).",
    ["channel", "kind", "outcome"],
    registry=REGISTRY,
)
TURN_SECONDS = Histogram(
    "deliverybot_turn_seconds",
    "Time to handle one customer update, reply included, by channel.",
    ["channel"],
    buckets=_TURN_BUCKETS,
    registry=REGISTRY,
)
CREATES = Counter(
    "deliverybot_creates",
    "Delivery creates by flow and outcome: created, refused (by the decision table), "
    "unconfirmed (answer lost, followed up), held (duplicate of an unconfirmed one), "
    "settled_later (an unconfirmed one found created by the follow-up).",
    ["flow", "outcome"],
    registry=REGISTRY,
)
PARTNER_REQUESTS = Counter(
    "deliverybot_partner_requests",
    "Partner API attempts by operation (method and path template) and HTTP status "
    '("error" when no answer came: time-out, refused connection).',
    ["operation", "status"],
    registry=REGISTRY,
)
PARTNER_REQUEST_SECONDS = Histogram(
    "deliverybot_partner_request_seconds",
    "Partner API attempt time, until the answer's headers, by operation.",
    ["operation"],
    buckets=_CALL_BUCKETS,
    registry=REGISTRY,
)
PARTNER_RATE_LIMITED = Counter(
    "deliverybot_partner_rate_limited",
    "Partner API rate limiting by cause: service_429 (the service answered 429) or "
    "own_limit (the bot held a request back to stay under the key's limit).",
    ["cause"],
    registry=REGISTRY,
)
WEBHOOK_EVENTS = Counter(
    "deliverybot_webhook_events",
    "Signed Partner API events received, by type and outcome (stored, redelivered).",
    ["type", "outcome"],
    registry=REGISTRY,
)
INBOX_PENDING = Gauge(
    "deliverybot_inbox_pending",
    "Events waiting in an inbox (read from the database at scrape time).",
    ["inbox"],
    registry=REGISTRY,
)
INBOX_OLDEST_SECONDS = Gauge(
    "deliverybot_inbox_oldest_seconds",
    "Age of the oldest event waiting in an inbox, 0 when none waits (read at scrape time).",
    ["inbox"],
    registry=REGISTRY,
)
RELAY_SEND_SECONDS = Histogram(
    "deliverybot_relay_send_seconds",
    "Time to send one relayed message (event news) to a chat, by channel.",
    ["channel"],
    buckets=_CALL_BUCKETS,
    registry=REGISTRY,
)
RELAY_FAILURES = Counter(
    "deliverybot_relay_failures",
    "Relayed messages not sent, by channel and reason (unreachable: the chat blocked the "
    "bot; send_failed: the channel refused or gave up, retried later; error: anything else).",
    ["channel", "reason"],
    registry=REGISTRY,
)
TELEGRAM_RATE_LIMITED = Counter(
    "deliverybot_telegram_rate_limited",
    "Telegram's 429 answers (RetryAfter) to the bot's sends.",
    registry=REGISTRY,
)
FOLLOWUPS_PENDING = Gauge(
    "deliverybot_followups_pending",
    "Creates whose answer was lost, still being followed up (read at scrape time).",
    registry=REGISTRY,
)
SESSIONS_OPEN = Gauge(
    "deliverybot_sessions_open",
    "Unfinished orders by flow (read at scrape time).",
    ["flow"],
    registry=REGISTRY,
)
SCRAPE_ERRORS = Counter(
    "deliverybot_metrics_database_errors",
    "Scrapes whose database gauges could not be read (they keep their last values).",
    registry=REGISTRY,
)
FUNNEL_EVENTS = Counter(
    "deliverybot_funnel_events",
    "Funnel step events by flow, step and kind (reached, answered, reasked, went_back, "
    "abandoned, created): bot.funnel; deliverybot report shows them per step.",
    ["flow", "step", "kind"],
    registry=REGISTRY,
)
OPERATOR_ACTIONS = Counter(
    "deliverybot_operator_actions",
    "Operator actions written to the audit trail by this process, by action (block, unblock, "
    "assign, unassign, handoff_take, ...) and outcome (done, refused, unchanged, other).",
    ["action", "outcome"],
    registry=REGISTRY,
)
LIMIT_HITS = Counter(
    "deliverybot_limit_hits",
    "Customers refused by one of [limits] in this process, by kind (the key) and outcome "
    "(refused: nothing was started or created).",
    ["kind", "outcome"],
    registry=REGISTRY,
)
