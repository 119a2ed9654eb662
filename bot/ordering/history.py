"""``StoredOrderHistory``: the customer's earlier orders, for "repeat my last delivery".

``ChatService`` keeps the create request of every delivery it links (``store.deliveries``, as
JSON without the idempotency key: a repeat is a new order and gets a new key) and gives the
engine this history over them. A session's ``customer`` is the user id as text.
"""

from __future__ import annotations

import logging

import pydantic

from bot.partner.models import CreateDeliveryRequest
from bot.store import Store

logger = logging.getLogger(__name__)


def customer_ref(user_id: int) -> str:
    """The opaque customer reference a session carries for ``user_id``."""
    return str(user_id)


def kept_request(request: CreateDeliveryRequest) -> str:
    """``request`` as stored with its delivery: JSON, without the idempotency key."""
    return request.model_dump_json(exclude={"idempotencyKey"}, exclude_none=True)


class StoredOrderHistory:
    """``conversations.OrderHistory`` over the requests kept in ``store.deliveries``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def last_order(self, customer: str) -> CreateDeliveryRequest | None:
        """The request of the user's newest delivery; None when there is none, or it can no
        longer be read (kept by an older bot whose requests looked different)."""
        try:
            user_id = int(customer)
        except ValueError:
            return None
        text = await self._store.deliveries.last_request_for(user_id)
        if text is None:
            return None
        try:
            return CreateDeliveryRequest.model_validate_json(text)
        except pydantic.ValidationError:
            logger.warning("the last request of a customer could not be read; not repeated")
            return None
