"""``CloudSender``: the bot's WhatsApp messages sent through the Cloud API, paced, and its
refusals mapped once.

Each ``Outgoing`` value becomes the Cloud API's JSON for its type (``text``, ``interactive``
buttons, list or location request, ``location``, ``template``, ``document``, ``image``), posted
with pywa's ``api.send_message`` on the business's number. A document's or an image's bytes
are uploaded first (``api.upload_media``: ``POST /{phone-number-id}/media``, multipart), once
however often the message is tried, and the message names the media id Meta returns. The wire
shapes are Meta's ("Messages" reference); pywa's own message builders are not used because the
values here are already checked against Meta's limits and map one to one to the JSON.

Every send waits for its turn (``pacing.WhatsAppPacing``, shared by every process on the
store). Meta's refusals, by code::

    131047            WindowClosed (a SendFailed): outside the customer-service window; the
                      news sends the template instead
    131056            the customer held (pair rate), the send tried again after the hold
    130429, 4, 80007  the number held (throughput, Graph API call limits), tried again
                      -> after max_attempts, or a hold too long: SendThrottled (a SendFailed
                      with ``retry_after``)
    131026, 131051,   ChatUnreachable: the number cannot get WhatsApp messages (not on
    131021, 131030    WhatsApp, its terms not accepted, the business's own, not allowed)
    190, other auth   SendFailed; the operators are alerted (once in a while)
    anything else     SendFailed with Meta's code and title (for the log, never for a chat)

An upload Meta refuses is ``SendFailed``, not retried (the operators alerted for an access
refusal, as above). A network error is ``SendFailed`` too, and not retried here: a timed-out
send may have gone, and a duplicate is worse than a resend the caller decides. Nothing logged
carries a message's words or the access token: only a code, a title, or an exception's type.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final, assert_never

import httpx

from bot.chat_ref import ChatRef
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.whatsapp.cloud_client import CloudClient
from bot.whatsapp.outgoing import (
    ButtonsMessage,
    DocumentMessage,
    ImageMessage,
    ListMessage,
    LocationMessage,
    LocationRequest,
    MediaMessage,
    Outgoing,
    TemplateMessage,
    TextMessage,
)
from bot.whatsapp.pacing import WhatsAppPacing
from bot.whatsapp.whatsapp_errors import WhatsAppChannelError
from conversations.texts.catalogue import Catalogue

if TYPE_CHECKING:
    from pywa.errors import WhatsAppError

log = logging.getLogger(__name__)

OUTSIDE_WINDOW: Final = 131047
PAIR_RATE: Final = 131056
THROUGHPUT: Final = 130429
API_CALLS: Final = frozenset({4, 80007})
UNREACHABLE: Final = frozenset({131026, 131051, 131021, 131030})
EXPIRED_TOKEN: Final = 190
_AUTH_CODES: Final = frozenset({0, 3, 10, 190}) | frozenset(range(200, 300))

AlertOnce = Callable[[str], Awaitable[None]]
"""Tells the operators that WhatsApp refused the bot's access, given Meta's code (the reason
``_reason`` words); ``access_alert`` builds it from the core's operator alerts."""
Alert = Callable[[str], Awaitable[None]]


def access_alert(alert: Alert, catalogue: Callable[[], Catalogue]) -> AlertOnce:
    """``CloudSender``'s ``alert_token``: the business's sentence (``whatsapp.sending.
    alert_access``) to ``alert`` (the core's ``OperatorAlerts.alert``, which says a sentence
    once in a while however many sends, and instances, meet the refusal)."""

    async def refused(reason: str) -> None:
        await alert(catalogue().say("whatsapp.sending.alert_access", reason=reason))

    return refused


class WindowClosed(SendFailed, WhatsAppChannelError):
    """Meta refused a message other than a template: the customer-service window is closed."""


