"""Everything a Telegram handler needs, built once per process and shared by all handlers."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ordering.chats import ChatService
from bot.ordering.customer_desk import CustomerDesk
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.staff.staff_door import StaffDoor
from bot.store import Store
from bot.telegram.message_sender import TelegramSender
from bot.telegram.photo_receiver import PhotoReceiver
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue


@dataclass(frozen=True)
class BotContext:
    """The bot's long-lived parts; handlers receive it instead of reaching for globals."""

    store: Store
    chats: ChatService
    client: PartnerClient
    cache: CapabilityCache
    sender: TelegramSender
    photos: PhotoReceiver
    operators: frozenset[int]
    phone_region: str
    desk: CustomerDesk
    # Where the "Pick on the map" page is (``Config.webapp_url()``); None: no map button.
    webapp_url: str | None = None
    # Sign-in links to the staff's web console (``/console``); None: ``[console]`` is off.
    staff: StaffDoor | None = None

    @property
    def texts(self) -> BusinessTexts:
        """The business's texts (``BotCore.texts``, with every channel's words), as the
        customer desk holds them."""
        return self.desk.texts

    def catalogue_for(self, language_code: str | None) -> Catalogue:
        """The catalogue of an update whose sender's client says ``language_code``
        (Telegram's ``language_code``): the business's in that language, or in its default."""
        return self.desk.texts.catalogue_for(language_code)

    def map_url(self, chat_id: int) -> str | None:
        """The chat's "Pick on the map" page, or None when the Mini App is off."""
        if self.webapp_url is None:
            return None
        return f"{self.webapp_url}/place?chat={chat_id}"

    def is_operator(self, chat_id: int) -> bool:
        """Operator commands are answered only in the chats listed in ``[operators]``."""
        return chat_id in self.operators
