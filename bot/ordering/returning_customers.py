"""``CustomerMemory``: what a returning customer is offered again on their next order.

After each created delivery ``ChatService`` keeps the customer's name, phone and places from
the order's answers (``conversations.returning``) in ``store.customers``, under their ``UserRef``;
a new order of the same user starts with them. Nothing kept for one user is ever read for
another. With ``[limits] verify_sender_phone``, a phone is remembered as proven when the
order's session took it from the user's own contact (channels whose registration says they
prove a phone only: ``bot.ordering.turn_guards``).
"""

from __future__ import annotations

import logging

import pydantic

from bot.chat_ref import UserRef
from bot.store import Store
from conversations import SavedOrder
from conversations.returning import Remembered, remembered_from

logger = logging.getLogger(__name__)


class CustomerMemory:
    """Each user's remembered details, in ``store.customers``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def recall(self, user: UserRef) -> Remembered | None:
        """What ``user``'s last orders gave; None for a new customer, or when what was kept
        can no longer be read (an older bot's): then nothing is offered, nothing breaks."""
        text = await self._store.customers.get(user)
        if text is None:
            return None
        try:
            return Remembered.model_validate_json(text)
        except pydantic.ValidationError:
            logger.warning("the remembered details of a customer could not be read; not offered")
            return None

    async def remember(
        self, user: UserRef, order: SavedOrder, *, phone_verified: bool = False
    ) -> None:
        """Keep what ``order`` (which made a delivery) gave, over what was kept before;
        ``phone_verified``: its sender phone was proven by the user's own contact."""
        known = remembered_from(order, await self.recall(user), phone_verified=phone_verified)
        if known is not None:
            await self._store.customers.put(user, known.model_dump_json())