class SendThrottled(SendFailed, WhatsAppChannelError):
    """Meta's rate limits held the send past its retries; try again after ``retry_after``."""

    def __init__(self, reason: str, retry_after: float) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


def cloud_json(message: Outgoing, media_id: str = "") -> tuple[str, dict[str, object]]:
    """The Cloud API's message type and object for ``message`` (the body of ``/messages``
    holds it under that type's name); a document or an image names its uploaded ``media_id``."""
    if isinstance(message, DocumentMessage | ImageMessage):
        return _media_json(message, media_id)
    if isinstance(message, TextMessage):
        return "text", {"body": message.body, "preview_url": message.preview_url}
    if isinstance(message, TemplateMessage):
        template: dict[str, object] = {"name": message.name, "language": {"code": message.language}}
        if message.parameters:
            parameters = [{"type": "text", "text": text} for text in message.parameters]
            template["components"] = [{"type": "body", "parameters": parameters}]
        return "template", template
    if isinstance(message, LocationMessage):
        location: dict[str, object] = {
            "latitude": message.latitude,
            "longitude": message.longitude,
        }
        if message.name:
            location["name"] = message.name
        if message.address:
            location["address"] = message.address
        return "location", location
    interactive: dict[str, object]
    footer = ""
    if isinstance(message, ButtonsMessage):
        footer = message.footer
        buttons = [
            {"type": "reply", "reply": {"id": button.reply_id, "title": button.title}}
            for button in message.buttons
        ]
        interactive = {
            "type": "button",
            "body": {"text": message.body},
            "action": {"buttons": buttons},
        }
    elif isinstance(message, ListMessage):
        footer = message.footer
        sections = [
            {
                **({"title": section.title} if section.title else {}),
                "rows": [
                    {
                        "id": row.reply_id,
                        "title": row.title,
                        **({"description": row.description} if row.description else {}),
                    }
                    for row in section.rows
                ],
            }
            for section in message.sections
        ]
        interactive = {
            "type": "list",
            "body": {"text": message.body},
            "action": {"button": message.button, "sections": sections},
        }
    elif isinstance(message, LocationRequest):
        interactive = {
            "type": "location_request_message",
            "body": {"text": message.body},
            "action": {"name": "send_location"},
        }
    else:
        assert_never(message)
    if footer:
        interactive["footer"] = {"text": footer}
    return "interactive", interactive


def _media_json(message: MediaMessage, media_id: str) -> tuple[str, dict[str, object]]:
    if not media_id:
        raise ValueError("a document or an image is sent by the id of its upload")
    media: dict[str, object] = {"id": media_id}
    if isinstance(message, DocumentMessage):
        media["filename"] = message.filename
    if message.caption:
        media["caption"] = message.caption
    return ("document" if isinstance(message, DocumentMessage) else "image"), media


def upload_name(message: MediaMessage) -> str:
    """The file name an upload carries: a document's own; an image's by its type."""
    if isinstance(message, DocumentMessage):
        return message.filename
    return "photo.png" if message.mime_type == "image/png" else "photo.jpg"


