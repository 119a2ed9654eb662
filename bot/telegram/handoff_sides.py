"""The hand-off's two sides in Telegram (``bot.handoff.sides``): customers in their private
chats, and staff in the operators' chat.

Staff see each hand-off as one card in the operators' chat, with "I'll answer" and "Done"
buttons (``handoff_staff``); what the customer writes is posted as a reply to the card,
starting with the hand-off's ``#REF`` tag, so a staff reply to either reaches the customer.
Where the operators' chat is a forum group, each hand-off has its own topic, named with its
reference and the customer's name (``staff_topics``): the card and everything about the
hand-off go in it, staff write there without replying to anything, and closing the hand-off
closes the topic. A customer receives staff's words as the bot's own messages, and photos and
locations as they were sent (by Telegram's file id: nothing is downloaded).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.chat_ref import TELEGRAM, ChatRef
from bot.handoff.bodies import LOCATION, PHOTO, Body, coordinates, kind_of, text_of
from bot.relay.channel_protocol import SendFailed
from bot.store.handoffs import Handoff, StaffPost
from bot.telegram.message_sender import Blocked, NotDelivered, SendResult, TelegramSender
from bot.telegram.staff_topics import StaffTopics, topic_name
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage
from conversations import Turn
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

TAKE: Final = "handoff:take:"
DONE: Final = "handoff:done:"
BUTTON_PATTERN: Final = r"^handoff:(take|done):([A-Z2-9]{6})$"
# The tag that starts every staff message of a hand-off: "#K7M2QX ...".
TAG: Final = re.compile(r"^#([A-Z2-9]{6})\b")

ShowTurn = Callable[[ChatRef, Turn, str | None], Awaitable[None]]


def tagged_ref(text: str | None) -> str | None:
    """The hand-off reference a staff message of the bot starts with, or None."""
    found = TAG.match(text or "")
    return found.group(1) if found else None


def card_keyboard(catalogue: Catalogue, handoff: Handoff) -> InlineKeyboardMarkup | None:
    """The card's buttons in ``catalogue``'s words (the business's): "I'll answer" until
    someone took it, "Done" until it is closed."""
    if handoff.state == "closed":
        return None
    take = InlineKeyboardButton(catalogue.say("staff.take"), callback_data=TAKE + handoff.ref)
    done = InlineKeyboardButton(catalogue.say("staff.done"), callback_data=DONE + handoff.ref)
    return InlineKeyboardMarkup([[take, done]] if handoff.state == "open" else [[done]])


class TelegramCustomers:
    """Customers in their private chats; ``show`` is the conversation's ``deliver_later``."""

    def __init__(self, sender: TelegramSender, show: ShowTurn) -> None:
        self._sender = sender
        self._show = show

    async def send(self, chat: ChatRef, body: Body) -> bool:
        """Send ``body`` to the customer; False for a chat that blocked the bot."""
        return _sent(await _send_body(self._sender, chat.id, body))

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        """Show the turn in the customer's chat, as the conversation draws it, in
        ``language``'s words (the hand-off's: this process may never have drawn the chat)."""
        await self._show(chat, turn, language)

    async def answered(self, chat: ChatRef, turn: Turn) -> None:
        """Nothing now: the chat shows its order again, at the question after staff's
        answer, when the hand-off closes (its buttons do not answer while it waits)."""


class TelegramStaff:
    """Staff in the operators' chat ``chat_id`` (the first of ``[operators] chat_ids``);
    with ``topics``, a topic per hand-off where that chat is a forum. Staff read the
    business's language (``texts.business_catalogue()``), whatever the customer's."""

    def __init__(
        self,
        sender: TelegramSender,
        texts: BusinessTexts,
        chat_id: int,
        topics: StaffTopics | None = None,
    ) -> None:
        self._sender = sender
        self._texts = texts
        self.chat_id = chat_id
        self._topics = topics

    async def post(self, handoff: Handoff, card: str) -> StaffPost | None:
        """The card, with its buttons, in the operators' chat (in a new topic of its own
        where the chat is a forum)."""
        thread = await self._new_topic(handoff)
        staff = self._texts.business_catalogue()
        card = with_how_to_answer(staff, card, thread)
        keyboard = card_keyboard(staff, handoff)
        if thread is None:
            message = OutgoingMessage(escape(card), keyboard)
            result = await self._sender.send_message(self.chat_id, message)
        else:
            params = {"text": card, "reply_markup": keyboard, **_in_topic(thread)}
            result = await self._sender.call(self.chat_id, "sendMessage", params)
        if isinstance(result, Blocked | NotDelivered):
            return None
        return StaffPost(ChatRef(TELEGRAM, self.chat_id), result.message_id, thread)

    async def _new_topic(self, handoff: Handoff) -> int | None:
        if self._topics is None or not await self._topics.is_forum(self.chat_id):
            return None
        return await self._topics.open(self.chat_id, topic_name(handoff.ref, handoff.name))

    async def redraw(self, handoff: Handoff, card: str) -> None:
        """The card again, in place, with the buttons its state leaves; a closed hand-off's
        card no longer says how to answer it, and its topic is closed too."""
        post = handoff.post
        if post is None:
            return
        staff = self._texts.business_catalogue()
        if handoff.waiting:  # a closed card is answered no more
            card = with_how_to_answer(staff, card, post.thread_id)
        message = OutgoingMessage(escape(card), card_keyboard(staff, handoff))
        await self._sender.edit_message(post.chat.id, post.message_id, message)
        if handoff.state == "closed" and post.thread_id is not None and self._topics is not None:
            await self._topics.close(post.chat.id, post.thread_id)

    async def send(self, handoff: Handoff, body: Body) -> bool:
        """The customer's message, tagged with the reference, as a reply to the card."""
        staff = self._texts.business_catalogue()
        if kind_of(body) == PHOTO or kind_of(body) == LOCATION:
            tag = staff.say("staff.from_customer_media", ref=handoff.ref)
            tagged = {**body, "caption": f"{tag} {text_of(body)}".strip()}
        else:
            said = staff.say("staff.from_customer", ref=handoff.ref, text=text_of(body))
            tagged = {**body, "text": said}
        sent = await _send_body(
            self._sender, self.chat_id, tagged, reply_to=_card(handoff), thread=_thread(handoff)
        )
        return _sent(sent)

    async def tell(self, handoff: Handoff, text: str) -> None:
        """A line to staff, as a reply to the card, in its topic if it has one (not tried
        again if it fails: the card shows the state)."""
        params = {"text": text, **_reply_to(_card(handoff)), **_in_topic(_thread(handoff))}
        await self._sender.call(self.chat_id, "sendMessage", params)


def _card(handoff: Handoff) -> int | None:
    return handoff.post.message_id if handoff.post is not None else None


def with_how_to_answer(catalogue: Catalogue, card: str, thread: int | None) -> str:
    """The card with its last line, how staff answer, in ``catalogue``'s words (the card is in
    the business's language): a reply to it, or, in a forum group where the hand-off has a
    topic of its own, anything written in that topic."""
    how = catalogue.say("staff.card_how" if thread is None else "staff.card_how_topic")
    return f"{card}\n{how}"


def _thread(handoff: Handoff) -> int | None:
    return handoff.post.thread_id if handoff.post is not None else None


def _in_topic(thread: int | None) -> dict[str, object]:
    return {} if thread is None else {"message_thread_id": thread}


def _reply_to(message_id: int | None) -> dict[str, object]:
    if message_id is None:
        return {}
    return {"reply_parameters": {"message_id": message_id, "allow_sending_without_reply": True}}


async def _send_body(
    sender: TelegramSender,
    chat_id: int,
    body: Body,
    *,
    reply_to: int | None = None,
    thread: int | None = None,
) -> SendResult:
    kind, reply = kind_of(body), {**_reply_to(reply_to), **_in_topic(thread)}
    if kind == PHOTO:
        caption = text_of(body)
        params = {"photo": str(body.get("file_id", "")), **reply}
        return await sender.call(chat_id, "sendPhoto", {**params, **_caption(caption)})
    if kind == LOCATION:
        lat, lng = coordinates(body)
        result = await sender.call(
            chat_id, "sendLocation", {"latitude": lat, "longitude": lng, **reply}
        )
        caption = str(body.get("caption", ""))
        if caption and not isinstance(result, Blocked | NotDelivered):
            # A location has no caption: the tag follows it, replying to it.
            params = {"text": caption, **_reply_to(result.message_id), **_in_topic(thread)}
            await sender.call(chat_id, "sendMessage", params)
        return result
    return await sender.call(chat_id, "sendMessage", {"text": text_of(body), **reply})


def _caption(caption: str) -> dict[str, object]:
    return {"caption": caption} if caption else {}


def _sent(result: SendResult) -> bool:
    """True when delivered, False for a blocked chat; anything else is tried again later."""
    if isinstance(result, NotDelivered):
        raise SendFailed(result.reason)
    return not isinstance(result, Blocked)
