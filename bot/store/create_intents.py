"""Creates recorded before they are sent: ``store.create_intents``.

A create is written here, and committed, before its request leaves (``record``): the request
exactly as it will be sent (its idempotency key is the row's key), the chat and customer, the
saved order to link with the delivery, the language it was said in, and who sends it (``owner``,
a store's ``holder``) with a lease the sender renews while the request is in flight. Whatever
the answer, the row leaves in the same commit as what the answer settles:

* a delivery (``settle_created``): linked to the chat in ``store.deliveries``; when the
  sender still has to tell the customer (its turn's reply), the row stays, *answered*: with
  the delivery and the ``notice`` to tell should the sender die first, until ``told``;
* a definite refusal (``drop``): nothing was made;
* an unknown outcome: ``ChatService`` keeps it in ``store.unconfirmed`` and drops the row.

A row whose lease ran out is a create whose sender died with it in flight (killed, or stopped
mid-request), or, answered, before its customer was told. ``hand_over_expired`` moves it to
``store.unconfirmed``, due at once, in one commit: from there the follow-up
(``bot.ordering.unconfirmed_worker``) reads back, sends it again with the same key, links the
delivery and tells the customer, as for a lost answer; an answered one is moved settled, with
its notice, which the follow-up sends (once, under a sent marker).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.delivery_links import Deliveries
from bot.store.sessions import Sessions
from bot.store.store_backend import Backend, StoreDatabase
from bot.store.unconfirmed_creates import CreatedLink, link_settled


@dataclass(frozen=True)
class CreateIntent:
    """One create about to be sent, or in flight."""

    idempotency_key: str
    chat: ChatRef
    user_id: int  # the customer's id in the chat's channel
    request: str  # CreateDeliveryRequest JSON, idempotencyKey included
    saved_order: str  # SavedOrder JSON
    fingerprint: str
    language: str | None
    created_at: float
    # Answered: the delivery it made (linked) and what its customer is to be told.
    delivery_id: str | None = None
    notice: str | None = None


_RECORD = """INSERT INTO create_intents (idempotency_key, channel, chat_id, user_id, request,
        saved_order, fingerprint, language, created_at, owner, lease_until)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (idempotency_key) DO UPDATE SET owner = excluded.owner,
        lease_until = excluded.lease_until"""
_RENEW = """UPDATE create_intents SET lease_until = ?
    WHERE idempotency_key = ? AND owner = ?"""
_DROP = "DELETE FROM create_intents WHERE idempotency_key = ?"
_ANSWER = "UPDATE create_intents SET delivery_id = ?, notice = ? WHERE idempotency_key = ?"
_TOLD = "DELETE FROM create_intents WHERE idempotency_key = ? AND notice IS NOT NULL"
_EXPIRED = """SELECT idempotency_key, channel, chat_id, user_id, request, saved_order,
        fingerprint, language, created_at, delivery_id, notice FROM create_intents
    WHERE lease_until <= ? ORDER BY lease_until LIMIT ?"""
_UNANSWERED = """SELECT request, created_at FROM create_intents WHERE notice IS NULL
    ORDER BY created_at LIMIT ?"""
_TAKE_EXPIRED = "DELETE FROM create_intents WHERE idempotency_key = ? AND lease_until <= ?"
_NEXT_EXPIRY = "SELECT min(lease_until) FROM create_intents"
_COUNT = "SELECT count(*) FROM create_intents"
_TO_UNCONFIRMED = """INSERT INTO unconfirmed_creates (idempotency_key, channel, chat_id,
        user_id, request, saved_order, fingerprint, language, created_at, next_attempt_at,
        delivery_id, notice)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (idempotency_key) DO NOTHING"""


class CreateIntents:
    """``store.create_intents``: see the module docstring."""

    def __init__(
        self, db: StoreDatabase, clock: Clock, backend: Backend, sessions: Sessions
    ) -> None:
        self._db = db
        self._clock = clock
        self._backend = backend
        self._sessions = sessions

    async def record(
        self, intent: CreateIntent, owner: str, lease_until: float, *, session: str | None = None
    ) -> None:
        """Keep ``intent`` as ``owner``'s until ``lease_until`` (committed on return). The same
        key sent again (after a rate limit) is the new sender's, with a new lease.

        ``session``: the chat's session as it moves to "creating" (with the create's new key),
        saved in the same commit as the intent: a failure or a crash keeps both or neither.
        """
        values = (*_values(intent), owner, lease_until)
        if session is None:
            await self._db.execute(_RECORD, values)
            return
        async with self._sessions.saving(intent.chat, intent.user_id, session) as tx:
            await tx.execute(_RECORD, values)

    async def renew(self, idempotency_key: str, owner: str, lease_until: float) -> bool:
        """Extend ``owner``'s lease; False when the row is gone or handed over."""
        return await self._db.execute(_RENEW, (lease_until, idempotency_key, owner)) > 0

    async def drop(self, idempotency_key: str) -> bool:
        """Forget the intent (refused for certain, or kept in ``store.unconfirmed``)."""
        return await self._db.execute(_DROP, (idempotency_key,)) > 0

    async def settle_created(
        self, intent: CreateIntent, created: CreatedLink, *, notice: str | None = None
    ) -> bool:
        """Link the delivery ``intent`` made to its chat and, in the same commit, drop the
        intent, or with ``notice`` (its customer is still to be told) keep it answered until
        ``told``; ``tracking_sent`` as the created turn gives the link. False when the delivery
        was linked already (the first link is kept)."""
        key = intent.idempotency_key
        async with self._db.transaction() as tx:
            if notice is None:
                await tx.execute(_DROP, (key,))
            else:
                await tx.execute(_ANSWER, (created.delivery_id, notice, key))
            deliveries = Deliveries(tx, self._clock, self._backend)
            return await link_settled(
                deliveries,
                created,
                intent.chat,
                intent.user_id,
                saved_order=intent.saved_order,
                language=intent.language,
            )

    async def told(self, idempotency_key: str) -> bool:
        """The answered create's customer was told (the turn's reply went out): forget it.
        False when it is not here, answered (handed over meanwhile, or never answered)."""
        return await self._db.execute(_TOLD, (idempotency_key,)) > 0

    async def unanswered_requests(self, limit: int = 1000) -> list[tuple[str, float]]:
        """The request (JSON) and creation time of each create in flight, oldest first: the
        deliveries they may make are not linked yet."""
        rows = await self._db.fetch_all(_UNANSWERED, (limit,))
        return [(str(row[0]), float(row[1])) for row in rows]

    async def hand_over_expired(self, now: float, limit: int = 100) -> int:
        """Move intents whose lease ran out by ``now`` to ``store.unconfirmed``, due at
        ``now``, each in one commit; how many were moved. An intent renewed or settled
        meanwhile stays where it is. An answered one is moved settled (its delivery and
        notice), so the follow-up tells its customer."""
        moved = 0
        for row in await self._db.fetch_all(_EXPIRED, (now, limit)):
            intent = _intent(row)
            async with self._db.transaction() as tx:
                if await tx.execute(_TAKE_EXPIRED, (intent.idempotency_key, now)) == 0:
                    continue
                answer = (intent.delivery_id, intent.notice)
                await tx.execute(_TO_UNCONFIRMED, (*_values(intent), now, *answer))
            moved += 1
        return moved

    async def next_expiry(self) -> float | None:
        """When the earliest lease runs out; None without intents."""
        row = await self._db.fetch_one(_NEXT_EXPIRY)
        return None if row is None or row[0] is None else float(row[0])

    async def count(self) -> int:
        """How many creates are in flight, answered with their customer not told yet, or
        left so by a sender that died."""
        row = await self._db.fetch_one(_COUNT)
        return int(row[0]) if row else 0


def _values(intent: CreateIntent) -> tuple[object, ...]:
    """The intent's columns, in the order the statements above name them."""
    return (
        intent.idempotency_key,
        intent.chat.channel,
        intent.chat.id,
        intent.user_id,
        intent.request,
        intent.saved_order,
        intent.fingerprint,
        intent.language,
        intent.created_at,
    )


def _intent(row: Row) -> CreateIntent:
    return CreateIntent(
        idempotency_key=str(row[0]),
        chat=ChatRef(str(row[1]), int(row[2])),
        user_id=int(row[3]),
        request=str(row[4]),
        saved_order=str(row[5]),
        fingerprint=str(row[6]),
        language=None if row[7] is None else str(row[7]),
        created_at=float(row[8]),
        delivery_id=None if row[9] is None else str(row[9]),
        notice=None if row[10] is None else str(row[10]),
    )
