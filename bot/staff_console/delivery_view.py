"""``DeliveryView``: a delivery's page drawn for a staff member, from its ``GET`` and after
each of its actions (``delivery_actions``), so both show one page.

Anyone on the staff reads the header and the history (``delivery_timeline``, from the store);
a dispatcher or admin also gets the dispatch panel (``dispatch_panel``, from the Partner API
now) with its forms. The map (``console_map``) pins the pickup and the drop-off where their
coordinates are known (the last event's, as the header prints them). An outcome is shown
only by its key among ``OUTCOMES``: nothing typed into a URL is drawn as it came.
"""

from __future__ import annotations

from datetime import UTC
from typing import Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from bot.config import CONSOLE_PATH
from bot.partner.models import CANCEL_REASON_LENGTH
from bot.staff.dispatching import Dispatcher
from bot.staff_console.console_guard import role_allows
from bot.staff_console.console_kit import ZONE_NAME, ConsoleKit
from bot.staff_console.console_map import MapPin, map_of
from bot.staff_console.delivery_timeline import TimelineRefused, delivery_timeline
from bot.staff_console.dispatch_panel import dispatch_panel
from bot.store import StaffSession

OUTCOMES: Final = {
    "assigned": "console_web.actions.done_assigned",
    "unassigned": "console_web.actions.done_unassigned",
    "cancelled": "console_web.actions.done_cancelled",
}
"""What an action's 303 may ask the page to say (``?done=<key>``), by key."""


def delivery_path(delivery_id: str) -> str:
    """The page of ``delivery_id``, its actions under it."""
    return f"{CONSOLE_PATH}/deliveries/{quote(delivery_id, safe='')}"


class DeliveryView:
    """Draws a delivery's page over ``kit``; reads the API through ``dispatcher``."""

    def __init__(self, kit: ConsoleKit, dispatcher: Dispatcher) -> None:
        self._kit = kit
        self._dispatcher = dispatcher

    async def draw(
        self,
        request: Request,
        session: StaffSession,
        typed: str,
        *,
        status: int = 200,
        done: str | None = None,
        refusal: str | None = None,
        reason: str = "",
    ) -> Response:
        """The page of the delivery ``typed`` names, answering ``request`` with ``status``:
        with the outcome ``done`` names (a key of ``OUTCOMES``; any other is ignored), or
        ``refusal`` (why an action did nothing) and the ``reason`` typed into the cancel form;
        a plain refusal page (400, 404) when ``typed`` names no single delivery."""
        kit = self._kit
        catalogue = kit.catalogue(session)
        timeline = await delivery_timeline(kit.store, catalogue, UTC, typed)
        if timeline is None:
            text = catalogue.say("console_web.delivery.not_found", ref=typed.upper())
            return kit.refusal_page(request, session, text, 404)
        if isinstance(timeline, TimelineRefused):
            return kit.refusal_page(request, session, timeline.reason, 400)
        row = timeline.header.row
        panel = None
        if role_allows(session.member.role, "dispatcher"):
            panel = await dispatch_panel(self._dispatcher, catalogue, row.delivery_id)
        header = (
            ("console_web.delivery.pickup", timeline.header.pickup),
            ("console_web.delivery.dropoff", timeline.header.dropoff),
        )
        pins = tuple(
            MapPin(place.latitude, place.longitude, catalogue.say(key))
            for key, place in header
            if place is not None and place.latitude is not None and place.longitude is not None
        )
        low, high = CANCEL_REASON_LENGTH
        return kit.page(
            request,
            "delivery.html",
            session,
            status=status,
            timeline=timeline,
            ref=row.reference,
            zone=ZONE_NAME,
            panel=panel,
            actions=delivery_path(row.delivery_id),
            done=catalogue.say(OUTCOMES[done]) if done in OUTCOMES else None,
            refusal=refusal,
            reason=reason,
            reason_low=low,
            reason_high=high,
            console_map=map_of(kit.services.map_tiles, pins),
            map_label=catalogue.say("console_web.actions.map"),
        )
