"""``store.delivery_list``: the operators' console's list of deliveries, one page at a time.

::

    page = await store.delivery_list.page(ListQuery(statuses=("pending",)), limit=50)
    older = await store.delivery_list.page(query, after=page[-1].cursor, limit=50)

Newest first, by ``(created_at, delivery_id)``; a page starts after the cursor of the last
row of the one before (keyset, never ``OFFSET``), so page 50 reads as little as page 1 and a
delivery created meanwhile neither shifts the pages nor shows twice.

Filters combine (all must hold): statuses (any of them), one channel, a span of creation
times (the console passes a local day's), what needs attention (any of the kinds asked), and
a search: a reference (a prefix of the id, case-blind) or a phone (E.164, normalised by the
caller) that is the order's sender's, its receiver's, or the customer's proven one
(``store.contacts``). Each row carries what the list shows: the customer's chat, the name the
order gave (or, for an agent channel's customer, the channel's reference for them), status,
fee, payment, rider, times, and which kinds of attention it needs.

The SQL is put together here from fixed pieces only; what was typed is always a parameter.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.chat_ref import AGENTS, ChatRef
from bot.store.database import Executor, Row
from bot.store.status_progress import FINAL_STATUSES

MAX_PAGE: int = 200
"""The longest page a caller may ask for."""


class Attention(enum.Enum):
    """What makes a delivery need a person."""

    UNPRICED = "unpriced"  # no fee yet, and not finished
    UNASSIGNED = "unassigned"  # not yet matched with a rider, and not finished
    FAILED_NEWS = "failed_news"  # news about it could not be sent, for good
    WAITING_HANDOFF = "waiting_handoff"  # its customer has a hand-off open


@dataclass(frozen=True, order=True)
class ListCursor:
    """Where a page ended: its last row's creation time and id."""

    created_at: float
    delivery_id: str


@dataclass(frozen=True)
class ListQuery:
    """Which deliveries the list shows; every field left empty filters nothing.

    ``created_from`` and ``created_before`` bound ``created_at`` (unix seconds, the end
    excluded); ``ref_prefix`` is matched case-blind; ``phone`` must be E.164 already. When
    both ``ref_prefix`` and ``phone`` are given a delivery matching either is found.
    """

    statuses: tuple[str, ...] = ()
    channel: str | None = None
    created_from: float | None = None
    created_before: float | None = None
    attention: frozenset[Attention] = frozenset()
    ref_prefix: str | None = None
    phone: str | None = None


@dataclass(frozen=True)
class ListedDelivery:
    """One row of the list, as stored."""

    delivery_id: str
    chat: ChatRef
    user_id: int
    customer_name: str | None
    status: str
    fee: float | None
    currency: str | None
    paid: bool
    rider_id: str | None
    rider_name: str | None
    created_at: float
    updated_at: float
    attention: frozenset[Attention] = field(default=frozenset())

    @property
    def cursor(self) -> ListCursor:
        """The cursor of the page that ends with this row."""
        return ListCursor(self.created_at, self.delivery_id)


_FINAL = ", ".join(f"'{status}'" for status in sorted(FINAL_STATUSES))
_NOT_MATCHED = "('awaiting_price', 'pending')"
# Only these fixed pieces make up the SQL (hence the noqa marks); values are parameters.
# Each kind of attention as a condition on the row ``d``; the same words select and filter.
_NEEDS: dict[Attention, str] = {
    Attention.UNPRICED: f"(d.fee IS NULL AND d.status NOT IN ({_FINAL}))",
    Attention.UNASSIGNED: f"d.status IN {_NOT_MATCHED}",
    Attention.FAILED_NEWS: """(d.news_failed_at IS NOT NULL OR EXISTS (SELECT 1
        FROM blocked_chats b WHERE b.channel = d.channel AND b.chat_id = d.chat_id))""",
    # The condition repeats handoffs_open_by_chat's, so the index answers it.
    Attention.WAITING_HANDOFF: """EXISTS (SELECT 1 FROM handoffs h
        WHERE h.channel = d.channel AND h.chat_id = d.chat_id AND h.state <> 'closed')""",
}
_ORDER = tuple(Attention)
_FLAGS = "".join(f",\n        CASE WHEN {_NEEDS[kind]} THEN 1 ELSE 0 END" for kind in _ORDER)
_SELECT = f"""SELECT d.delivery_id, d.channel, d.chat_id, d.user_id,
        coalesce(d.customer_name, a.customer), d.status, d.fee, d.currency,
        d.paid_at IS NOT NULL, d.rider_id, d.rider_name, d.created_at, d.updated_at{_FLAGS}
    FROM deliveries d
    LEFT JOIN agent_customers a ON d.channel = ? AND a.seq = d.user_id"""  # noqa: S608


