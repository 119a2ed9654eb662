"""``parse_audit_filters``: what the audit page is asked to show, read from a query string.

The fields, each narrowing the list: ``actor`` (``staff:3``, ``telegram:1900``, ``shell``,
``bot``), ``action`` (``block``, ``assign``, ``console_signin``...), ``subject`` (a delivery
id, ``telegram:42``, ``hand-off 7``...: as the trail wrote it), ``outcome`` (how it begins:
``done``, ``refused``), and either ``day`` (``2027-01-15``, UTC) or ``period`` (``24h``,
``7d``: up to now); ``after`` is a page's cursor (``audit_cursor_text``). Anything malformed is
refused with one sentence saying what, and nothing is read from the store for it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Final

from bot.periods import since_seconds
from bot.staff_console.delivery_filters import FiltersRefused
from bot.store.audit import AuditCursor, AuditQuery
from conversations.texts.catalogue import Catalogue

FIELDS: Final = ("actor", "action", "subject", "outcome", "day", "period")
_ACTOR: Final = re.compile(r"[a-z][a-z0-9_-]{0,31}(:[A-Za-z0-9_.@+-]{1,64})?")
_ACTION: Final = re.compile(r"[a-z][a-z0-9_]{0,39}")
_DAY: Final = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_CURSOR: Final = re.compile(r"(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)~(\d{1,19})")
_LONGEST: Final = 120  # a subject or an outcome's beginning; the trail's are shorter
_ECHOED: Final = 40  # how much of a refused value a refusal repeats
DAY_SECONDS: Final = 86_400


@dataclass(frozen=True)
class AuditFilters:
    """The page's filters, valid: the store's query and what was typed (to show it back)."""

    query: AuditQuery
    asked: dict[str, str]


def parse_audit_filters(
    catalogue: Catalogue, fields: Mapping[str, Sequence[str]], *, now: float
) -> AuditFilters | FiltersRefused:
    """The filters ``fields`` (a parsed query string) ask for, or why they are refused."""
    asked = {name: _last(fields, name) for name in FIELDS}
    say = catalogue.say
    actor, action = asked["actor"], asked["action"]
    if actor and not _ACTOR.fullmatch(actor):
        return FiltersRefused(say("console_web.audit.refused_actor", actor=_echo(actor)))
    if action and not _ACTION.fullmatch(action):
        return FiltersRefused(say("console_web.audit.refused_action", action=_echo(action)))
    for name in ("subject", "outcome"):
        if len(asked[name]) > _LONGEST or not asked[name].isprintable():
            return FiltersRefused(say("console_web.audit.refused_long", limit=_LONGEST))
    day, period = asked["day"], asked["period"]
    if day and period:
        return FiltersRefused(say("console_web.audit.refused_day_and_period"))
    since = before = None
    if day:
        start = _day_start(day)
        if start is None:
            return FiltersRefused(
                say("console_web.refused_day", day=_echo(day), example="2027-01-15")
            )
        since, before = start, start + DAY_SECONDS
    if period:
        try:
            since = now - since_seconds(period)
        except ValueError:
            return FiltersRefused(say("console_web.audit.refused_period", period=_echo(period)))
    query = AuditQuery(
        actor=actor or None,
        action=action or None,
        subject=asked["subject"] or None,
        outcome=asked["outcome"] or None,
        since=since,
        before=before,
    )
    return AuditFilters(query, asked)


def parse_audit_cursor(catalogue: Catalogue, text: str) -> AuditCursor | FiltersRefused:
    """The cursor a page link carries, or why it is refused (edited, or cut short)."""
    found = _CURSOR.fullmatch(text.strip())
    if found is None:
        return FiltersRefused(catalogue.say("console_web.refused_page"))
    return AuditCursor(float(found[1]), int(found[2]))


def audit_cursor_text(cursor: AuditCursor) -> str:
    """``cursor`` as a page link carries it (``parse_audit_cursor`` reads it back exactly)."""
    return f"{cursor.at!r}~{cursor.seq}"


def _day_start(text: str) -> float | None:
    """When the UTC day ``text`` (``2027-01-15``) begins, in unix seconds; None for no day."""
    found = _DAY.fullmatch(text)
    if found is None:
        return None
    try:
        day = date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return None
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def _last(fields: Mapping[str, Sequence[str]], name: str) -> str:
    values = [value.strip() for value in fields.get(name, ()) if value.strip()]
    return values[-1] if values else ""


def _echo(value: str) -> str:
    return value if len(value) <= _ECHOED else value[: _ECHOED - 1] + "…"
