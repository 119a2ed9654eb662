"""The link a create's delivery gets when the create is settled in the store, with the facts
its customer is told about it.

Two ways settle a create with a delivery in one commit with its link (``store.deliveries``):
the turn's own create (``recorded_creates.Sending.created``) and the follow-up of one whose
answer was lost (``unconfirmed_worker.CreateFollowUp``). Either way the customer's message
about it, the turn's reply (``dialogue.created``) or the follow-up's notice
(``dialogue.went_through``, which has no fee line), tells at least the facts
``delivery_facts.told_by_create`` gives with no fee said: the rider of a delivery matched at
once, above all. They are kept with the link in that same commit, so the relay's next event,
whenever it is relayed, does not tell them again ("Tunde is your rider" after "Tunde Bakare has
already been assigned"); the turn's reply adds what else it said (the fee) afterwards.
"""

from __future__ import annotations

from bot.partner.listed import listed_details
from bot.partner.models import Delivery
from bot.store import CreatedLink
from conversations import delivery_facts


def settled_link(delivery: Delivery, *, sent_at: float) -> CreatedLink:
    """The link of ``delivery``, made by a create sent at ``sent_at`` (its time when the
    service stamped none), with the facts the customer's message about it tells."""
    created_at = delivery.created_at.timestamp() if delivery.created_at else sent_at
    customer = delivery.customer
    return CreatedLink(
        delivery_id=delivery.id,
        created_at=created_at,
        receiver_phone=customer.receiver_phone if customer else None,
        tracking_url=delivery.tracking_url,
        status=delivery.status,
        told=delivery_facts.told_by_create(delivery, fee_said=False),
        details=listed_details(delivery),
    )
