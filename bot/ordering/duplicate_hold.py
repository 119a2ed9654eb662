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

Whether a key was held already is kept in the store, not in memory, so a restart does not ask
the customer once more: the hold is an answer told once per key, recorded as a sent marker
(``store.sent``, ``held:<key>``, kept as long as the relay's markers). Its condition itself is
derived from ``store.unconfirmed`` on every confirm: once the earlier create is settled, nothing
is held.
"""

from __future__ import annotations

import hashlib
import json

from bot.chat_ref import TELEGRAM, ChatRef
from bot.ordering.request_creator import RequestCreator
from bot.partner.models import CreateDeliveryRequest
from bot.store import SendKey, SentMessages, UnconfirmedCreates
from conversations import CreateOutcome
from conversations.refusals import decide

# Left out of the fingerprint: they differ between two orders of the same parcel.
_NOT_CONTENT = frozenset(
    {"idempotencyKey", "packageImages", "distanceKm", "estimatedDurationMinutes"}
)
# The marker's kind; its chat is not known here, and the key alone is unique. The chat it
# names is no chat (Telegram's 0, as the markers written before chats had channels read).
HELD_KIND = "duplicate_held"
_NO_CHAT = ChatRef(TELEGRAM, 0)


def content_fingerprint(request: CreateDeliveryRequest) -> str:
    """A digest of what the order is (see the module docstring), equal for identical orders."""
    body = {name: value for name, value in request.to_wire().items() if name not in _NOT_CONTENT}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class HoldingCreator:
    """A ``RequestCreator`` that holds an order identical to an unconfirmed one, once."""

    def __init__(
        self, inner: RequestCreator, unconfirmed: UnconfirmedCreates, told: SentMessages
    ) -> None:
        self._inner = inner
        self._unconfirmed = unconfirmed
        self._told = told

    async def create(self, request: CreateDeliveryRequest, turn: object = None) -> CreateOutcome:
        key = request.idempotencyKey
        if key is not None:
            waiting = await self._unconfirmed.open_with(content_fingerprint(request))
            # mark_sent is True only the first time: the hold is told once per key.
            if any(other != key for other in waiting) and await self._told.mark_sent(
                SendKey(f"held:{key}", _NO_CHAT, HELD_KIND), None
            ):
                return decide("duplicate_held")
        return await self._inner.create(request, turn)
