"""``WhatsAppRiderMap``: the rider on the map on WhatsApp, one location message per milestone.

WhatsApp has no live location a business can send, and a message every few seconds would bury
the chat. So the customer gets one location message (a pin, named with the rider's first name,
the sentence about them under it as its address) at each milestone of the delivery: the rider
matched, the package picked up, on its way. Within one milestone nothing more is sent; a
milestone reached while the position is not available sends nothing until it is, then the pin.

A location is a free-form message, which WhatsApp allows only inside the customer-service
window (``windows``): outside it nothing is sent (the status news goes as its template, which
says the milestone in words), and the pin goes if the customer writes within that milestone.
The record kept in ``shown`` is the milestone whose pin went ("" before any).

Pins are not recorded among the messages that may have to go again (``store.whatsapp_sent``):
a pin reported failed later is not worth an operator's alert, and the next milestone sends a
fresh one. The delivery's end sends nothing: its status news says it.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat_ref import ChatRef
from bot.store import Store
from bot.tracking.rider_view import RiderView
from bot.whatsapp.contracts import CustomerWindows, WhatsAppSend
from bot.whatsapp.outgoing import LocationMessage
from bot.whatsapp.sender import WindowClosed
from conversations.texts.catalogue import Catalogue
from conversations.texts.tracking_texts import rider_words

CatalogueFor = Callable[[str | None], Catalogue]
"""The catalogue of a customer's language (``BusinessTexts.catalogue_for``)."""


class WhatsAppRiderMap:
    """The WhatsApp channel's ``RiderMap``: ``WhatsAppRiderMap(sender, windows, store,
    catalogue_for)``; see the module docstring."""

    def __init__(
        self,
        sender: WhatsAppSend,
        windows: CustomerWindows,
        store: Store,
        catalogue_for: CatalogueFor,
    ) -> None:
        self._sender = sender
        self._windows = windows
        self._store = store
        self._catalogue_for = catalogue_for

    async def show(self, chat: ChatRef, view: RiderView, shown: str) -> str:
        """Send the rider's pin when this milestone has none yet and it can go now; the
        milestone whose pin went (``shown`` when none went). Raises ``ChatUnreachable`` and
        ``SendFailed`` as ``WhatsAppSend`` does, but not for a window closed meanwhile."""
        fix = view.position
        if shown == view.milestone or fix is None:
            return shown
        if not await self._windows.is_open(chat):
            return shown
        pin = LocationMessage(
            fix.point.latitude,
            fix.point.longitude,
            name=await self._rider(view),
            address=view.text,
        )
        try:
            await self._sender.send(chat, pin)
        except WindowClosed:
            return shown  # closed since the check: the status template says it instead
        return view.milestone

    async def end(self, chat: ChatRef, view: RiderView | None, shown: str) -> None:
        """Nothing: a sent pin stays as it was, and the status news tells the end."""

    async def _rider(self, view: RiderView) -> str:
        """The rider as the customer reads them, in the language they ordered in."""
        link = await self._store.deliveries.get(view.delivery_id)
        language = link.language if link is not None else None
        return rider_words(self._catalogue_for(language), view.rider_name)
