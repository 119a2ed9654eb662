"""Telegram's ``RiderMap``: the rider as one live location and one text under it, per delivery.

The first view with a position sends a live location (``sendLocation`` with a live period
that never runs out: the tracking job stops it at the end) and then the view's text (the
rider's name and the estimate) as a message of its own, since a location carries no caption.
Later passes edit them in place, and only when the customer would see a difference:

* the pin moves (``editMessageLiveLocation``) once the rider is ``MOVE_METRES`` from where it
  was last put, not at every fix: a pass comes every 20 s and each edit spends the chat's
  share of Telegram's limits (one message a second per chat, shared with the relay's news);
* the text is edited (``editMessageText``) only when it says something else (a new minute of
  estimate, another leg of the trip, the position not available right now).

A view without a position leaves the pin where it is and says so in the text; before any pin
was shown, only the text goes out, and the pin starts with the first position. ``end`` stops
the live location and leaves the text as it was.

What the chat shows is kept in the record the job stores (``LiveShown``, as JSON). A live
location the customer stopped or deleted (Telegram: "message can't be edited", "message to edit
not found") is not fought over: the record says so and the delivery is shown no more, never
sent again each pass; a deleted text stays deleted while the pin moves on. A refusal that
may pass (the network, Telegram's 5xx) raises ``SendFailed`` with the record as it was, or,
when part of the view went out first, returns the record of what did: the next pass does the
rest, and never sends a second live location.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, replace
from typing import Final

from telegram.constants import LocationLimit

from bot.chat_ref import ChatRef
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.store.rider_positions import Point
from bot.telegram.limits import RateLimiter, SendLimits, Window
from bot.telegram.message_sender import Blocked, NotDelivered, SendResult, TelegramSender
from bot.tracking.fixes import distance_km
from bot.tracking.rider_map import NOTHING_SHOWN
from bot.tracking.rider_view import RiderView

log = logging.getLogger(__name__)

MOVE_METRES: Final = 20.0
"""How far the rider must be from the pin shown before it is moved. A phone's GPS outdoors is
good to about 5-10 m, so a rider standing still wanders by up to 15 m from fix to fix: moving
the pin for that would spend an edit on noise. 20 m is under a city block, so a pin moved at
this step still shows which street the rider is on, and a rider on the way (a scooter at
25 km/h goes about 140 m in a 20 s pass) moves it every pass."""

TRACKING_SENDS_PER_SECOND: Final = 15
"""Half of Telegram's overall 30 messages a second: the rest stays the customers'. 200 tracked
deliveries (about 260 calls a pass) then take about 17 s of each 20 s pass."""

_TRACKING_RATE: Final = Window(TRACKING_SENDS_PER_SECOND, 1.0)
TRACKING_LIMITS: Final = SendLimits(
    overall=_TRACKING_RATE,
    # A chat's own limits are the sender's, which every call also goes through: here they
    # are the overall pace, so they never hold a call back on their own.
    private_chat=_TRACKING_RATE,
    group_chat=_TRACKING_RATE,
    group_burst=_TRACKING_RATE,
)
"""The map's own pace: an overall rate only."""

LIVE_PERIOD_FOREVER: Final = int(LocationLimit.LIVE_PERIOD_FOREVER)
"""Bot API's live period (0x7FFFFFFF) for a live location edited until it is stopped."""

# Telegram's words (lower-cased) for an edit of a message the customer stopped, deleted, or
# that is too old: nothing to retry.
_GONE: Final = (
    "message can't be edited",
    "message to edit not found",
    "there is no live location in the message to edit",
)
_NOT_MODIFIED: Final = "message is not modified"


@dataclass(frozen=True)
class LiveShown:
    """What a Telegram chat shows of one delivery's rider (the ``shown`` record, as JSON).

    ``live_id`` is the live-location message (None: not sent yet) and ``at`` where its pin was
    last put; ``text_id`` the text message (None: not sent yet) and ``said`` what it says.
    ``stopped``: the live location can no longer be edited (the customer stopped or deleted
    it): nothing more is shown or stopped. ``text_kept``: the text message can no longer be
    edited: it stays as it is, and no other is sent.
    """

    live_id: int | None = None
    at: Point | None = None
    text_id: int | None = None
    said: str | None = None
    stopped: bool = False
    text_kept: bool = False

    def to_json(self) -> str:
        """The record as the store keeps it."""
        fields = asdict(self)
        fields["at"] = None if self.at is None else [self.at.latitude, self.at.longitude]
        return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, shown: str) -> LiveShown:
        """The record ``shown`` (``NOTHING_SHOWN``: nothing shown yet)."""
        if shown == NOTHING_SHOWN:
            return cls()
        fields = json.loads(shown)
        at = fields.pop("at")
        return cls(**fields, at=None if at is None else Point(at[0], at[1]))


