"""The customer's data rights on WhatsApp: "my data" and "forget me", typed or tapped.

WhatsApp has no command menu, so the requests are whole messages in any shipped language
("my data", "mes données", "/forgetme", "Oubliez-moi !": ``conversations.keywords.
data_request``) or the menu's rows (``w1:k:my_data``, ``w1:k:forget_me``). They are read
before anything else the conversation does with a message: at any question of an order, with
no order, and while a hand-off waits for a person, since asking about one's data is a right and
not a step of an order (staff see nothing of it).

"my data" sends everything the bot keeps about the customer (``export_customer``) as one
document, ``my-data-<date>.json`` captioned ``privacy.export_intro``, then the photo files
still kept (``attached_photos``) as images; with nothing kept it says
``privacy.export_nothing``. Meta takes no ``application/json`` document (its supported document
types are text, PDF and the office formats), so the JSON goes as ``text/plain`` under its
``.json`` name, which only picks the icon the customer's app shows. Meta's images are JPEG or
PNG of at most 5 MB: a WebP photo is not attached, and loses nothing, since the document lists
every photo with its digest.

"forget me" asks ``privacy.forget_question`` under two reply buttons, ``privacy.forget_yes``
(``pv1:y``) and ``privacy.forget_no`` (``pv1:n``). "Yes" erases (``forget_customer``), drops
what the conversation remembers of the chat (``forget_view``), and answers ``forget_answer``:
what the business keeps for its books, and an open delivery finished first. "No" answers
``privacy.forget_kept``. Both requests are audited by ``bot.privacy.customer_requests``.

The answers are sent in the customer-service window this very message opened: the erasure
removes the chat's window row (``whatsapp_windows``) with the rest, but a reply is sent
without asking it (only the relay's news does), and Meta's window is open since the customer
just wrote. The next message records it again. The erasure runs under the chat's lock, which
the inbox handling holds for the whole message (``bot.whatsapp.inbox_handling``), so no turn of
this chat runs meanwhile to save a session copy back after it. A message of the chat stored
before the erasure but not yet read by the handling loses its body with the rest of the chat's
inbox, and is not answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

from bot.chat_ref import ChatRef, UserRef
from bot.privacy.customer_requests import CUSTOMER_ACTOR, export_customer, forget_customer
from bot.privacy.my_data_file import (
    attached_photos,
    export_file,
    export_file_name,
    kept_nothing,
)
from bot.store import Store
from bot.web.photo_keeping import image_type
from bot.whatsapp.contracts import WhatsAppSend
from bot.whatsapp.inbound import ButtonReply, Content, ListReply, Text
from bot.whatsapp.outgoing import (
    IMAGE_TYPES,
    MAX_BUTTON_TITLE,
    MAX_CAPTION,
    MAX_IMAGE_BYTES,
    MAX_INTERACTIVE_BODY,
    ButtonsMessage,
    DocumentMessage,
    ImageMessage,
    Outgoing,
    ReplyButton,
)
from bot.whatsapp.reply_ids import FORGET_NO, FORGET_YES, menu_id
from bot.whatsapp.reply_sending import say_text, send_reply
from conversations.keywords import data_request
from conversations.shortening import cut_end
from conversations.texts.catalogue import Catalogue
from conversations.texts.privacy_texts import forget_answer

Asked = Literal["my_data", "forget_me", "erase", "keep"]
"""What a message asks of the customer's data: the export, the question, or its answer."""
ForgetView = Callable[[ChatRef], None]

EXPORT_TYPE: Final = "text/plain"
"""The export's upload type: Meta takes no JSON document (see the module docstring)."""
_TAPPED: Final[dict[str, Asked]] = {
    menu_id("my_data"): "my_data",
    menu_id("forget_me"): "forget_me",
    FORGET_YES: "erase",
    FORGET_NO: "keep",
}


def read_asked(catalogue: Catalogue, content: Content) -> Asked | None:
    """What ``content`` asks of the customer's data (words in ``catalogue``'s languages and
    every shipped one), or None when it asks nothing of it."""
    if isinstance(content, Text):
        return data_request(catalogue, content.body)
    if isinstance(content, ButtonReply | ListReply):
        return _TAPPED.get(content.reply_id)
    return None


class WhatsAppPrivacy:
    """ "my data" and "forget me" over ``store``, answered through ``send`` (see the module)."""

    def __init__(self, store: Store, send: WhatsAppSend) -> None:
        self.store = store
        self.send = send

    async def answer(
        self,
        chat: ChatRef,
        user: UserRef,
        catalogue: Catalogue,
        asked: Asked,
        *,
        forget_view: ForgetView,
    ) -> None:
        """Answer what ``user`` ``asked`` in ``chat``, in ``catalogue``'s words;
        ``forget_view`` drops what the conversation remembers of the chat once erased."""
        if asked == "my_data":
            await self._my_data(chat, user, catalogue)
        elif asked == "forget_me":
            # A business's own wording may run past Meta's limits: cut, never refused.
            question = ButtonsMessage(
                cut_end(catalogue.say("privacy.forget_question"), MAX_INTERACTIVE_BODY),
                [
                    ReplyButton(FORGET_YES, _title(catalogue.say("privacy.forget_yes"))),
                    ReplyButton(FORGET_NO, _title(catalogue.say("privacy.forget_no"))),
                ],
            )
            await self._send_all(chat, [question])
        elif asked == "keep":
            await self._say(chat, catalogue.say("privacy.forget_kept"))
        else:
            outcome = await forget_customer(self.store, user, actor=CUSTOMER_ACTOR)
            forget_view(chat)
            said = forget_answer(
                catalogue,
                anonymised=outcome.anonymised_deliveries,
                open_deliveries=outcome.open_deliveries,
            )
            await self._say(chat, said)

    async def _my_data(self, chat: ChatRef, user: UserRef, catalogue: Catalogue) -> None:
        exported = await export_customer(self.store, user, actor=CUSTOMER_ACTOR)
        if kept_nothing(exported):
            await self._say(chat, catalogue.say("privacy.export_nothing"))
            return
        document = DocumentMessage(
            await export_file(exported),
            export_file_name(self.store.clock()),
            EXPORT_TYPE,
            caption=cut_end(catalogue.say("privacy.export_intro"), MAX_CAPTION),
        )
        photos: list[Outgoing] = []
        for path in attached_photos(exported, self.store.media_dir):
            data = await asyncio.to_thread(_read, path)
            kind = image_type(data)
            # A file the retention removed meanwhile, or one Meta takes as no image, is not
            # attached: the document lists it all the same.
            if kind in IMAGE_TYPES and len(data) <= MAX_IMAGE_BYTES:
                photos.append(ImageMessage(data, kind))
        await self._send_all(chat, [document, *photos])

    async def _say(self, chat: ChatRef, text: str) -> None:
        await say_text(self.send, chat, text)

    async def _send_all(self, chat: ChatRef, messages: list[Outgoing]) -> None:
        await send_reply(self.send, chat, messages)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def _title(text: str) -> str:
    return cut_end(text, MAX_BUTTON_TITLE)
