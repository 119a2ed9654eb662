"""``RiderMap``: how a channel shows a customer their rider, and ``RiderMaps``: which channel's.

The tracking job decides what each customer may see (``RiderView``) and keeps, per delivery,
the channel's own record of what the chat shows (``shown``: text only the channel reads, e.g.
Telegram's live message ids; "" before anything was shown). A channel:

* ``show``: draws the view given what the chat shows now, and returns the new record. It is
  called every pass while the delivery is tracked, so it does nothing when nothing it shows
  changed (the same fix, the same estimate), and paces itself within its messenger's limits.
* ``end``: the delivery ended (delivered, cancelled), lost its rider, or changed rider: stops
  what ``show`` started (Telegram stops the live location). Called once; the record is then
  dropped with the fix.

Errors: ``ChatUnreachable`` (the chat blocked the bot) ends tracking for that delivery silently;
``SendFailed`` keeps the record as it was, and the next pass tries again. A channel never raises
for a refusal it can live with (Telegram's "message can't be edited" of an expired live
location): it returns a record that says so, and decides what to show instead.
"""

from __future__ import annotations

from typing import Protocol

from bot.chat_ref import ChatRef
from bot.tracking.rider_view import RiderView

NOTHING_SHOWN = ""
"""The record of a chat that was shown nothing yet."""


class RiderMap(Protocol):
    """A channel's way of showing a customer their rider; see the module docstring."""

    async def show(self, chat: ChatRef, view: RiderView, shown: str) -> str:
        """Show ``view`` in ``chat``, which shows ``shown`` now; the new record."""
        ...

    async def end(self, chat: ChatRef, view: RiderView | None, shown: str) -> None:
        """Stop what ``shown`` says the chat shows; ``view`` is the last one shown, when known
        (None: the job has no view left, e.g. the delivery ended)."""
        ...


class RiderMaps(Protocol):
    """Which channel shows a chat its rider: ``bot.channels.Channels`` by the chat's channel."""

    def rider_map(self, chat: ChatRef) -> RiderMap | None:
        """The chat's channel's ``RiderMap`` (None: the channel shows no rider)."""
        ...
