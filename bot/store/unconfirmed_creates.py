"""Creates whose answer was lost, kept until the service answers for certain.

A create that timed out, lost its connection or got a 5xx may have made the delivery. The row
keeps what is needed to finish it across restarts: the request exactly as sent (its
idempotency key is the row's key), the chat and user, the saved order to link with the
delivery, and when to try next. ``settle`` records the end in one commit with the delivery's
link (``store.deliveries``), so a crash can never link a delivery without settling its row or
the reverse; the row is removed once its ``notice`` reached the customer.

While a row is open (not settled), an order with the same ``fingerprint`` is held at confirm
(``bot.ordering.duplicate_hold``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.delivery_links import Deliveries
from bot.store.listed_details import NOTHING_LISTED, ListedDetails
from bot.store.store_backend import Backend, StoreDatabase


@dataclass(frozen=True)
class UnconfirmedCreate:
    """One create waiting for a definite answer (``notice`` None), or settled and waiting for
    its notice to go out."""

    idempotency_key: str
    chat: ChatRef
    user_id: int  # the customer's id in the chat's channel
    request: str  # CreateDeliveryRequest JSON, idempotencyKey included
    saved_order: str  # SavedOrder JSON
    fingerprint: str
    created_at: float
    attempts: int
    next_attempt_at: float
    delivery_id: str | None
    notice: str | None
    # The shipped language the customer ordered in: the notice and the delivery's later news
    # are said in it (None: the business default).
    language: str | None = None

    @property
    def user(self) -> UserRef:
        """The customer who ordered."""
        return self.chat.user(self.user_id)

    @property
    def settled(self) -> bool:
        return self.notice is not None


@dataclass(frozen=True)
class CreatedLink:
    """What ``store.deliveries.add`` keeps of the delivery a settled create made; ``told``:
    the facts the customer's message about it tells (``DeliveryLink.told``), kept in the
    settling commit so that no event relayed after it tells them again."""

    delivery_id: str
    created_at: float
    receiver_phone: str | None
    tracking_url: str | None
    status: str
    told: frozenset[str] = frozenset()
    details: ListedDetails = NOTHING_LISTED  # what the console lists of it


_ADD = """INSERT INTO unconfirmed_creates (idempotency_key, channel, chat_id, user_id, request,
        saved_order, fingerprint, created_at, attempts, next_attempt_at, language)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
    ON CONFLICT (idempotency_key) DO NOTHING"""
_GET = """SELECT idempotency_key, channel, chat_id, user_id, request, saved_order, fingerprint,
        created_at, attempts, next_attempt_at, delivery_id, notice, language
    FROM unconfirmed_creates WHERE idempotency_key = ?"""
_DUE = """SELECT idempotency_key, channel, chat_id, user_id, request, saved_order, fingerprint,
        created_at, attempts, next_attempt_at, delivery_id, notice, language
    FROM unconfirmed_creates
    WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?"""
_NEXT_DUE = "SELECT min(next_attempt_at) FROM unconfirmed_creates"
# The WHERE clause repeats the partial index's condition so SQLite uses it.
_OPEN_WITH = """SELECT idempotency_key FROM unconfirmed_creates
    WHERE fingerprint = ? AND notice IS NULL"""
_RETRY_LATER = """UPDATE unconfirmed_creates SET attempts = ?, next_attempt_at = ?
    WHERE idempotency_key = ?"""
# The notice too: a row settled since it was read may be due at the very time it was read.
_CLAIM = """UPDATE unconfirmed_creates SET next_attempt_at = ?
    WHERE idempotency_key = ? AND next_attempt_at = ? AND coalesce(notice, '') = ?"""
# A settled row stays due when its claim ends, not at once: the worker that settled it tells
# the customer next, and another worker reading due rows meanwhile must not tell them too.
_SETTLE = """UPDATE unconfirmed_creates SET delivery_id = ?, notice = ?
    WHERE idempotency_key = ? AND notice IS NULL"""
_REMOVE = "DELETE FROM unconfirmed_creates WHERE idempotency_key = ?"
_COUNT_OPEN = "SELECT count(*) FROM unconfirmed_creates WHERE notice IS NULL"
_OPEN_REQUESTS = """SELECT request, created_at FROM unconfirmed_creates WHERE notice IS NULL
    ORDER BY created_at LIMIT ?"""


class UnconfirmedCreates:
    """``store.unconfirmed``: creates whose answer was lost; see the module docstring."""

    def __init__(self, db: StoreDatabase, clock: Clock, backend: Backend) -> None:
        self._db = db
        self._clock = clock
        self._backend = backend

    async def add(
        self,
        idempotency_key: str,
        chat: ChatRef,
        user_id: int,
        *,
        request: str,
        saved_order: str,
        fingerprint: str,
        created_at: float,
        next_attempt_at: float,
        language: str | None = None,
    ) -> bool:
        """Keep a create whose answer was lost; False when its key is kept already.
        ``language`` is the shipped language the customer ordered in (None: the default)."""
        params = (
            idempotency_key,
            chat.channel,
            chat.id,
            user_id,
            request,
            saved_order,
            fingerprint,
            created_at,
            next_attempt_at,
            language,
        )
        return await self._db.execute(_ADD, params) > 0

    async def get(self, idempotency_key: str) -> UnconfirmedCreate | None:
        row = await self._db.fetch_one(_GET, (idempotency_key,))
        return _row(row) if row else None

    async def due(self, now: float, limit: int = 100) -> list[UnconfirmedCreate]:
        """Rows whose next attempt (or whose notice) is due at ``now``, the earliest first."""
        return [_row(row) for row in await self._db.fetch_all(_DUE, (now, limit))]

    async def next_due(self) -> float | None:
        """When the earliest row falls due; None when there is none."""
        row = await self._db.fetch_one(_NEXT_DUE)
        return None if row is None or row[0] is None else float(row[0])

    async def open_with(self, fingerprint: str) -> list[str]:
        """The keys of the unsettled creates with this content."""
        rows = await self._db.fetch_all(_OPEN_WITH, (fingerprint,))
        return [str(row[0]) for row in rows]

    async def count_open(self) -> int:
        """How many creates still wait for a definite answer."""
        row = await self._db.fetch_one(_COUNT_OPEN)
        return int(row[0]) if row else 0

    async def open_requests(self, limit: int = 1000) -> list[tuple[str, float]]:
        """The request (JSON) and first sending time of each create still waiting for a
        definite answer, oldest first: a delivery it made is not linked yet."""
        rows = await self._db.fetch_all(_OPEN_REQUESTS, (limit,))
        return [(str(row[0]), float(row[1])) for row in rows]

    async def claim(self, entry: UnconfirmedCreate, until: float) -> bool:
        """Take ``entry`` (as it was read, due) for a follow-up until ``until``, when it falls
        due again if that follow-up never ended; False when another worker took it (or
        settled it) since."""
        params = (until, entry.idempotency_key, entry.next_attempt_at, entry.notice or "")
        return await self._db.execute(_CLAIM, params) > 0

    async def retry_later(self, idempotency_key: str, attempts: int, at: float) -> None:
        """Record ``attempts`` made so far (of the create, or of its notice once settled) and
        try again at ``at``."""
        await self._db.execute(_RETRY_LATER, (attempts, at, idempotency_key))

    async def settle(
        self, entry: UnconfirmedCreate, notice: str, created: CreatedLink | None = None
    ) -> bool:
        """End ``entry`` with ``notice`` for its customer, due again when the settling worker's
        claim ends (should it die before telling them); with ``created``, link
        that delivery to the entry's chat and user (with its saved order) in the same commit.

        False when the entry was settled already (nothing is changed then).
        """
        async with self._db.transaction() as tx:
            params = (created.delivery_id if created else None, notice)
            if await tx.execute(_SETTLE, (*params, entry.idempotency_key)) == 0:
                return False
            if created is not None:
                deliveries = Deliveries(tx, self._clock, self._backend)
                await link_settled(
                    deliveries,
                    created,
                    entry.chat,
                    entry.user_id,
                    saved_order=entry.saved_order,
                    language=entry.language,
                )
            return True

    async def remove(self, idempotency_key: str) -> bool:
        """Forget the entry (its notice went out)."""
        return await self._db.execute(_REMOVE, (idempotency_key,)) > 0


async def link_settled(
    deliveries: Deliveries,
    created: CreatedLink,
    chat: ChatRef,
    user_id: int,
    *,
    saved_order: str,
    language: str | None,
) -> bool:
    """Link the delivery a settled create made to ``chat`` and ``user_id`` (inside the
    settling commit: ``deliveries`` on its transaction), with what its customer's message
    tells: the tracking link when it has one, and ``created.told``. False when it was linked
    already (the first link is kept, and learns the facts all the same: the message about
    the create tells them whoever linked it)."""
    linked = await deliveries.add(
        created.delivery_id,
        chat,
        user_id,
        created.created_at,
        created.receiver_phone,
        created.tracking_url,
        created.status,
        saved_order=saved_order,
        # The message gives the link (durably: a notice is sent even after a crash), so the
        # relay must not repeat it.
        tracking_sent=created.tracking_url is not None,
        language=language,
        told=created.told,
        details=created.details,
    )
    if not linked:
        await deliveries.note_told(created.delivery_id, created.told)
    return linked


def _row(row: Row) -> UnconfirmedCreate:
    return UnconfirmedCreate(
        idempotency_key=str(row[0]),
        chat=ChatRef(str(row[1]), int(row[2])),
        user_id=int(row[3]),
        request=str(row[4]),
        saved_order=str(row[5]),
        fingerprint=str(row[6]),
        created_at=float(row[7]),
        attempts=int(row[8]),
        next_attempt_at=float(row[9]),
        delivery_id=None if row[10] is None else str(row[10]),
        notice=None if row[11] is None else str(row[11]),
        language=None if row[12] is None else str(row[12]),
    )
