"""``dispatch_panel``: what a dispatcher sees beside a delivery's history, read from the Partner
API as it is now (the page's header is the store's, as the last event told it): the status and
the rider at the service, the fleet closest to the pickup first (the rider list of Telegram's
``/riders``, in the same words), and which actions the API would allow now.

The rider seen on the page goes back with each Assign form (``seen_rider``), so an assign made
meanwhile by someone else is told rather than silently replaced (``delivery_actions``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.partner import errors
from bot.staff.dispatching import Dispatcher
from bot.staff.partner_refusals import explain
from bot.staff.rider_facts import rider_facts, rider_title
from bot.store import FINAL_STATUSES
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import status_label

ASSIGNABLE: Final = frozenset({"awaiting_price", "pending", "matched"})
"""The statuses the API assigns a rider in (the spec's assign rule)."""
UNASSIGNABLE: Final = frozenset({"matched"})
"""The statuses the API takes a rider off in."""


@dataclass(frozen=True)
class RiderChoice:
    """A rider of the fleet as the panel lists them, with an Assign button."""

    id: str
    title: str  # name and vehicle
    facts: str  # presence, distance, location, load
    assigned: bool  # the delivery's rider now


@dataclass(frozen=True)
class DispatchPanel:
    """The delivery at the service now, its riders, and the actions to offer."""

    status_label: str
    rider: str | None  # the rider's name (their id when unnamed), None for none
    seen_rider: str  # the rider's id, "" for none: sent back with each Assign
    riders: tuple[RiderChoice, ...]
    can_assign: bool
    can_unassign: bool
    can_cancel: bool
    unreadable: str | None = None  # why the service could not be asked (nothing offered)

    @property
    def no_riders(self) -> bool:
        """The delivery could take a rider, and the fleet lists none."""
        return bool(self.status_label) and not self.riders and self.unreadable is None


async def dispatch_panel(
    dispatcher: Dispatcher, words: Catalogue, delivery_id: str
) -> DispatchPanel:
    """The panel of ``delivery_id`` in ``words``: two Partner API reads (the delivery, then
    the riders around its pickup); a refusal of either is said in the panel."""
    try:
        delivery = await dispatcher.delivery(delivery_id)
    except errors.PartnerError as error:
        why = explain(words, error, delivery_id=delivery_id)
        text = words.say("console_web.actions.unreadable", why=why)
        return DispatchPanel("", None, "", (), False, False, False, unreadable=text)
    rider = delivery.rider
    seen = rider.id if rider is not None else ""
    unreadable = None
    choices: tuple[RiderChoice, ...] = ()
    assignable = delivery.status in ASSIGNABLE
    if assignable:
        try:
            riders = await dispatcher.riders_around(delivery)
        except errors.PartnerError as error:
            why = explain(words, error, delivery_id=delivery_id)
            unreadable = words.say("console_web.actions.unreadable", why=why)
            riders = []
        choices = tuple(
            RiderChoice(r.id, rider_title(words, r), rider_facts(words, r), r.id == seen)
            for r in riders
        )
    return DispatchPanel(
        status_label=status_label(words, delivery.status),
        rider=((rider.name or rider.id) if rider is not None else None),
        seen_rider=seen,
        riders=choices,
        can_assign=assignable,
        can_unassign=delivery.status in UNASSIGNABLE,
        can_cancel=delivery.status not in FINAL_STATUSES,
        unreadable=unreadable,
    )
