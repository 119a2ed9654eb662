"""The rider on the map in words: who is coming, and when, said as the estimate it is.

A customer following their rider reads one short text with the position: the rider (first
name only, as every update names them), where they are headed (the pickup, then the customer),
and the estimate of arrival, which always says it is an estimate. When the position cannot be
shown, the text says so instead of showing an older one.
"""

from __future__ import annotations

from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref

SOON_MINUTES = 3
"""At or under this many minutes the estimate says "a few minutes": closer than that, a
straight line and an average speed cannot tell minutes apart."""


def rider_words(catalogue: Catalogue, rider_name: str | None) -> str:
    """The rider as a customer reads them: their first name, or "Your rider"."""
    first = (rider_name or "").split()
    return first[0] if first else catalogue.say("tracking.your_rider")


def rider_text(
    catalogue: Catalogue,
    *,
    delivery_id: str,
    rider_name: str | None,
    to_pickup: bool,
    eta_minutes: int | None,
    shown: bool,
) -> str:
    """The text that goes with a rider's position: who and where to, then the estimate
    (``eta_minutes``; None: none can be made), or that the position is not available right now
    (``shown`` False)."""
    rider = rider_words(catalogue, rider_name)
    if not shown:
        return catalogue.say("tracking.unavailable", rider=rider)
    where = "tracking.to_pickup" if to_pickup else "tracking.to_dropoff"
    sentences = [catalogue.say(where, rider=rider, ref=short_ref(delivery_id))]
    if eta_minutes is not None:
        if eta_minutes <= SOON_MINUTES:
            sentences.append(catalogue.say("tracking.eta_soon"))
        else:
            sentences.append(catalogue.say("tracking.eta", minutes=eta_minutes))
    return " ".join(sentences)