class CloudSender:
    """``contracts.WhatsAppSend`` over pywa's client: ``CloudSender(cloud, pacing,
    alert_token=access_alert(operator_alerts.alert, texts.business_catalogue))``."""

    def __init__(
        self,
        cloud: CloudClient,
        pacing: WhatsAppPacing,
        *,
        alert_token: AlertOnce | None = None,
    ) -> None:
        self._cloud = cloud
        self._pacing = pacing
        self._alert_token = alert_token

    @property
    def pacing(self) -> WhatsAppPacing:
        """The limits every send waits for (the relay's turns are taken in them too)."""
        return self._pacing

    async def send(self, chat: ChatRef, message: Outgoing) -> str:
        """Send ``message`` to ``chat`` within WhatsApp's limits; its ``wamid``. Raises as the
        module docstring says."""
        from pywa.errors import WhatsAppError  # pywa is imported where WhatsApp runs

        media_id = ""
        if isinstance(message, DocumentMessage | ImageMessage):
            media_id = await self._upload(message)
        typ, body = cloud_json(message, media_id)
        limits = self._pacing.limits
        for attempt in range(1, limits.max_attempts + 1):
            await self._pacing.acquire(chat)
            try:
                answer = await self._cloud.wa.api.send_message(
                    sender=str(self._cloud.wa.phone_id),
                    to=str(chat.id),
                    recipient=None,
                    recipient_type="individual",
                    typ=typ,
                    msg=body,
                )
            except WhatsAppError as error:
                wait = await self._refused(chat, error)
                if attempt == limits.max_attempts or wait > limits.longest_wait:
                    raise SendThrottled(_reason(error), wait) from None
                continue
            except httpx.HTTPError as error:
                # The type only: an HTTP error's text may carry the request's URL.
                raise SendFailed(f"Cloud API not reached ({type(error).__name__})") from None
            return _message_id(answer)
        raise AssertionError("unreachable: max_attempts is at least 1")

    async def _upload(self, message: MediaMessage) -> str:
        """Upload ``message``'s file; its media id. Raises ``SendFailed`` (see the module)."""
        from pywa.errors import WhatsAppError

        try:
            answer = await self._cloud.wa.api.upload_media(
                phone_id=str(self._cloud.wa.phone_id),
                media=message.content,
                mime_type=message.mime_type,
                filename=upload_name(message),
            )
        except WhatsAppError as error:
            reason = _reason(error)
            if error.code in _AUTH_CODES:
                log.error("WhatsApp refused the bot's access (%s): nothing goes out", reason)
                if self._alert_token is not None:
                    await self._alert_token(reason)
            else:
                log.warning("WhatsApp refused an upload (%s)", reason)
            raise SendFailed(reason) from None
        except httpx.HTTPError as error:
            raise SendFailed(f"Cloud API not reached ({type(error).__name__})") from None
        media_id = answer.get("id") if isinstance(answer, dict) else None
        if not isinstance(media_id, str) or not media_id:
            raise SendFailed("the Cloud API's answer to an upload named no media id")
        return media_id

    async def _refused(self, chat: ChatRef, error: WhatsAppError) -> float:
        """The hold a rate-limit refusal asks for (then the send is tried again); any other
        refusal is raised as what it means."""
        code = error.code
        if code == PAIR_RATE:
            log.info("WhatsApp paced a customer (131056)")
            return await self._pacing.hold_customer(chat)
        if code == THROUGHPUT or code in API_CALLS:
            log.info("WhatsApp paced the business number (%d)", code)
            return await self._pacing.hold_number(api_limit=code in API_CALLS)
        reason = _reason(error)
        if code == OUTSIDE_WINDOW:
            raise WindowClosed(reason)
        if code in UNREACHABLE:
            log.info("a WhatsApp customer cannot be messaged (%s)", reason)
            raise ChatUnreachable(reason)
        if code in _AUTH_CODES:
            log.error("WhatsApp refused the bot's access (%s): nothing goes out", reason)
            if self._alert_token is not None:
                await self._alert_token(reason)
            raise SendFailed(reason)
        log.warning("WhatsApp refused a message (%s)", reason)
        raise SendFailed(reason)


def _reason(error: WhatsAppError) -> str:
    """Meta's code and the class pywa maps it to: safe to log (no text of the message)."""
    return f"Cloud API error {error.code} ({type(error).__name__})"


def _message_id(answer: object) -> str:
    """The ``wamid`` of a send's answer (``{"messages": [{"id": "wamid..."}]}``)."""
    if isinstance(answer, dict):
        messages = answer.get("messages")
        if isinstance(messages, list) and messages and isinstance(messages[0], dict):
            message_id = messages[0].get("id")
            if isinstance(message_id, str) and message_id:
                return message_id
    raise SendFailed("the Cloud API's answer named no message id")
