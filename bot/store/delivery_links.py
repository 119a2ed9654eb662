"""Which chat ordered which delivery, and the newest view of it that the chat was shown.

This is the ownership record: a customer only ever sees their own deliveries, so every lookup a
customer can trigger is keyed by them (``UserRef``: their channel and their id in it):
``for_user``, ``owned_by``, and ``last_order_for`` (the flow and answers of the user's last
order, to order it again).

Webhook events can arrive out of order. ``update_view`` keeps the ``created`` time of the last
event it applied and refuses an older one, so a chat's view of a delivery never moves backwards.
Events with the same ``created`` second are ordered by the delivery's status progression and
their ``previous_status`` (``bot.store.status_progress``), and a final status is never left.
Re-applying the same event is allowed, so a relay that crashed after ``update_view`` but before
sending gets True again and resends.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store.database import Executor, Row
from bot.store.delivery_changes import NEXT_CHANGE
from bot.store.listed_details import NOTHING_LISTED, ListedDetails, note_details, route_columns
from bot.store.status_progress import FINAL_STATUSES, ShownStatus, StatusEvent, moves_forward
from bot.store.store_backend import Backend


@dataclass(frozen=True)
class DeliveryLink:
    """A delivery ordered through the bot, and what its chat was last told."""

    delivery_id: str
    chat: ChatRef
    user_id: int  # the customer's id in the chat's channel
    created_at: float
    receiver_phone: str | None
    tracking_url: str | None
    status: str
    # `created` of the last webhook event applied; None while only the create response is known.
    status_created: int | None
    tracking_sent_at: float | None
    updated_at: float
    # The shipped language the customer ordered in (``fr``), what the relay says their news
    # in; None for the business default (no turn's language, or linked before it was kept).
    language: str | None = None
    # The facts the chat was told about the delivery (``bot.relay.facts``: ``rider:<id>``,
    # ``fee:<amount>``, ``paid``, ``code``, ``unpriced``, ``quote:<amount>`` and its answer
    # ``quote_answer:keep|cancel``), so none is told twice.
    told: frozenset[str] = frozenset()

    @property
    def user(self) -> UserRef:
        """The customer who ordered the delivery."""
        return self.chat.user(self.user_id)

    @property
    def tracking_sent(self) -> bool:
        """Whether the customer has been given the tracking link."""
        return self.tracking_sent_at is not None

    @property
    def is_open(self) -> bool:
        """Whether the delivery can still change status."""
        return self.status not in FINAL_STATUSES

    @property
    def shown(self) -> ShownStatus:
        """The status the chat was last shown, for ``status_progress.moves_forward``."""
        return ShownStatus(self.status, self.status_created)


# Every write the console's list shows takes the next change number (``delivery_changes``).
_ADD = f"""INSERT INTO deliveries (delivery_id, channel, chat_id, user_id, created_at,
        receiver_phone, tracking_url, status, status_created, tracking_sent_at, updated_at,
        saved_order, language, told, fee, currency, rider_id, rider_name, customer_name,
        sender_phone, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, change_seq)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
        {NEXT_CHANGE})
    ON CONFLICT (delivery_id) DO NOTHING"""  # noqa: S608 (fixed text only)
_GET = """SELECT delivery_id, channel, chat_id, user_id, created_at, receiver_phone,
        tracking_url, status, status_created, tracking_sent_at, updated_at, language, told
    FROM deliveries WHERE delivery_id = ?"""
_FOR_USER = """SELECT delivery_id, channel, chat_id, user_id, created_at, receiver_phone,
        tracking_url, status, status_created, tracking_sent_at, updated_at, language, told
    FROM deliveries WHERE channel = ? AND user_id = ?
    ORDER BY created_at DESC, delivery_id DESC LIMIT ? OFFSET ?"""
_COUNT_FOR_USER = "SELECT count(*) FROM deliveries WHERE channel = ? AND user_id = ?"
_OWNED_BY = "SELECT 1 FROM deliveries WHERE delivery_id = ? AND channel = ? AND user_id = ?"
_SHOWN = "SELECT status, status_created FROM deliveries WHERE delivery_id = ?"
# Compare-and-set on the view that was read and judged, so a concurrent writer cannot slip an
# older event in between (null-safe: status_created may be NULL).
_UPDATE_VIEW = f"""UPDATE deliveries
    SET status = ?, status_created = ?, tracking_url = coalesce(?, tracking_url), updated_at = ?,
        change_seq = {NEXT_CHANGE}
    WHERE delivery_id = ? AND status = ? AND status_created IS NOT DISTINCT FROM ?"""  # noqa: S608
_NOTE_STATUS = f"""UPDATE deliveries SET status = ?, updated_at = ?, change_seq = {NEXT_CHANGE}
    WHERE delivery_id = ?"""  # noqa: S608 (fixed text only)
_TOLD = "SELECT told FROM deliveries WHERE delivery_id = ?"
# Compare-and-set, as for the view: a concurrent writer's facts are never lost.
_NOTE_TOLD = "UPDATE deliveries SET told = ? WHERE delivery_id = ? AND told = ?"
_NOTE_PAID = f"""UPDATE deliveries SET paid_at = ?, change_seq = {NEXT_CHANGE}
    WHERE delivery_id = ? AND paid_at IS NULL"""  # noqa: S608 (fixed text only)
_MARK_TRACKING_SENT = """UPDATE deliveries SET tracking_sent_at = ?
    WHERE delivery_id = ? AND tracking_sent_at IS NULL"""
# The WHERE clause repeats the partial index's condition word for word so SQLite uses it.
_LIST_OPEN = """SELECT delivery_id, channel, chat_id, user_id, created_at, receiver_phone,
        tracking_url, status, status_created, tracking_sent_at, updated_at, language, told
    FROM deliveries
    WHERE status NOT IN ('delivered', 'cancelled') ORDER BY created_at, delivery_id"""


class Deliveries:
    """``store.deliveries``: delivery <-> chat links and each chat's view of its deliveries."""

    def __init__(self, db: Executor, clock: Clock, backend: Backend) -> None:
        self._db = db
        self._clock = clock
        self._backend = backend

    async def add(
        self,
        delivery_id: str,
        chat: ChatRef,
        user_id: int,
        created_at: float,
        receiver_phone: str | None,
        tracking_url: str | None,
        status: str = "pending",
        *,
        saved_order: str | None = None,
        tracking_sent: bool = False,
        language: str | None = None,
        told: frozenset[str] = frozenset(),
        details: ListedDetails = NOTHING_LISTED,
    ) -> bool:
        """Link a newly created delivery to the chat that ordered it and its customer
        (``user_id``, in the chat's channel).

        ``status`` is the one in the create response; ``saved_order`` the flow and answers it
        was made from, as JSON text, for ``last_order_for``; ``tracking_sent`` when the chat's
        answer to the create already gave the tracking link (the relay then never repeats it);
        ``language`` the shipped language the customer ordered in (``Catalogue.chosen``),
        which the relay speaks to them, None for the business default; ``told`` the facts the
        answer to the create already told (``DeliveryLink.told``); ``details`` what the
        console lists of it (``ListedDetails``: fee, rider, sender, route), as the create's
        answer showed it.
        Returns False when the delivery was already linked (a create retried with its
        idempotency key): the first link is kept, so a delivery can never change owner.
        """
        changed = await self._db.execute(
            _ADD,
            (
                delivery_id,
                chat.channel,
                chat.id,
                user_id,
                created_at,
                receiver_phone,
                tracking_url,
                status,
                self._clock() if tracking_sent else None,
                self._clock(),
                saved_order,
                language,
                told_text(told),
                details.fee,
                details.currency,
                details.rider_id,
                details.rider_name,
                details.customer_name,
                details.sender_phone,
                *route_columns(details),
            ),
        )
        return changed > 0

    async def get(self, delivery_id: str) -> DeliveryLink | None:
        """The link, or None for a delivery not ordered through this bot."""
        row = await self._db.fetch_one(_GET, (delivery_id,))
        return _link(row) if row else None

    async def for_user(self, user: UserRef, limit: int, offset: int = 0) -> list[DeliveryLink]:
        """One page of the user's deliveries, newest first."""
        if limit < 1 or offset < 0:
            raise ValueError("limit must be at least 1 and offset not negative")
        rows = await self._db.fetch_all(_FOR_USER, (user.channel, user.id, limit, offset))
        return [_link(row) for row in rows]

    async def last_order_for(self, user: UserRef) -> str | None:
        """The saved order (JSON text) of the user's newest delivery that kept one."""
        row = await self._db.fetch_one(self._backend.last_order_sql, (user.channel, user.id))
        return None if row is None else str(row[0])

    async def count_for_user(self, user: UserRef) -> int:
        """How many deliveries the user has ordered (for "page 2 of 5")."""
        row = await self._db.fetch_one(_COUNT_FOR_USER, (user.channel, user.id))
        return int(row[0]) if row else 0

    async def owned_by(self, delivery_id: str, user: UserRef) -> bool:
        """Whether ``user`` ordered the delivery; False for unknown deliveries too."""
        params = (delivery_id, user.channel, user.id)
        return await self._db.fetch_one(_OWNED_BY, params) is not None

    async def update_view(
        self,
        delivery_id: str,
        status: str,
        event_created: int,
        *,
        previous_status: str | None = None,
        tracking_url: str | None = None,
        details: ListedDetails | None = None,
    ) -> bool:
        """Apply a webhook event's status unless a newer event was applied already.

        Returns True when applied (also when the same event is applied again), False when the
        event is older than the chat's view (``status_progress.moves_forward``: by second, then
        by progression and ``previous_status``) or the delivery is unknown. ``tracking_url``,
        when given, fills in or refreshes the stored link; ``details``, when given, replace
        what the console lists of the delivery (``listed_details.note_details``) with the
        event's, in the same move.
        """
        event = StatusEvent(status, event_created, previous_status)
        while True:
            row = await self._db.fetch_one(_SHOWN, (delivery_id,))
            if row is None:
                return False
            shown = ShownStatus(str(row[0]), None if row[1] is None else int(row[1]))
            if not moves_forward(shown, event):
                return False
            changed = await self._db.execute(
                _UPDATE_VIEW,
                (
                    status,
                    event_created,
                    tracking_url,
                    self._clock(),
                    delivery_id,
                    shown.status,
                    shown.created,
                ),
            )
            if changed > 0:
                if details is not None:
                    await note_details(self._db, delivery_id, details)
                return True
            # Another writer moved the view between the read and the write: judge again.

    async def note_status(self, delivery_id: str, status: str) -> bool:
        """Record that the chat was told ``status`` outside any event (the answer to its own
        cancel), so the event that reports it is no news to the chat. The event still applies
        (its ``created`` is kept as it was)."""
        return await self._db.execute(_NOTE_STATUS, (status, self._clock(), delivery_id)) > 0

    async def note_told(self, delivery_id: str, facts: frozenset[str]) -> bool:
        """Add ``facts`` to what the chat was told about the delivery (``DeliveryLink.told``);
        False for an unknown delivery."""
        if not facts:
            return await self._db.fetch_one(_TOLD, (delivery_id,)) is not None
        while True:
            row = await self._db.fetch_one(_TOLD, (delivery_id,))
            if row is None:
                return False
            before = str(row[0])
            after = told_text(told_facts(before) | facts)
            if after == before or await self._db.execute(_NOTE_TOLD, (after, delivery_id, before)):
                return True
            # Another writer added facts between the read and the write: merge again.

    async def note_paid(self, delivery_id: str) -> bool:
        """Record that the delivery's fee is paid, as an event showed it; True only the first
        time. Whatever the event's order: a fee once paid stays paid, so an older event that
        shows it paid is as good as a newer one (``[limits] unpaid_deliveries`` counts the
        rest)."""
        return await self._db.execute(_NOTE_PAID, (self._clock(), delivery_id)) > 0

    async def note_first(self, delivery_id: str, fact: str, *, unless: str) -> bool:
        """Add ``fact`` unless a fact starting with ``unless`` was told already: True only for
        the one writer that added it (compare-and-set, so two instances never both win)."""
        while True:
            row = await self._db.fetch_one(_TOLD, (delivery_id,))
            if row is None:
                return False
            before = str(row[0])
            facts = told_facts(before)
            if any(told.startswith(unless) for told in facts):
                return False
            after = told_text(facts | {fact})
            if await self._db.execute(_NOTE_TOLD, (after, delivery_id, before)):
                return True

    async def forget_told(self, delivery_id: str, fact: str) -> None:
        """Take ``fact`` back out of what the chat was told (a claim whose work failed)."""
        while True:
            row = await self._db.fetch_one(_TOLD, (delivery_id,))
            if row is None or fact not in told_facts(str(row[0])):
                return
            after = told_text(told_facts(str(row[0])) - {fact})
            if await self._db.execute(_NOTE_TOLD, (after, delivery_id, str(row[0]))):
                return

    async def mark_tracking_sent(self, delivery_id: str) -> bool:
        """Record that the customer got the tracking link; True only for the first time."""
        return await self._db.execute(_MARK_TRACKING_SENT, (self._clock(), delivery_id)) > 0

    async def list_open(self) -> list[DeliveryLink]:
        """Deliveries not yet delivered or cancelled, oldest first (for polling mode)."""
        return [_link(row) for row in await self._db.fetch_all(_LIST_OPEN)]


def _link(row: Row) -> DeliveryLink:
    return DeliveryLink(
        delivery_id=str(row[0]),
        chat=ChatRef(str(row[1]), int(row[2])),
        user_id=int(row[3]),
        created_at=float(row[4]),
        receiver_phone=None if row[5] is None else str(row[5]),
        tracking_url=None if row[6] is None else str(row[6]),
        status=str(row[7]),
        status_created=None if row[8] is None else int(row[8]),
        tracking_sent_at=None if row[9] is None else float(row[9]),
        updated_at=float(row[10]),
        language=None if row[11] is None else str(row[11]),
        told=told_facts(str(row[12] or "")),
    )


def told_text(facts: frozenset[str]) -> str:
    """The ``told`` column's text of ``facts``: sorted, one space between."""
    return " ".join(sorted(facts))


def told_facts(text: str) -> frozenset[str]:
    """The facts of a ``told`` column's text."""
    return frozenset(text.split())
