"""The riders: ``GET /console/riders``, every delivery on its way now and its rider on one map,
read by any staff member (the roles that read the deliveries).

The rows are ``store.rider_positions.on_map()``: each active delivery (matched, picked up, in
transit, with a rider) of this business, its rider at the last fix the tracking job kept (none
before the first one, after a reassignment, or while ``[tracking]`` is off) and its drop-off.
Beside the map, a list: the delivery's short reference linking to its page, the rider, the
status in words, and how old the fix is ("2 min ago", or "no position"). The map has a pin per
rider with a fix and per drop-off; without tiles, or without any fix, the page is the list
alone. A position is shown here only while its delivery is active: the store drops it at the
end (``bot.store.rider_positions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.config import CONSOLE_PATH
from bot.staff_console.console_kit import ConsoleKit, NavEntry
from bot.staff_console.console_map import MapPin, map_of
from bot.staff_console.delivery_view import delivery_path
from bot.store.rider_positions import RiderOnMap
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

RIDERS: Final = f"{CONSOLE_PATH}/riders"
_MINUTE: Final = 60.0
_HOUR: Final = 3600.0


@dataclass(frozen=True)
class RiderRow:
    """One delivery on its way as the list shows it: what to link to, and words to read."""

    delivery_id: str
    reference: str
    link: str  # the delivery's page, from the app's root
    rider: str  # the rider's name, else their id at the service
    status: str
    status_label: str
    fix_at: float | None  # when the fix shown was taken (unix seconds); None: no position
    fix_age: str  # "2 min ago", or "no position"


def rider_rows(on_map: Sequence[RiderOnMap], catalogue: Catalogue, now: float) -> list[RiderRow]:
    """The list's rows, in ``on_map``'s order (oldest delivery first), in ``catalogue``'s
    words; ``now`` (unix seconds) dates each fix."""
    return [
        RiderRow(
            delivery_id=rider.delivery_id,
            reference=short_ref(rider.delivery_id),
            link=delivery_path(rider.delivery_id),
            rider=rider.rider_name or rider.rider_id,
            status=rider.status,
            status_label=status_label(catalogue, rider.status),
            fix_at=None if rider.fix is None else rider.fix.taken_at,
            fix_age=(
                catalogue.say("console_web.riders.no_position")
                if rider.fix is None
                else fix_age(catalogue, now - rider.fix.taken_at)
            ),
        )
        for rider in on_map
    ]


def fix_age(catalogue: Catalogue, seconds: float) -> str:
    """How long ago a fix was taken, in words: just now, minutes, then hours."""
    if seconds < _MINUTE:
        return catalogue.say("console_web.riders.just_now")
    if seconds < _HOUR:
        return catalogue.say("console_web.riders.minutes_ago", minutes=int(seconds // _MINUTE))
    return catalogue.say("console_web.riders.hours_ago", hours=int(seconds // _HOUR))


def rider_pins(on_map: Sequence[RiderOnMap], catalogue: Catalogue) -> list[MapPin]:
    """The map's pins: each rider at their fix, each drop-off; none when no rider has a fix
    (a map of drop-offs alone says nothing of the riders)."""
    if all(rider.fix is None for rider in on_map):
        return []
    pins: list[MapPin] = []
    for rider in on_map:
        ref = short_ref(rider.delivery_id)
        if rider.fix is not None:
            point = rider.fix.point
            name = rider.rider_name or rider.rider_id
            label = catalogue.say("console_web.riders.rider_pin", ref=ref, rider=name)
            pins.append(MapPin(point.latitude, point.longitude, label))
        if rider.dropoff is not None:
            label = catalogue.say("console_web.riders.dropoff_pin", ref=ref)
            pins.append(MapPin(rider.dropoff.latitude, rider.dropoff.longitude, label, "dropoff"))
    return pins


class RidersSection:
    """The deliveries on their way and their riders on one map."""

    nav = NavEntry(RIDERS, "console_web.riders.title")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [Route("/riders", self.riders, methods=["GET"])]

    async def riders(self, request: Request) -> Response:
        """The page: the map (when it can be drawn) and the list."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        on_map = await self._kit.store.rider_positions.on_map()
        pins = rider_pins(on_map, catalogue)
        return self._kit.page(
            request,
            "riders.html",
            found,
            rows=rider_rows(on_map, catalogue, self._kit.clock()),
            console_map=map_of(self._kit.services.map_tiles, pins),
            map_label=catalogue.say("console_web.riders.map"),
        )
