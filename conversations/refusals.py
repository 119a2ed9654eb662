"""A refused create, decided once: for each reason, which answers are asked again, whether the
capabilities are refreshed, whether the idempotency key is kept, and whether operators are told.

The bot classifies each Partner API error into a reason (``bot.ordering.creator``) and calls
``decide``; the engine follows the ``Refused`` value it returns without deciding anything of its
own. ``TABLE`` is the decision table; ``docs/flows.md`` shows it as ``table_markdown()`` draws
it, and a test keeps the two equal.

The key is kept only when the delivery may exist after all (the answer was lost) or nothing was
sent yet (the service asked us to wait; an identical order is still being checked), so resending
can never create the order twice; after a real refusal the draft changes, and a new key goes
with the new body. An answer that was lost is not a refusal the customer can act on: the order
ends ("checked", ``Refused.outcome_unknown``) and the bot retries the create with the same key
in the background until the service gives a definite answer (``bot.ordering.unconfirmed_worker``).

Photos the service could not fetch (400 ``image_host_rejected``) are one of two things, which
the bot tells apart by where they are (``bot.ordering.photo_origin``): photos it re-hosted
itself on its media host (``image_host``: that host is missing from the business's allowlist,
which only the operators can fix, so they are told), or links the customer (an agent) gave as
they are (``photo_link``: the customer's to fix, so the photos are asked again and nobody is
alerted). A third case is nobody's mistake: the bot's own photos expired (``[storage]
media_ttl_hours``) or were purged while the draft waited (``photos_expired``): the photos are
asked again, nobody is alerted, and the create is not even sent when the bot sees it first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from conversations.order.fields import CAPABILITY_FIELDS, PAYMENT_FIELDS, PLACE_FIELDS
from conversations.outcome import RefusalReason, Refused

Reask = Literal["named", "payment", "service", "places", "photos", "none", "checked"]
Refresh = Literal["yes", "no", "named capability field"]

_REASK_WORDS: dict[Reask, str] = {
    "named": "the fields the service named",
    "payment": "payment method and cash to collect",
    "service": "the choice of service",
    "places": "the places it named (all places when none)",
    "photos": "the photos",
    "none": "nothing: back to the summary",
    "checked": "nothing: the order ends, the same key is retried in the background",
}
_REFRESH_WORDS: dict[Refresh, str] = {
    "yes": "yes",
    "no": "no",
    "named capability field": "when a capability field is named",
}


@dataclass(frozen=True)
class Decision:
    """One row of the table: ``answer`` is the Partner API's answer, as the docs name it;
    then what is asked again, whether the capabilities are refreshed, whether the idempotency
    key is kept, and whether the operators are told."""

    reason: RefusalReason
    answer: str
    reask: Reask
    refresh: Refresh
    keep_key: bool
    alert_operators: bool


_NAMED: Refresh = "named capability field"
TABLE: tuple[Decision, ...] = (
    #        reason              Partner API answer
    Decision("validation", "400 `validation_error`", "named", _NAMED, False, False),
    Decision("payment", "400 naming only payment fields; 403 about money", "payment", "yes",
             False, False),
    Decision("service_disabled", "403 `service_disabled`", "service", "yes", False, False),
    Decision("coverage", "403 other (coverage, trust)", "places", "yes", False, False),
    Decision("image_host", "400 `image_host_rejected`, photos the bot re-hosted", "none", "no",
             False, True),
    Decision("photo_link", "400 `image_host_rejected`, photos given as links", "photos", "no",
             False, False),
    Decision("photos_expired", "not sent, or 400 `image_host_rejected`: the bot's own photos "
             "are no longer stored", "photos", "no", False, False),
    Decision("unavailable", "503, 5xx, time-outs, a lost answer", "checked", "no", True, False),
    Decision("rate_limited", "429 longer than the client waits", "none", "no", True, False),
    Decision("other", "anything else (key, scope, billing)", "none", "yes", False, True),
    Decision("duplicate_held", "not sent: an identical order is still being checked", "none",
             "no", True, False),
)  # fmt: skip
DECISIONS: Mapping[RefusalReason, Decision] = {row.reason: row for row in TABLE}
PHOTO_FIELD = "packageImages"  # the request field the photo steps fill


def field_base(name: str) -> str:
    """The request field a field error names: ``pickupCoords.lat`` names ``pickupCoords``."""
    return name.split(".", 1)[0].split("[", 1)[0]


def _reask(rule: Reask, named: Sequence[str]) -> tuple[str, ...]:
    match rule:
        case "named":
            return tuple(named)
        case "payment":
            return tuple(sorted(PAYMENT_FIELDS))
        case "service":
            return ("serviceKind",)
        case "places":
            places = tuple(n for n in named if field_base(n) in PLACE_FIELDS)
            return places or PLACE_FIELDS
        case "photos":
            return (PHOTO_FIELD,)
        case "none" | "checked":
            return ()


def decide(
    reason: RefusalReason,
    *,
    message: str = "",
    field_errors: Mapping[str, Sequence[str]] | None = None,
    retry_after: float | None = None,
) -> Refused:
    """The refusal for ``reason`` with the service's own words attached."""
    row = DECISIONS[reason]
    errors = {name: list(texts) for name, texts in (field_errors or {}).items()}
    named = list(errors)
    refresh = row.refresh == "yes" or (
        row.refresh == "named capability field"
        and any(field_base(name) in CAPABILITY_FIELDS for name in named)
    )
    return Refused(
        reason=reason,
        reask=_reask(row.reask, named),
        refresh=refresh,
        keep_key=row.keep_key,
        alert_operators=row.alert_operators,
        outcome_unknown=row.reask == "checked",
        message=message,
        field_errors=errors,
        retry_after=retry_after if reason == "rate_limited" else None,
    )


def table_markdown() -> str:
    """The decision table as the docs show it."""
    lines = [
        "| Partner API answer | Reason | Asked again | Refresh capabilities | Keep key "
        "| Alert operators |",
        "|---|---|---|---|---|---|",
    ]
    for row in TABLE:
        lines.append(
            f"| {row.answer} | `{row.reason}` | {_REASK_WORDS[row.reask]} "
            f"| {_REFRESH_WORDS[row.refresh]} | {'yes' if row.keep_key else 'no'} "
            f"| {'yes' if row.alert_operators else 'no'} |"
        )
    return "\n".join(lines) + "\n"
