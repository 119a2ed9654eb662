"""The small protocols through which I/O reaches a flow.

The engine never speaks HTTP, SQL or Telegram. Whoever runs it passes objects that satisfy these
protocols: the bot passes its Partner API client and capability cache, tests pass in-memory
fakes. Every implementation reports a backend that is down by raising ``ServiceUnavailable``
(the bot maps its own error tree onto it), so the engine can tell the customer to try again
without knowing where the failure came from.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from conversations.order.business_capabilities import Capabilities
from conversations.order.locations import ServiceLocation, Warehouse
from conversations.order.request import CreateDeliveryRequest
from conversations.outcome import CreateOutcome
from conversations.session import Session


class ServiceUnavailable(Exception):
    """A backend (capabilities, geocoder, create) could not answer now; try again later."""


class CapabilitySource(Protocol):
    """The org's allow-list and its places, cached by the implementation."""

    async def capabilities(self) -> Capabilities: ...

    async def warehouses(self) -> list[Warehouse]: ...

    async def service_locations(self) -> list[ServiceLocation]: ...

    async def catalogue(self) -> tuple[Capabilities, list[Warehouse], list[ServiceLocation]]:
        """The three above together, as one read (fetched together when any must be)."""
        ...

    async def refresh(self) -> None:
        """Forget cached values: the service rejected a create as the allow-list changed."""
        ...


class GeocodedPlace(BaseModel):
    """One place a geocoder found for a typed address."""

    model_config = ConfigDict(frozen=True)

    address: str
    lat: float
    lng: float


class Geocoder(Protocol):
    async def geocode(self, query: str) -> list[GeocodedPlace]:
        """Places matching ``query``, best first; an empty list when nothing matched."""
        ...

    async def reverse(self, lat: float, lng: float) -> GeocodedPlace | None:
        """What the geocoder names at this pin (its address and its own point), or None when
        it names nothing there."""
        ...


class DeliveryCreator(Protocol):
    async def create(
        self, request: CreateDeliveryRequest, turn: object = None, *, flow: str
    ) -> CreateOutcome:
        """Send the create of an order of ``flow`` (the flow's name, for whoever counts the
        creates by flow); every refusal comes back as a ``Refused`` value, never raised.

        ``turn`` is what the engine's runner handed the turn for its creates (the engine's
        ``creates``: the bot's chat and customer, say), passed on unread: the core never looks
        into it, and a creator that needs nothing of the turn ignores it."""
        ...


# Saves the session now: the engine calls it after it made the idempotency key and before the
# create goes out, so a crash during the create cannot lead to a second delivery.
BeforeCreate = Callable[[Session], Awaitable[None]]


@dataclass(frozen=True)
class OnlinePayment:
    """How the business tells an online payer to pay (``[payments]``): its own words, and a
    link made for each delivery from ``{ref}`` (its short reference) and ``{id}``."""

    instructions: str = ""
    link: str = ""


@dataclass(frozen=True)
class Services:
    """Everything with I/O a flow may use. Without a geocoder, typed addresses are not offered.
    ``online_payment`` is what an online payer is told after the create (``[payments]``);
    ``codes_by_link``: drop-off codes come to the bot by webhook and reach the receiver by a
    link the customer forwards, instead of the service texting them."""

    catalog: CapabilitySource
    creator: DeliveryCreator
    geocoder: Geocoder | None = None
    online_payment: OnlinePayment = OnlinePayment()
    codes_by_link: bool = False
