"""The WhatsApp channel's registration on the core: its parts built once and joined.

::

    CloudClient (pywa, on [whatsapp] graph_api_base_url) ─> CloudSender, paced by WhatsAppPacing
    StoredWindows ─┬─> WhatsAppConversation (each customer message; the InboundHandler)
    WhatsAppOtp ───┼─> WhatsAppNews (the relay's Channel: the window, the templates)
                   └─> StatusFollowUp (each status; a failed message re-sent or reported)
    whatsapp_receiving: GET/POST /whatsapp, the inbox's handling and its sweep

``register_whatsapp`` registers the channel ``whatsapp``: the news as its sender, the pacing as
its turns, the conversation's later turns, the routes, the sweep, its words, and the rider's
pin at each milestone (``WhatsAppRiderMap``). It is the messenger (its ``wa.me`` links open
the drop-off code's claim) only when no other channel is.
Hand-offs of WhatsApp customers reach the staff the core already has (Telegram's operators'
chat, the console), and their answers the customer through the news (``WhatsAppNews.reply``:
the reply template once the window has closed).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.bot_core import BotCore, send_to_operators
from bot.channels import ChannelRegistration
from bot.chat_ref import WHATSAPP
from bot.config.whatsapp_section import WhatsAppConfig
from bot.ordering.alerting import OperatorAlerts
from bot.whatsapp.cloud_client import CloudClient
from bot.whatsapp.contracts import OtpClaims
from bot.whatsapp.inbound import InboundMessage
from bot.whatsapp.media import CloudMediaDownload, PhotoRehosting
from bot.whatsapp.news import WhatsAppNews
from bot.whatsapp.otp import WhatsAppOtp
from bot.whatsapp.pacing import WhatsAppPacing
from bot.whatsapp.rider_location import WhatsAppRiderMap
from bot.whatsapp.sender import CloudSender, access_alert
from bot.whatsapp.sending_texts import WHATSAPP_SENDING_TEXTS
from bot.whatsapp.statuses import StatusFollowUp
from bot.whatsapp.whatsapp_conversation import WHATSAPP_WORDS, WhatsAppConversation
from bot.whatsapp.whatsapp_kind import WHATSAPP_KIND
from bot.whatsapp.whatsapp_receiving import WhatsAppReceiving, whatsapp_receiving
from bot.whatsapp.whatsapp_texts import WHATSAPP_TEXTS
from bot.whatsapp.windows import StoredWindows


class NoClaimLink:
    """The drop-off code's claim without ``[whatsapp] display_phone_number``: no ``wa.me``
    link can be made, so none is offered and no message is read as a claim."""

    def link(self, token: str) -> str:
        return ""

    async def claim(self, message: InboundMessage) -> bool:
        return False


@dataclass(frozen=True)
class WhatsAppChannel:
    """What the runtime keeps of the registered channel (tests reach its parts here)."""

    conversation: WhatsAppConversation
    news: WhatsAppNews
    statuses: StatusFollowUp
    receiving: WhatsAppReceiving
    cloud: CloudClient


def register_whatsapp(
    core: BotCore, section: WhatsAppConfig, cloud: CloudClient
) -> WhatsAppChannel:
    """Build the WhatsApp channel of ``section``'s number over ``core`` and register it."""
    store, seams, settings = core.store, core.seams, core.settings
    catalogue = core.texts.business_catalogue

    async def alert_operators(text: str) -> None:
        await send_to_operators(core.channels, settings.operators, text)

    alerts = OperatorAlerts(store, alert_operators if settings.operators else None)
    pacing = WhatsAppPacing(
        budget=store.whatsapp_send_budget, clock=seams.monotonic, sleep=seams.sleep
    )
    sender = CloudSender(cloud, pacing, alert_token=access_alert(alerts.alert, catalogue))
    windows = StoredWindows(store.whatsapp_windows, clock=seams.clock)
    desk = core.desk(WHATSAPP_WORDS)
    otp: OtpClaims = (
        NoClaimLink()
        if section.display_phone_number is None
        else WhatsAppOtp(section.display_phone_number, desk.handoffs, sender, catalogue=catalogue)
    )
    news = WhatsAppNews(sender, windows, section.templates, store, otp, pacing)
    statuses = StatusFollowUp(
        store,
        news,
        alert=lambda text: alerts.alert(text, kind="whatsapp_not_delivered"),
        catalogue=catalogue,
        metrics=core.metrics,
    )
    photos = PhotoRehosting(
        CloudMediaDownload(cloud.wa),
        store,
        public_base_url=settings.public_base_url,
        ttl_seconds=settings.media_ttl_seconds,
    )
    conversation = WhatsAppConversation(
        core.chats,
        desk,
        sender,
        photos,
        windows,
        quotes=core.quotes(WHATSAPP_WORDS),
        handoffs=core.handoffs,
        otp=otp,
        blocked=store.blocked,
    )
    core.handoffs.serve(WHATSAPP, conversation.customers(news))
    receiving = whatsapp_receiving(section, store, conversation, statuses, clock=seams.clock)
    core.register(
        ChannelRegistration(
            WHATSAPP_KIND,
            news,
            messenger=not core.channels.has_messenger,
            turns=pacing,
            deliver_later=conversation.deliver_later,
            routes=receiving.routes,
            jobs=receiving.jobs,
            aclose=receiving.aclose,
            texts=(WHATSAPP_TEXTS, WHATSAPP_SENDING_TEXTS),
            rider_map=WhatsAppRiderMap(sender, windows, store, core.texts.catalogue_for),
        )
    )
    return WhatsAppChannel(conversation, news, statuses, receiving, cloud)
