"""Whether a create the bot still has open may have made a delivery no chat is linked to yet.

A Partner event can arrive before the bot linked its delivery to a chat: the service queues
``delivery.created`` before it answers the create, and an answer may be lost (then the
follow-up links it seconds later) or its sender killed (then a lease later). Every create the
bot sends is recorded first (``store.create_intents``), and leaves that table only in the
commit that links its delivery, or for ``store.unconfirmed`` (the follow-up), which links it
in the commit that settles it. So a delivery that is not linked can still become a chat's only
while some create in flight, or followed up, is *the same order* (``is_same_order``: created
through the API, same service kind, package, addresses and phones, not older than the create
less ``CLOCK_SKEW_SECONDS``). Any other (ordered on the dashboard, the public portal, another
API client) is nobody's chat: its events go to operators at once.

The spec echoes no client reference or idempotency key in the delivery, so the order's content
is what is compared, as the follow-up's read-back does.
"""

from __future__ import annotations

import logging

import pydantic

from bot.partner.models import CreateDeliveryRequest, Delivery
from bot.partner.same_order import CLOCK_SKEW_SECONDS, is_same_order
from bot.store import Store

logger = logging.getLogger(__name__)


async def open_create_may_have_made(store: Store, delivery: Delivery) -> bool:
    """Whether a create still open (in flight, or followed up) is the same order as
    ``delivery``, so that its link to a chat may still come."""
    open_creates = [
        *await store.create_intents.unanswered_requests(),
        *await store.unconfirmed.open_requests(),
    ]
    for request_json, created_at in open_creates:
        try:
            request = CreateDeliveryRequest.model_validate_json(request_json)
        except pydantic.ValidationError:
            # Written by the bot itself: only a bug or a hand-edited row gets here.
            logger.warning("an open create's request cannot be read; it is not compared")
            continue
        if is_same_order(delivery, request, created_at - CLOCK_SKEW_SECONDS):
            return True
    return False
