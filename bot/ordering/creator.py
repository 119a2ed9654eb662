"""``PartnerCreator``: the flows' ``DeliveryCreator`` over the Partner client.

Every ``PartnerError`` of a create is mapped here, once, onto a ``conversations.Rejected``
reason the engine knows how to recover from:

==========================================  ======================  =========================
Partner API answer                          ``Rejected.reason``     what the engine does
==========================================  ======================  =========================
400 ``validation_error``                    ``validation``          back to each named field
  ... naming only payment / POD fields      ``payment``             refresh, ask payment again
403 ``service_disabled``                    ``service_disabled``    refresh, ask the kind again
403 other (coverage, money, trust)          ``coverage``/``payment``  refresh, ask again
400 ``image_host_rejected``                 ``image_host``          operators alerted
429 longer than the client waits            ``rate_limited``        resent when allowed
503, 5xx, time-outs, dropped connections    ``unavailable``         draft and key kept
anything else (key, scope, billing)         ``other``               draft kept, logged
==========================================  ======================  =========================

The client has already retried what may be retried (with the same idempotency key) before an
error reaches this module. Any failure after which the delivery *may* exist (a 5xx, a broken
connection, an answer that cannot be read) is ``unavailable``, which keeps the key: the
customer's retry then returns that delivery instead of making a second one.

The shared capability cache is invalidated here whenever the error says it may be stale, so
every chat, not only this one, reads the business's new settings next.
"""

from __future__ import annotations

import logging
import re

from bot.partner import errors
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest
from conversations.outcome import Created, CreateOutcome, Rejected

logger = logging.getLogger(__name__)

PAYMENT_FIELDS = frozenset({"customerCollectionMethod", "isPODEnabled", "podAmount"})
COORDINATE_FIELDS = frozenset({"pickupCoords", "deliveryCoords"})
# Curated links come from the capabilities too, though the client's error tree does not say so.
CATALOG_FIELDS = frozenset({"errandLinks"})
_MONEY_WORDS = re.compile(r"\b(payment|pay|paid|cash|checkout|money|collection|pod)\b", re.I)


def field_base(name: str) -> str:
    """The request field a field error names: ``pickupCoords.lat`` names ``pickupCoords``."""
    return re.split(r"[.\[]", name, maxsplit=1)[0]


def _fields(error: errors.PartnerError) -> set[str]:
    return {field_base(name) for name in error.field_errors}


def _about_money(error: errors.PartnerError) -> bool:
    said = " ".join([error.code or "", error.message, *error.field_errors])
    return bool(_fields(error) & PAYMENT_FIELDS) or bool(_MONEY_WORDS.search(said))


def rejection_for(error: errors.PartnerError) -> Rejected:
    """The ``Rejected`` value for a create that failed with ``error``."""
    said, fields = error.message, dict(error.field_errors)
    if isinstance(error, errors.RateLimited):
        return Rejected(reason="rate_limited", message=said, retry_after=error.retry_after)
    if isinstance(error, errors.ValidationError):
        only_money = bool(fields) and _fields(error) <= PAYMENT_FIELDS
        reason = "payment" if only_money else "validation"
        return Rejected(reason=reason, message=said, field_errors=fields)
    if isinstance(error, errors.ServiceDisabled):
        return Rejected(reason="service_disabled", message=said)
    if isinstance(error, errors.ImageHostRejected):
        return Rejected(reason="image_host", message=said, field_errors=fields)
    if isinstance(error, errors.CreateRejected):
        money = _about_money(error) and not _fields(error) & COORDINATE_FIELDS
        reason = "payment" if money else "coverage"
        return Rejected(reason=reason, message=said, field_errors=fields)
    if isinstance(error, errors.ServerError | errors.TransportError) or 200 <= error.status < 300:
        return Rejected(reason="unavailable", message=said)
    # A refused key, a missing scope, terminated billing: the business must act, and the
    # service's wording means nothing to a customer.
    return Rejected(reason="other")


class PartnerCreator:
    """Creates deliveries (``conversations.DeliveryCreator``); refusals come back as values."""

    def __init__(self, client: PartnerClient, cache: CapabilityCache | None = None) -> None:
        self._client = client
        self._cache = cache

    async def create(self, request: CreateDeliveryRequest) -> CreateOutcome:
        try:
            delivery = await self._client.create_delivery(request)
        except errors.PartnerError as error:
            self._refresh_after(error)
            rejected = rejection_for(error)
            level = logging.ERROR if rejected.reason in ("other", "image_host") else logging.INFO
            logger.log(level, "create refused (%s): %s", rejected.reason, error)
            return rejected
        return Created(delivery=delivery)

    def _refresh_after(self, error: errors.PartnerError) -> None:
        if self._cache is None:
            return
        if self._cache.refresh_after(error):
            return
        if isinstance(error, errors.ValidationError) and _fields(error) & CATALOG_FIELDS:
            self._cache.invalidate()
