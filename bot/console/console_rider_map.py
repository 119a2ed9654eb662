"""``ConsoleRiderMap``: the rider on the map as the terminal shows it, one line per change.

A terminal draws no map, so the rider's position is a link to one (OpenStreetMap, a pin at the
fix) after the view's text: "Ada is bringing 1A2B3C4D to you. Arrival in about 12 min: ...
On the map: https://www.openstreetmap.org/?mlat=...". A line is printed only when it would say
something new (the pin moved, the estimate changed, the position became unavailable), so the
tracking job's passes do not fill the screen. ``end`` prints nothing: the relay's status line
says the delivery arrived or was cancelled.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.chat_ref import ChatRef
from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.store.rider_positions import Point
from bot.tracking.rider_view import RiderView
from conversations.texts.catalogue import Catalogue

MAP_ZOOM = 16
"""OpenStreetMap's zoom for the link: a few streets around the rider."""


def map_url(point: Point) -> str:
    """An OpenStreetMap page with a pin at ``point`` (5 decimals: about a metre)."""
    lat, lng = f"{point.latitude:.5f}", f"{point.longitude:.5f}"
    return f"https://www.openstreetmap.org/?mlat={lat}&mlon={lng}#map={MAP_ZOOM}/{lat}/{lng}"


class ConsoleRiderMap:
    """The terminal's ``RiderMap``: writes a chat's rider line to ``screen`` under the name
    ``names`` gives the chat (as ``ConsoleChannel`` does), the link said from ``catalogue``
    (the typist's: a terminal has one). The record it keeps is the line last printed."""

    def __init__(self, screen: Screen, names: Mapping[int, str], catalogue: Catalogue) -> None:
        self._screen = screen
        self._names = dict(names)
        self._catalogue = catalogue

    async def show(self, chat: ChatRef, view: RiderView, shown: str) -> str:
        """Print ``view`` as one line unless it is the line printed last; the line."""
        line = view.text
        if view.position is not None:
            link = self._catalogue.say("tracking.map_link", url=map_url(view.position.point))
            line = f"{line} {link}"
        if line != shown:
            self._screen.write(said(line, self._names.get(chat.id, f"chat {chat.id}")))
        return line

    async def end(self, chat: ChatRef, view: RiderView | None, shown: str) -> None:
        """Nothing to stop on a terminal: the lines printed stay, and the relay says the end."""
