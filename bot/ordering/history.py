"""``OrderHistory``: the orders a customer made through the bot, for "repeat my last delivery".

``ChatService`` keeps, with every delivery it links (``store.deliveries``), the flow and the
answers that made it (``conversations.SavedOrder``); a repeat replays them into the same flow.
"""

from __future__ import annotations

import logging

import pydantic

from bot.chat_ref import UserRef
from bot.store import Store
from conversations import SavedOrder

logger = logging.getLogger(__name__)


def customer_ref(user: UserRef) -> str:
    """The opaque customer reference a session carries for ``user``: their id in the channel
    of the session's chat (a session is kept under its chat, which names the channel)."""
    return str(user.id)


class OrderHistory:
    """The saved orders of the deliveries in ``store.deliveries``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def last_order(self, user: UserRef) -> SavedOrder | None:
        """The user's newest saved order; None when there is none, or it can no longer be read
        (kept by an older bot whose saved orders looked different)."""
        text = await self._store.deliveries.last_order_for(user)
        if text is None:
            return None
        try:
            return SavedOrder.model_validate_json(text)
        except pydantic.ValidationError:
            logger.warning("the last order of a customer could not be read; not repeated")
            return None

    @staticmethod
    def kept(order: SavedOrder) -> str:
        """``order`` as it is stored with its delivery."""
        return order.model_dump_json()