class TelegramRiderMap:
    """The ``RiderMap`` of Telegram chats, over the bot's ``TelegramSender`` (so its calls are
    paced with every other message to the chat, across the instances sharing the store).

    ``pace`` keeps the map's own calls to ``TRACKING_SENDS_PER_SECOND`` (a ``RateLimiter`` of
    its own, before the sender's): a pass for hundreds of deliveries would otherwise send at
    the bot's whole overall rate for seconds on end, leaving customers' replies to queue behind
    it and Telegram's 30 a second with no room for a send that reaches it late.
    """

    def __init__(self, sender: TelegramSender, *, pace: RateLimiter | None = None) -> None:
        self._sender = sender
        self._pace = pace or RateLimiter(TRACKING_LIMITS)

    async def _call(
        self,
        chat: ChatRef,
        endpoint: str,
        params: dict[str, object],
        *,
        edited: int | None = None,
    ) -> SendResult:
        await self._pace.acquire(chat.id)
        return await self._sender.call(chat.id, endpoint, params, edited=edited)

    async def show(self, chat: ChatRef, view: RiderView, shown: str) -> str:
        """Put the pin where ``view`` says (when it moved enough) and say its text (when it
        changed); the record of what the chat shows now."""
        before = LiveShown.from_json(shown)
        now = before
        if now.stopped:
            return shown
        try:
            if view.position is not None:
                now = await self._place(chat, now, view.position.point)
            if not now.stopped:
                now = await self._say(chat, now, view.text)
        except SendFailed:
            if now == before:
                raise
            # The pin went out, its text did not: the record says so; the next pass says it.
        return shown if now == before else now.to_json()

    async def end(self, chat: ChatRef, view: RiderView | None, shown: str) -> None:
        """Stop the live location ``shown`` started (the text stays as it was)."""
        record = LiveShown.from_json(shown)
        if record.live_id is None or record.stopped:
            return
        params: dict[str, object] = {"message_id": record.live_id}
        result = await self._call(chat, "stopMessageLiveLocation", params, edited=record.live_id)
        _edited(chat, result)  # already stopped or deleted: nothing left to stop

    async def _place(self, chat: ChatRef, now: LiveShown, point: Point) -> LiveShown:
        where: dict[str, object] = {"latitude": point.latitude, "longitude": point.longitude}
        if now.live_id is None:
            params = {**where, "live_period": LIVE_PERIOD_FOREVER}
            result = await self._call(chat, "sendLocation", params)
            return replace(now, live_id=_sent_id(chat, result), at=point)
        if now.at is not None and distance_km(now.at, point) * 1000 < MOVE_METRES:
            return now
        params = {"message_id": now.live_id, **where}
        result = await self._call(chat, "editMessageLiveLocation", params, edited=now.live_id)
        if not _edited(chat, result):
            log.info(
                "chat %s stopped or deleted a rider's live location: shown no more", chat.for_log
            )
            return replace(now, stopped=True)
        return replace(now, at=point)

    async def _say(self, chat: ChatRef, now: LiveShown, text: str) -> LiveShown:
        if now.text_kept or now.said == text:
            return now
        if now.text_id is None:
            result = await self._call(chat, "sendMessage", {"text": text})
            return replace(now, text_id=_sent_id(chat, result), said=text)
        params: dict[str, object] = {"message_id": now.text_id, "text": text}
        result = await self._call(chat, "editMessageText", params, edited=now.text_id)
        if not _edited(chat, result):
            log.info("chat %s deleted a rider's text: it is edited no more", chat.for_log)
            return replace(now, text_kept=True)
        return replace(now, said=text)


def _sent_id(chat: ChatRef, result: SendResult) -> int:
    """The id of the message a send delivered; ``ChatUnreachable`` for a blocked chat,
    ``SendFailed`` for any other refusal."""
    if isinstance(result, Blocked):
        raise ChatUnreachable(result.reason)
    if isinstance(result, NotDelivered):
        raise SendFailed(f"chat {chat}: {result.reason}")
    return result.message_id


def _edited(chat: ChatRef, result: SendResult) -> bool:
    """Whether an edit (or a stop) took, an edit that changed nothing included; False: its
    message is gone (``_GONE``). Raises as ``_sent_id`` for any other refusal."""
    if isinstance(result, NotDelivered):
        reason = result.reason.lower()
        if reason.startswith(_NOT_MODIFIED):
            return True
        if reason.startswith(_GONE):
            return False
    _sent_id(chat, result)
    return True
