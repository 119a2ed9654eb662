"""The audit trail: ``GET /console/audit``, read by any staff member.

Newest first, ``PAGE_SIZE`` events a page, paged by keyset (``store.audit.page``), filtered by
a GET form (``audit_filters``); a malformed filter is said in one sentence on a 400. Each
actor, action and subject is a link that filters by it. The trail holds no secret (no token,
no drop-off code, no customer's message: ``bot.store.audit``), so nothing here is masked;
subjects are named as the shell names them (``subject_shown``). Times are in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import parse_qs, urlencode

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.config import CONSOLE_PATH
from bot.safety.customer_names import subject_shown
from bot.staff_console.audit_filters import (
    FIELDS,
    AuditFilters,
    audit_cursor_text,
    parse_audit_cursor,
    parse_audit_filters,
)
from bot.staff_console.console_kit import ZONE_NAME, ConsoleKit, NavEntry
from bot.staff_console.delivery_filters import FiltersRefused
from bot.store import Store
from bot.store.audit import ListedAudit
from conversations.texts.catalogue import Catalogue

AUDIT: Final = f"{CONSOLE_PATH}/audit"
PAGE_SIZE: Final = 50


@dataclass(frozen=True)
class AuditLine:
    """One event as the page shows it; ``*_link`` filter the page by that value."""

    seq: int
    when: str
    when_iso: str
    actor: str
    actor_link: str
    action: str
    action_link: str
    subject: str
    subject_link: str
    outcome: str
    detail: str


class AuditSection:
    """The audit trail, filtered and paged."""

    nav = NavEntry(AUDIT, "console_web.audit.title")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [Route("/audit", self.audit, methods=["GET"])]

    async def audit(self, request: Request) -> Response:
        """The page; a malformed filter or page link is said on a 400."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        fields = parse_qs(request.url.query, keep_blank_values=True)
        filters = parse_audit_filters(catalogue, fields, now=self._kit.clock())
        after_text = (fields.get("after") or [""])[-1]
        after = parse_audit_cursor(catalogue, after_text) if after_text else None
        context: dict[str, Any] = {
            "lines": (),
            "next_link": None,
            "paged": bool(after_text),
            "asked": {name: (fields.get(name) or [""])[-1].strip() for name in FIELDS},
            "actions": await self._kit.store.audit.actions(),
            "refusal": None,
            "zone": ZONE_NAME,
        }
        refusal = next((f for f in (filters, after) if isinstance(f, FiltersRefused)), None)
        if refusal is not None:
            context["refusal"] = refusal.reason
            return self._kit.page(request, "audit.html", found, status=400, **context)
        assert isinstance(filters, AuditFilters) and not isinstance(after, FiltersRefused)
        listed = await self._kit.store.audit.page(filters.query, after=after, limit=PAGE_SIZE + 1)
        shown = listed[:PAGE_SIZE]
        context["lines"] = [await _line(self._kit.store, catalogue, e, filters) for e in shown]
        if len(listed) > PAGE_SIZE:
            kept = [(name, value) for name, value in filters.asked.items() if value]
            cursor = audit_cursor_text(shown[-1].cursor)
            context["next_link"] = f"{AUDIT}?{urlencode([*kept, ('after', cursor)])}"
        return self._kit.page(request, "audit.html", found, **context)


async def _line(
    store: Store, catalogue: Catalogue, listed: ListedAudit, filters: AuditFilters
) -> AuditLine:
    entry = listed.entry
    when = datetime.fromtimestamp(entry.at, UTC)
    return AuditLine(
        seq=listed.seq,
        when=catalogue.say(
            "console_web.at", day=catalogue.day(when.date()), time=f"{when:%H:%M:%S}"
        ),
        when_iso=when.isoformat(),
        actor=entry.actor,
        actor_link=_link(filters, "actor", entry.actor),
        action=entry.action,
        action_link=_link(filters, "action", entry.action),
        subject=await subject_shown(store, entry.subject),
        subject_link=_link(filters, "subject", entry.subject),
        outcome=entry.outcome,
        detail=entry.detail or "",
    )


def _link(filters: AuditFilters, name: str, value: str) -> str:
    """The page filtered as it is, and by ``name`` = ``value`` too (from its first page)."""
    asked = {**{k: v for k, v in filters.asked.items() if v}, name: value}
    return f"{AUDIT}?{urlencode(asked)}"
