"""``WhatsAppOtp``: the drop-off code's hand-off on WhatsApp.

The link the customer forwards to the receiver is ``https://wa.me/<the business's number>
?text=<claim words> otp_<token>``: it opens a chat with the business with the claim typed in,
and the receiver only presses send. That message is the claim (``claim``): its token names
the hand-off, and its sender's number is the proof, since WhatsApp itself vouches that a
message comes from the number it names. So the claim is the Telegram path's two steps at once,
through the same ``ReceiverHandoffs``: the link opened (``open``), then the sender's own
number shared (``share_contact``), normalised in the business's region and compared with the
delivery's ``receiver_phone`` there. A code goes only to that number; it is erased once
WhatsApp accepted the message that carries it (``handed_over``), so one that did not go stays
claimable. Every sentence is the core's (``handoff_texts``, ``otp_for_receiver``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from urllib.parse import quote

from bot.chat_ref import WHATSAPP, ChatRef
from bot.ordering.desk_replies import HandoffCode
from bot.ordering.receiver_handoff import ReceiverHandoffs, handoff_payload, handoff_token
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.whatsapp.contracts import WhatsAppSend
from bot.whatsapp.inbound import InboundMessage, Text
from bot.whatsapp.outgoing import TextMessage
from conversations.texts.catalogue import Catalogue

log = logging.getLogger(__name__)

_PAYLOAD = re.compile(r"otp_[A-Za-z0-9_-]{16,64}")


def display_digits(display_phone_number: str) -> str:
    """The digits of the business's number as ``wa.me`` takes them (country code first)."""
    digits = re.sub(r"[^0-9]", "", display_phone_number)
    if not 5 <= len(digits) <= 15:
        raise ValueError("the business's display number needs 5 to 15 digits")
    return digits


def claim_token(text: str) -> str | None:
    """The hand-off token a claim's text carries (``otp_<token>`` among its words), else None."""
    found = _PAYLOAD.search(text)
    return None if found is None else handoff_token(found.group(0))


class WhatsAppOtp:
    """``contracts.OtpClaims``: ``WhatsAppOtp(display_phone_number, handoffs, sender,
    catalogue=texts.business_catalogue)``; ``handoffs`` is the core's
    (``CustomerDesk.handoffs``), ``catalogue`` gives the words of the link and the replies
    (a receiver's language is not known: the business's)."""

    def __init__(
        self,
        display_phone_number: str,
        handoffs: ReceiverHandoffs,
        sender: WhatsAppSend,
        *,
        catalogue: Callable[[], Catalogue],
    ) -> None:
        self._digits = display_digits(display_phone_number)
        self._handoffs = handoffs
        self._sender = sender
        self._catalogue = catalogue

    def link(self, token: str) -> str:
        """``https://wa.me/<digits>?text=<claim words> otp_<token>``, URL-encoded."""
        words = self._catalogue().say("whatsapp.sending.claim_words")
        text = f"{words} {handoff_payload(token)}"
        return f"https://wa.me/{self._digits}?text={quote(text, safe='')}"

    async def claim(self, message: InboundMessage) -> bool:
        """Answer ``message`` when its text carries a hand-off token (True), else False."""
        if not isinstance(message.content, Text):
            return False
        token = claim_token(message.content.body)
        if token is None:
            return False
        chat = ChatRef(WHATSAPP, int(message.wa_id))
        user = chat.user(chat.id)
        catalogue = self._catalogue()
        reply = await self._handoffs.open(catalogue, chat, user, token)
        if reply.outcome == "ask_for_contact":
            # The sender's own number, vouched for by WhatsApp: the contact Telegram asks for.
            reply = await self._handoffs.share_contact(
                catalogue, chat, user, f"+{message.wa_id}", contact_user=user
            )
        if await self._hand_over(chat, reply.codes) and reply.text:
            await self._say(chat, reply.text)
        return True

    async def _hand_over(self, chat: ChatRef, codes: Sequence[HandoffCode]) -> bool:
        """Send each code to ``chat``, erasing each WhatsApp took; False when one did not go."""
        for code in codes:
            if not await self._say(chat, code.text):
                # Kept in the store: the receiver can send the claim again later.
                log.warning("drop-off code of %s not sent to its receiver", code.delivery_id)
                return False
            await self._handoffs.handed_over(chat, code)
        return True

    async def _say(self, chat: ChatRef, text: str) -> bool:
        try:
            await self._sender.send(chat, TextMessage(text))
        except (SendFailed, ChatUnreachable) as error:
            log.info("hand-off reply not sent to its WhatsApp receiver (%s)", error)
            return False
        return True
