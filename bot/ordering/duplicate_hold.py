"""``HoldingCreator``: an order identical to one whose outcome is still unknown is held once.

When a create's answer was lost, the customer is told it is being checked
(``store.unconfirmed``). If they order the same again meanwhile, sending it could make a second
delivery of the same parcel. So the first confirm of an order with the same content
(``content_fingerprint``) is answered with the refusal ``duplicate_held`` (nothing is sent,
the key is kept, back to the summary) and a second confirm of that same key goes through: the
customer chose a second order knowingly.

"The same content" is the request without what differs between two orders of the same parcel
(the idempotency key, the photo URLs, distance and duration): sender and receiver (names and
phones), places, package, payment. The sender's name and phone are how the service knows the
customer, so orders of the same parcel from two chats of the same sender are held alike.
Which keys were held is kept in memory: after a restart the customer is asked once more.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict

from bot.partner.models import CreateDeliveryRequest
from bot.store import UnconfirmedCreates
from conversations import CreateOutcome, DeliveryCreator
from conversations.refusals import decide

# Left out of the fingerprint: they differ between two orders of the same parcel.
_NOT_CONTENT = frozenset(
    {"idempotencyKey", "packageImages", "distanceKm", "estimatedDurationMinutes"}
)
# Keys held once and allowed through on their next confirm; more than any burst of chats.
_HELD_MEMORY = 10_000


def content_fingerprint(request: CreateDeliveryRequest) -> str:
    """A digest of what the order is (see the module docstring), equal for identical orders."""
    body = {name: value for name, value in request.to_wire().items() if name not in _NOT_CONTENT}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class HoldingCreator:
    """A ``DeliveryCreator`` that holds an order identical to an unconfirmed one, once."""

    def __init__(self, inner: DeliveryCreator, unconfirmed: UnconfirmedCreates) -> None:
        self._inner = inner
        self._unconfirmed = unconfirmed
        self._held: OrderedDict[str, None] = OrderedDict()

    async def create(self, request: CreateDeliveryRequest) -> CreateOutcome:
        key = request.idempotencyKey
        if key is not None and key not in self._held:
            waiting = await self._unconfirmed.open_with(content_fingerprint(request))
            if any(other != key for other in waiting):
                self._remember(key)
                return decide("duplicate_held")
        return await self._inner.create(request)

    def _remember(self, key: str) -> None:
        self._held[key] = None
        if len(self._held) > _HELD_MEMORY:
            self._held.popitem(last=False)