class DeliveryList:
    """``store.delivery_list``: pages of the console's list; see the module docstring."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    async def page(
        self, query: ListQuery, *, after: ListCursor | None = None, limit: int = 50
    ) -> list[ListedDelivery]:
        """Up to ``limit`` deliveries ``query`` selects, newest first, older than ``after``."""
        if not 1 <= limit <= MAX_PAGE:
            raise ValueError(f"limit must be between 1 and {MAX_PAGE}")
        sql, params = list_sql(query, after, limit)
        return [_listed(row) for row in await self._db.fetch_all(sql, params)]


def list_sql(
    query: ListQuery, after: ListCursor | None, limit: int
) -> tuple[str, tuple[object, ...]]:
    """The statement and parameters of one page (public for the query-plan tests)."""
    where: list[str] = []
    params: list[object] = [AGENTS]
    if query.statuses:
        where.append(f"d.status IN ({', '.join('?' for _ in query.statuses)})")
        params += query.statuses
    if query.channel is not None:
        where.append("d.channel = ?")
        params.append(query.channel)
    if query.created_from is not None:
        where.append("d.created_at >= ?")
        params.append(query.created_from)
    if query.created_before is not None:
        where.append("d.created_at < ?")
        params.append(query.created_before)
    if query.attention:
        needs = [_NEEDS[kind] for kind in _ORDER if kind in query.attention]
        where.append(f"({' OR '.join(needs)})")
    search, searched = _search(query)
    if search:
        where.append(search)
        params += searched
    if after is not None:
        where.append("(d.created_at < ? OR (d.created_at = ? AND d.delivery_id < ?))")
        params += (after.created_at, after.created_at, after.delivery_id)
    sql = _SELECT
    if where:
        sql += "\n    WHERE " + "\n      AND ".join(where)
    sql += "\n    ORDER BY d.created_at DESC, d.delivery_id DESC LIMIT ?"
    params.append(limit)
    return sql, tuple(params)


def _search(query: ListQuery) -> tuple[str, Sequence[object]]:
    """The search's condition and parameters ("" when nothing is searched)."""
    terms: list[str] = []
    params: list[object] = []
    if query.ref_prefix:
        # Ids are written in one case (the service's are lower-case uuids): the prefix is
        # looked for as typed in both, each a range of the primary key.
        for prefix in dict.fromkeys((query.ref_prefix.lower(), query.ref_prefix.upper())):
            terms.append("(d.delivery_id >= ? AND d.delivery_id < ?)")
            params += (prefix, _after_prefix(prefix))
    if query.phone:
        terms.append("d.receiver_phone = ?")
        terms.append("d.sender_phone = ?")
        terms.append("""EXISTS (SELECT 1 FROM contacts c
            WHERE c.phone_e164 = ? AND c.channel = d.channel AND c.user_id = d.user_id)""")
        params += (query.phone, query.phone, query.phone)
    if not terms:
        return "", ()
    return f"({' OR '.join(terms)})", params


def _after_prefix(prefix: str) -> str:
    """The first text after every text that starts with ``prefix`` (its last character
    moved up by one): ``abc`` -> ``abd``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _listed(row: Row) -> ListedDelivery:
    flags = row[13:]
    return ListedDelivery(
        delivery_id=str(row[0]),
        chat=ChatRef(str(row[1]), int(row[2])),
        user_id=int(row[3]),
        customer_name=None if row[4] is None else str(row[4]),
        status=str(row[5]),
        fee=None if row[6] is None else float(row[6]),
        currency=None if row[7] is None else str(row[7]),
        paid=bool(row[8]),
        rider_id=None if row[9] is None else str(row[9]),
        rider_name=None if row[10] is None else str(row[10]),
        created_at=float(row[11]),
        updated_at=float(row[12]),
        attention=frozenset(kind for kind, flag in zip(_ORDER, flags, strict=True) if flag),
    )
