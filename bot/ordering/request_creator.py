"""``RequestCreator``: what sends a create below the count (``PartnerCreator``,
``HoldingCreator``)."""

from __future__ import annotations

from typing import Protocol

from bot.partner.models import CreateDeliveryRequest
from conversations.outcome import CreateOutcome


class RequestCreator(Protocol):
    """What sends a create under ``CountedCreator`` (the engine's ``DeliveryCreator``, which
    takes the order's flow for its count): the request and the turn it goes out for."""

    async def create(self, request: CreateDeliveryRequest, turn: object = None) -> CreateOutcome:
        """Send the create; every refusal comes back as a ``Refused`` value, never raised.
        ``turn`` is the engine's, passed on unread (``bot.ordering.turn_creates.of_turn``)."""
        ...
