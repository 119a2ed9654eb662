"""``Dispatcher``: staff give a delivery to a rider, take it back, or cancel it, through the
Partner API, with the API's refusals said in plain words and every attempt audited; one copy
for every door staff act through (Telegram's ``/assign`` and ``/unassign``, a delivery's page
in the web console).

::

    dispatcher = Dispatcher(client, store.audit)
    done = await dispatcher.assign(words, "staff:3", delivery_id, "rdr_tunde")
    if done.refusal is not None: ...   # why not, in ``words``; nothing changed
    else: done.delivery                # as the API answered

The audit trail gets ``assign`` (the rider's id as its detail), ``unassign`` or ``cancel``
(the reason as its detail) about the delivery's id, ending ``done`` or ``refused: <code>``
(``partner_refusals.refused_outcome``), whoever ``actor`` is.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import Delivery, Rider
from bot.staff.partner_refusals import explain, refused_outcome
from bot.store.audit import AuditTrail
from conversations.texts.catalogue import Catalogue

DONE = "done"


@dataclass(frozen=True)
class Dispatched:
    """How one action ended: the delivery as the API answered it, or why not (``refusal``, in
    plain words) with ``outcome`` as audited."""

    outcome: str
    delivery: Delivery | None = None
    refusal: str | None = None


class Dispatcher:
    """Assign, unassign and cancel over one business's ``client``, audited to ``audit``."""

    def __init__(self, client: PartnerClient, audit: AuditTrail) -> None:
        self._client = client
        self._audit = audit

    async def assign(
        self, words: Catalogue, actor: str, delivery_id: str, rider_id: str
    ) -> Dispatched:
        """Give ``delivery_id`` to ``rider_id`` (the API allows it while the pickup has not
        started, with a fee set, to a rider of the fleet; a busy rider too)."""
        try:
            delivery = await self._client.assign_rider(delivery_id, rider_id)
        except errors.PartnerError as error:
            refusal = explain(words, error, delivery_id, rider_id)
            return await self._refused(actor, "assign", delivery_id, error, refusal, rider_id)
        await self._audit.record(actor, "assign", delivery_id, DONE, rider_id)
        return Dispatched(DONE, delivery)

    async def unassign(self, words: Catalogue, actor: str, delivery_id: str) -> Dispatched:
        """Take the rider off ``delivery_id`` (the API allows it only while ``matched``)."""
        try:
            delivery = await self._client.unassign_rider(delivery_id)
        except errors.PartnerError as error:
            refusal = explain(words, error, delivery_id=delivery_id)
            return await self._refused(actor, "unassign", delivery_id, error, refusal)
        await self._audit.record(actor, "unassign", delivery_id, DONE)
        return Dispatched(DONE, delivery)

    async def cancel(
        self, words: Catalogue, actor: str, delivery_id: str, reason: str
    ) -> Dispatched:
        """Cancel ``delivery_id`` for ``reason`` (3 to 500 characters, checked by the client
        before anything is sent). The customer hears of it from the service's
        ``delivery.cancelled`` event, as of any cancel not their own."""
        try:
            delivery = await self._client.cancel_delivery(delivery_id, reason)
        except errors.PartnerError as error:
            refusal = explain(words, error, delivery_id=delivery_id)
            return await self._refused(actor, "cancel", delivery_id, error, refusal, reason)
        await self._audit.record(actor, "cancel", delivery_id, DONE, reason)
        return Dispatched(DONE, delivery)

    async def delivery(self, delivery_id: str) -> Delivery:
        """The delivery as the API has it now; raises ``PartnerError``."""
        return await self._client.get_delivery(delivery_id)

    async def riders_around(
        self, delivery: Delivery, *, idle: bool = False, radius: float | None = None
    ) -> list[Rider]:
        """The fleet, closest to ``delivery``'s pickup first (presence as tiebreak) when it
        has coordinates; raises ``PartnerError``."""
        pickup = delivery.pickup
        lat, lng = (pickup.latitude, pickup.longitude) if pickup else (None, None)
        return await self._client.list_riders(
            pickup_lat=lat, pickup_lng=lng, radius_km=radius, idle_only=idle
        )

    async def _refused(
        self,
        actor: str,
        action: str,
        delivery_id: str,
        error: errors.PartnerError,
        refusal: str,
        detail: str | None = None,
    ) -> Dispatched:
        outcome = refused_outcome(error)
        await self._audit.record(actor, action, delivery_id, outcome, detail)
        return Dispatched(outcome, refusal=refusal)
