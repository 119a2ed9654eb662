"""``RiderView``: what one customer may see of the rider carrying their delivery, this moment.

The tracking job (``tracker``) builds one view per tracked delivery and pass, in the customer's
language, and hands it to the customer's channel (``rider_map.RiderMap``), which shows it its
own way: Telegram moves a live location, WhatsApp sends a location at the milestones, agents
get a ``rider_position`` event. ``position`` is None when the rider's fix is not fit to show
(none, too old, or a jump not confirmed yet): the channel then says it is not available right
now, and never shows an older one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.rider_positions import Fix


@dataclass(frozen=True)
class RiderView:
    """One tracked delivery's rider, as its customer may see them now.

    ``text`` is the sentence the customer reads with the position, in their language, from the
    texts catalogue: the rider's name and the estimate of arrival, said as an estimate (or, when
    ``position`` is None, that the position is not available right now). ``eta_minutes`` is
    that estimate (None: no drop-off point or no position to estimate from). ``milestone`` is
    the delivery's status, for channels that show the rider only when it changes.
    """

    delivery_id: str
    ref: str
    milestone: str
    rider_id: str
    rider_name: str | None
    vehicle_type: str | None
    position: Fix | None
    eta_minutes: int | None
    text: str

    @property
    def shown_at(self) -> float | None:
        """When the fix shown was taken (None: no position is shown)."""
        return None if self.position is None else self.position.taken_at
