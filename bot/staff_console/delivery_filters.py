"""``DeliveryFilters``: what the deliveries list is asked to show, read from a query string.

::

    found = parse_filters(catalogue, parse_qs(url.query), channels=("telegram", "agents"),
                          zone=ZoneInfo("Africa/Lagos"), phone_region="NG")
    if isinstance(found, FiltersRefused):
        ...  # found.reason is a sentence for the staff member, in the catalogue's language

The fields: ``status`` (repeated or comma-separated, any of them), ``day`` (``2027-01-07``,
the business's local day), ``channel``, ``attention`` (repeated or comma-separated:
``unpriced``, ``unassigned``, ``failed_news``, ``waiting_handoff``; any of them) and ``q``,
the search: a reference (a prefix of the id, as operators type it after ``/status``) or a
phone number written any way the bot reads it (normalised with ``phonenumbers``); what could
be both is looked for as both. Fields it does not know are left alone (a page adds its own).
A page's cursor (``after``) is ``parse_cursor``'s. Anything malformed is refused with one
sentence saying what, and nothing is read from the store for it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Final

from bot.partner.vocabulary import DELIVERY_STATUSES
from bot.store.delivery_list import Attention, ListCursor, ListQuery
from conversations.phones import normalise_phone
from conversations.texts.catalogue import Catalogue

MAX_SEARCH: Final = 40
"""The longest search: a full delivery id is 36 characters, a phone written loosely fewer."""

_DAY: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_REF: Final = re.compile(r"[0-9a-f][0-9a-f-]*", re.IGNORECASE)
_CURSOR_ID: Final = re.compile(r"[0-9A-Za-z_-]{1,64}")
_ECHOED: Final = 40  # how much of a refused value a refusal repeats


@dataclass(frozen=True)
class DeliveryFilters:
    """The list's filters, valid; ``zone`` is the business's, where its days begin."""

    zone: tzinfo
    statuses: tuple[str, ...] = ()
    channel: str | None = None
    day: date | None = None
    attention: frozenset[Attention] = field(default=frozenset())
    search: str | None = None  # as typed, trimmed
    ref_prefix: str | None = None
    phone: str | None = None  # E.164

    def query(self) -> ListQuery:
        """The store's query for these filters (``store.delivery_list``)."""
        created_from = created_before = None
        if self.day is not None:
            created_from = _midnight(self.day, self.zone)
            created_before = _midnight(self.day + timedelta(days=1), self.zone)
        return ListQuery(
            statuses=self.statuses,
            channel=self.channel,
            created_from=created_from,
            created_before=created_before,
            attention=self.attention,
            ref_prefix=self.ref_prefix,
            phone=self.phone,
        )


@dataclass(frozen=True)
class FiltersRefused:
    """Why the filters were refused, for the staff member."""

    reason: str


def parse_filters(
    catalogue: Catalogue,
    fields: Mapping[str, Sequence[str]],
    *,
    channels: Collection[str],
    zone: tzinfo,
    phone_region: str,
) -> DeliveryFilters | FiltersRefused:
    """The filters ``fields`` (a parsed query string: each name's values) ask for, or why
    they are refused; ``channels`` are the names of the bot's channels."""
    statuses = _values(fields, "status")
    for status in statuses:
        if status not in DELIVERY_STATUSES:
            known = ", ".join(DELIVERY_STATUSES)
            return _refused(catalogue, "refused_status", status=_echo(status), statuses=known)
    channel = _one(fields, "channel")
    if channel is not None and channel not in channels:
        known = ", ".join(sorted(channels))
        return _refused(catalogue, "refused_channel", channel=_echo(channel), channels=known)
    attention: set[Attention] = set()
    for kind in _values(fields, "attention"):
        try:
            attention.add(Attention(kind))
        except ValueError:
            kinds = ", ".join(known.value for known in Attention)
            return _refused(catalogue, "refused_attention", attention=_echo(kind), kinds=kinds)
    day = _one(fields, "day")
    parsed_day = _day(day) if day is not None else None
    if day is not None and parsed_day is None:
        return _refused(catalogue, "refused_day", day=_echo(day), example="2027-01-07")
    search = _one(fields, "q")
    ref_prefix = phone = None
    if search is not None:
        if len(search) > MAX_SEARCH:
            return _refused(catalogue, "refused_search_long", limit=MAX_SEARCH)
        ref_prefix = search if _REF.fullmatch(search) else None
        phone = normalise_phone(search, phone_region)
        if ref_prefix is None and phone is None:
            return _refused(catalogue, "refused_search", search=_echo(search))
    return DeliveryFilters(
        zone=zone,
        statuses=tuple(dict.fromkeys(statuses)),
        channel=channel,
        day=parsed_day,
        attention=frozenset(attention),
        search=search,
        ref_prefix=ref_prefix,
        phone=phone,
    )


def cursor_text(cursor: ListCursor) -> str:
    """``cursor`` as a page link carries it (``parse_cursor`` reads it back exactly)."""
    return f"{cursor.created_at!r}~{cursor.delivery_id}"


def parse_cursor(catalogue: Catalogue, text: str) -> ListCursor | FiltersRefused:
    """The cursor a page link carries, or why it is refused (edited, or cut short)."""
    at, _, delivery_id = text.strip().partition("~")
    try:
        created_at = float(at)
    except ValueError:
        created_at = float("nan")
    if created_at != created_at or abs(created_at) == float("inf"):  # nan or infinite
        return _refused(catalogue, "refused_page")
    if not _CURSOR_ID.fullmatch(delivery_id):
        return _refused(catalogue, "refused_page")
    return ListCursor(created_at, delivery_id)


def _values(fields: Mapping[str, Sequence[str]], name: str) -> list[str]:
    """Every value of ``name``, comma-separated ones split, blanks dropped."""
    found = [part.strip() for value in fields.get(name, ()) for part in value.split(",")]
    return [value for value in found if value]


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str | None:
    """The last non-blank value of ``name`` (a form sends one; a link edited by hand may
    repeat it), trimmed; None when there is none."""
    values = [value.strip() for value in fields.get(name, ()) if value.strip()]
    return values[-1] if values else None


def _day(text: str) -> date | None:
    if not _DAY.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _midnight(day: date, zone: tzinfo) -> float:
    """When ``day`` begins in ``zone``, in unix seconds."""
    return datetime.combine(day, time(0), tzinfo=zone).timestamp()


def _echo(value: str) -> str:
    return value if len(value) <= _ECHOED else value[: _ECHOED - 1] + "…"


def _refused(catalogue: Catalogue, key: str, **values: object) -> FiltersRefused:
    return FiltersRefused(catalogue.say(f"console_web.{key}", **values))
