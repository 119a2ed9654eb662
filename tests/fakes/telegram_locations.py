"""Bot API methods on locations: ``sendLocation`` (a pin, or a live location),
``editMessageLiveLocation`` and ``stopMessageLiveLocation``, with TDLib's checks and the Bot
API's descriptions.

A ``live_period`` makes a location live: 60 to 86400 seconds, or 0x7FFFFFFF for as long as the
bot likes (0 or none: a plain pin; anything else: "wrong live location period specified").
While it is live (its period, counted from the message's date on the world's clock, not over,
and not stopped) the bot may move it, change its accuracy, heading and alert radius, extend its
period, and stop it. After that the message "can't be edited", and its Location no longer shows
``live_period``, ``heading`` or ``proximity_alert_radius`` (the Bot API's "for active live
locations only"). An edit that changes nothing is "message is not modified"; editing a message
that is no live location (text, a pin) is "there is no live location in the message to edit".
``horizontal_accuracy`` is held to 0-1500 m and rounded up to whole metres, as TDLib sends it.

``World.live_locations`` keeps each live location's positions and whether it was stopped;
``FakeTelegram.live_location`` reads them.

Deviations: an edit is "not modified" only when every field is exactly equal (Telegram's servers
also round coordinates, so an edit that moves a few centimetres may be refused there); a live
period that an edit would end at once, or set past the next 90 days or more than a day beyond
the current one, is refused with the send's "wrong live location period specified" (TDLib
documents the rule, not the text); a missing or malformed coordinate is "wrong latitude" or
"wrong longitude" as for sends.
"""

from __future__ import annotations

import math
from typing import Any

from .telegram_keyboards import validate_reply_markup
from .telegram_messages import NOT_MODIFIED, MessageMethods
from .telegram_wire import Disconnected, JSONDict, UploadedFile, bad_request
from .telegram_world import LIVE_FOREVER, LiveLocationState, World, without_live_fields

MIN_LIVE_PERIOD = 60
MAX_LIVE_PERIOD = 86_400
MAX_PERIOD_EXTENSION = 86_400  # an edit may add at most a day to the live period
MAX_PERIOD_AHEAD = 90 * 86_400  # and the location must stop within the next 90 days
MAX_HORIZONTAL_ACCURACY = 1500
MAX_PROXIMITY_ALERT_RADIUS = 100_000

Point = tuple[float, float]


class LocationMethods:
    """sendLocation, editMessageLiveLocation and stopMessageLiveLocation over the world."""

    def __init__(self, world: World, messages: MessageMethods) -> None:
        self._world = world
        self._messages = messages

    async def send_location(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        point = _point(p)
        live_period = _whole(p.get("live_period"))
        if live_period not in (0, LIVE_FOREVER) and not (
            MIN_LIVE_PERIOD <= live_period <= MAX_LIVE_PERIOD
        ):
            raise bad_request("wrong live location period specified")
        location = _location(point, p, live_period)
        message = self._messages.new_message(chat, p, location=location)
        self._world.store_message(message)
        if live_period:
            key = (chat.id, message["message_id"])
            self._world.live_locations[key] = LiveLocationState(
                message["date"], live_period, [point]
            )
        return message

    async def edit_message_live_location(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        point = _point(p)
        message, live = self._live(p)
        live_period = self._edited_period(_whole(p.get("live_period")), live)
        location = _location(point, p, live_period)
        markup = p.get("reply_markup")
        if location == message["location"] and markup == message.get("reply_markup"):
            raise bad_request(NOT_MODIFIED)
        edited = self._edited(message, location, markup)
        live.live_period = live_period
        live.positions.append(point)
        return edited

    async def stop_message_live_location(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        message, live = self._live(p)
        stopped = without_live_fields(message)["location"]
        edited = self._edited(message, stopped, p.get("reply_markup"))
        live.stopped = True
        return edited

    def _live(self, p: JSONDict) -> tuple[JSONDict, LiveLocationState]:
        """The live location message an edit or stop names, while it can still be edited."""
        message = self._messages.editable(p)
        live = self._world.live_locations.get((message["chat"]["id"], message["message_id"]))
        if live is None:
            raise bad_request("there is no live location in the message to edit")
        if not live.live(self._world.now()):
            raise bad_request("message can't be edited")
        return message, live

    def _edited_period(self, asked: int, live: LiveLocationState) -> int:
        """The live period after an edit that asked for ``asked`` (0: keep the current one)."""
        if asked == 0:
            return live.live_period
        if asked == LIVE_FOREVER:
            return asked
        ends = live.sent_at + asked
        if (
            asked < 0
            or asked > live.live_period + MAX_PERIOD_EXTENSION
            or not self._world.now() < ends <= self._world.now() + MAX_PERIOD_AHEAD
        ):
            raise bad_request("wrong live location period specified")
        return asked

    def _edited(self, message: JSONDict, location: JSONDict, markup: Any) -> JSONDict:
        if markup is not None:
            validate_reply_markup(markup, inline_only=True)
        edited = {**message, "location": location, "edit_date": self._world.now()}
        # An edit without reply_markup removes the inline keyboard, as in Telegram.
        if markup is None:
            edited.pop("reply_markup", None)
        else:
            edited["reply_markup"] = markup
        self._world.store_message(edited)
        return edited


def _point(p: JSONDict) -> Point:
    latitude, longitude = _number(p.get("latitude")), _number(p.get("longitude"))
    if latitude is None or not -90 <= latitude <= 90:
        raise bad_request("wrong latitude")
    if longitude is None or not -180 <= longitude <= 180:
        raise bad_request("wrong longitude")
    return latitude, longitude


def _location(point: Point, p: JSONDict, live_period: int) -> JSONDict:
    """The Location object of a send or an edit: heading and alert radius checked as TDLib
    does, and shown (like ``live_period``) only on a live location."""
    location: JSONDict = {"latitude": point[0], "longitude": point[1]}
    accuracy = _number(p.get("horizontal_accuracy"))
    if accuracy is not None and accuracy > 0:
        location["horizontal_accuracy"] = float(math.ceil(min(accuracy, MAX_HORIZONTAL_ACCURACY)))
    heading = _whole(p.get("heading"))
    if heading and not 1 <= heading <= 360:
        raise bad_request("wrong live location heading specified")
    radius = _whole(p.get("proximity_alert_radius"))
    if not 0 <= radius <= MAX_PROXIMITY_ALERT_RADIUS:
        raise bad_request("wrong live location proximity alert radius specified")
    if live_period:
        location["live_period"] = live_period
        if heading:
            location["heading"] = heading
        if radius:
            location["proximity_alert_radius"] = radius
    return location


def _number(value: Any) -> float | None:
    """A number parameter, or None when it is absent or not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _whole(value: Any) -> int:
    """An integer parameter as the Bot API reads it: absent or not an integer counts as 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
