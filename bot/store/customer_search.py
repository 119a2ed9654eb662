"""``store.customer_search``: the customers the operators' console finds and shows.

::

    found = await store.customer_search.named("dupont", most=25)      # newest orderer first
    found = await store.customer_search.with_phone("+2348031234567", most=25)
    facts = await store.customer_search.facts(UserRef("telegram", 1900))

A customer is found by the name their orders gave (``deliveries.customer_name``, as the
service last showed it, ``store.listed_details``) or, for an agent channel's customer, by the
channel's reference for them (``agent_customers.customer``), case-blind, anywhere in it; or by
a phone in E.164: their orders' sender phone, the one they proved (``contacts``), or the
WhatsApp number they write from (a WhatsApp chat's id is its number). What the
console shows of one customer (``facts``, ``deliveries_of``, ``limits_hit``) is read here too;
their block is ``store.customer_blocks``'.

A name is searched as a part of a name, so no B-tree can seek to it: the search is one pass
over the index ``deliveries_by_customer_name`` (the name, whose, when: never the wide rows),
linear in the deliveries that carry a name (measured in
``benchmarks/bench_console_customers.py``). Everything else is answered by an index.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import AGENTS, WHATSAPP, UserRef
from bot.store.database import Executor, Row

# Materialized, so the pass reads deliveries_by_customer_name alone (a planner would rather
# walk deliveries_by_user for the grouping, reading each wide row for its name).
_NAMED = """WITH named AS MATERIALIZED (
        SELECT channel, user_id, created_at FROM deliveries
        WHERE customer_name >= '' AND lower(customer_name) LIKE ? ESCAPE '!')
    SELECT channel, user_id, max(created_at) AS last FROM named
    GROUP BY channel, user_id ORDER BY last DESC LIMIT ?"""
_AGENT_NAMED = """SELECT seq FROM agent_customers
    WHERE lower(customer) LIKE ? ESCAPE '!' ORDER BY seq DESC LIMIT ?"""
_WITH_PHONE = """SELECT channel, user_id, max(created_at) AS last FROM deliveries
    WHERE sender_phone = ? GROUP BY channel, user_id ORDER BY last DESC LIMIT ?"""
_PROVED_PHONE = "SELECT channel, user_id FROM contacts WHERE phone_e164 = ? LIMIT ?"
_AGENT_CHANNELS = "SELECT DISTINCT channel FROM agent_customers ORDER BY channel"
# One customer's facts in one statement (a search lists up to 25): how many orders and the
# newest's time, the newest name and sender phone they gave (each may be missing from some),
# their proven phone, their remembered details, whether they are blocked, and an agent
# channel's name for them.
_FACTS = """SELECT
        (SELECT count(*) FROM deliveries WHERE channel = ? AND user_id = ?),
        (SELECT max(created_at) FROM deliveries WHERE channel = ? AND user_id = ?),
        (SELECT n.customer_name FROM deliveries n WHERE n.channel = ? AND n.user_id = ?
            AND n.customer_name IS NOT NULL ORDER BY n.created_at DESC LIMIT 1),
        (SELECT p.sender_phone FROM deliveries p WHERE p.channel = ? AND p.user_id = ?
            AND p.sender_phone IS NOT NULL ORDER BY p.created_at DESC LIMIT 1),
        (SELECT phone_e164 FROM contacts WHERE channel = ? AND user_id = ?),
        (SELECT data FROM customer_details WHERE channel = ? AND user_id = ?),
        (SELECT 1 FROM customer_blocks WHERE channel = ? AND user_id = ?),
        (SELECT a.channel FROM agent_customers a WHERE ? = ? AND a.seq = ?),
        (SELECT a.customer FROM agent_customers a WHERE ? = ? AND a.seq = ?)"""
# Whether the bot has any trace of the customer: an order, their remembered details, a
# block, a proven phone, an order started (counted by [limits]), an audit entry (a limit
# they hit), an agent's record. Each is one index's lookup.
_KNOWN = """SELECT CASE WHEN
        EXISTS (SELECT 1 FROM deliveries WHERE channel = ? AND user_id = ?)
        OR EXISTS (SELECT 1 FROM customer_details WHERE channel = ? AND user_id = ?)
        OR EXISTS (SELECT 1 FROM customer_blocks WHERE channel = ? AND user_id = ?)
        OR EXISTS (SELECT 1 FROM contacts WHERE channel = ? AND user_id = ?)
        OR EXISTS (SELECT 1 FROM customer_drafts WHERE channel = ? AND user_id = ?)
        OR EXISTS (SELECT 1 FROM audit_trail WHERE subject = ?)
        OR (? = ? AND EXISTS (SELECT 1 FROM agent_customers WHERE seq = ?))
    THEN 1 ELSE 0 END"""
_DELIVERIES = """SELECT delivery_id, status, created_at, fee, currency, paid_at IS NOT NULL
    FROM deliveries WHERE channel = ? AND user_id = ?
    ORDER BY created_at DESC, delivery_id DESC LIMIT ?"""
_LIMITS_HIT = """SELECT at, outcome, detail FROM audit_trail
    WHERE subject = ? AND action = 'limit' ORDER BY at DESC LIMIT ?"""


@dataclass(frozen=True)
class CustomerFacts:
    """What the bot knows of a customer: how many orders (``deliveries``), the newest's time
    (None: none yet), the newest name and sender phone their orders gave (None: never given),
    the phone they proved, their remembered details (``store.customers``' JSON text), whether
    they are blocked, and an agent channel's (channel, reference) for them."""

    deliveries: int
    last_order_at: float | None
    name: str | None
    phone: str | None
    proven_phone: str | None
    details_json: str | None
    blocked: bool
    agent_name: tuple[str, str] | None


@dataclass(frozen=True)
class CustomerDelivery:
    """One of a customer's deliveries, as their page lists it."""

    delivery_id: str
    status: str
    created_at: float
    fee: float | None
    currency: str | None
    paid: bool


@dataclass(frozen=True)
class LimitHitEntry:
    """A limit the customer hit (the audit trail's ``limit`` entry): when, which (the
    trail's ``refused: <kind>``), and the limit's number."""

    at: float
    kind: str
    limit: str | None


class CustomerSearch:
    """``store.customer_search``; see the module docstring."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    async def named(self, text: str, *, most: int) -> list[UserRef]:
        """The customers whose name (or agent reference) holds ``text``, case-blind: those
        who ordered most recently first, then agent customers newest first; at most ``most``."""
        pattern = f"%{_escaped(text.lower())}%"
        rows = await self._db.fetch_all(_NAMED, (pattern, most))
        found = [UserRef(str(row[0]), int(row[1])) for row in rows]
        agents = await self._db.fetch_all(_AGENT_NAMED, (pattern, most))
        found += [UserRef(AGENTS, int(row[0])) for row in agents]
        return list(dict.fromkeys(found))[:most]

    async def with_phone(self, phone_e164: str, *, most: int) -> list[UserRef]:
        """The WhatsApp customer writing from ``phone_e164``, if the bot knows them, then the
        customers whose orders gave it as the sender's (the newest orderer first), then those
        who proved it as theirs; at most ``most``."""
        rows = await self._db.fetch_all(_WITH_PHONE, (phone_e164, most))
        proved = await self._db.fetch_all(_PROVED_PHONE, (phone_e164, most))
        found = [UserRef(str(row[0]), int(row[1])) for row in (*rows, *proved)]
        writer = UserRef(WHATSAPP, int(phone_e164.removeprefix("+")))
        if await self.known(writer):
            found.insert(0, writer)
        return list(dict.fromkeys(found))[:most]

    async def agent_channels(self) -> list[str]:
        """The agent channels that have customers, by name."""
        return [str(row[0]) for row in await self._db.fetch_all(_AGENT_CHANNELS)]

    async def known(self, user: UserRef) -> bool:
        """Whether the bot has any trace of ``user`` (see ``_KNOWN``)."""
        pair = (user.channel, user.id)
        params = (*pair * 5, str(user), user.channel, AGENTS, user.id)
        row = await self._db.fetch_one(_KNOWN, params)
        return bool(row and row[0])

    async def facts(self, user: UserRef) -> CustomerFacts:
        """What the bot knows of ``user`` (see ``CustomerFacts``)."""
        agent = (user.channel, AGENTS, user.id)
        row = await self._db.fetch_one(_FACTS, ((user.channel, user.id) * 7 + agent * 2))
        assert row is not None  # a SELECT of values alone has its one row
        channel, reference = _text(row[7]), _text(row[8])
        return CustomerFacts(
            deliveries=int(row[0]),
            last_order_at=None if row[1] is None else float(row[1]),
            name=_text(row[2]),
            phone=_text(row[3]),
            proven_phone=_text(row[4]),
            details_json=_text(row[5]),
            blocked=row[6] is not None,
            agent_name=None if channel is None or reference is None else (channel, reference),
        )

    async def deliveries_of(self, user: UserRef, *, most: int) -> list[CustomerDelivery]:
        """``user``'s newest deliveries, at most ``most``."""
        rows = await self._db.fetch_all(_DELIVERIES, (user.channel, user.id, most))
        return [_delivery(row) for row in rows]

    async def limits_hit(self, user: UserRef, *, most: int) -> list[LimitHitEntry]:
        """The newest limits ``user`` hit (``bot.safety.customer_limits`` writes each to the
        audit trail), at most ``most``, newest first."""
        rows = await self._db.fetch_all(_LIMITS_HIT, (str(user), most))
        return [
            LimitHitEntry(float(row[0]), str(row[1]).removeprefix("refused: "), _text(row[2]))
            for row in rows
        ]


def _escaped(text: str) -> str:
    """``text`` matched as written by ``LIKE ... ESCAPE '!'``."""
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_")


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _delivery(row: Row) -> CustomerDelivery:
    return CustomerDelivery(
        delivery_id=str(row[0]),
        status=str(row[1]),
        created_at=float(row[2]),
        fee=None if row[3] is None else float(row[3]),
        currency=_text(row[4]),
        paid=bool(row[5]),
    )
