"""The customer's way to a person in Telegram: ``/human``, the "Talk to a person" button (in
``/help`` and after the second wrong answer at one question), and their messages while a
hand-off waits, which go to staff instead of the order (``bot.handoff``).

While a hand-off waits, the order's own commands (``/start``, ``/new``, ``/repeat``,
``/cancel``, a flow's command) do not reach the order either (``order_waits``): the draft
stays exactly as staff see it on the card, and a person may be about to fill one of its
answers. The command is passed on to staff as the customer's message (so they know what the
customer wanted) and the customer is told, in one sentence, that their order waits and the
command works again once the conversation is closed. A drop-off code's link (``/start
otp_...``) is not about the order and still works.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes, filters

from bot.chat_ref import TELEGRAM, ChatRef
from bot.handoff.bodies import Body, location_body, photo_body, text_body
from bot.handoff.desk import HandoffDesk
from bot.telegram.application import Handler
from bot.telegram.message_sender import TelegramSender, answer_tap
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage
from conversations import Prompt, Turn
from conversations.keywords import command_words
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

BUTTON_DATA: Final = "human"
CODE_LINK: Final = "otp_"  # ``/start otp_<token>``: a receiver's drop-off code, not an order
OFFER_AFTER_FAILURES: Final = 2  # wrong answers at one question before a person is offered


def message_body(message: Message) -> Body | None:
    """What a Telegram message passes through a hand-off: its text, largest photo (with its
    caption) or location; None for anything else (a sticker, a contact: not passed on)."""
    if message.location is not None:
        return location_body(message.location.latitude, message.location.longitude)
    if message.photo:
        return photo_body(message.photo[-1].file_id, message.caption)
    if message.text:
        return text_body(message.text)
    return None


CommandCallback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


def offer_markup(catalogue: Catalogue) -> InlineKeyboardMarkup:
    """The "Talk to a person" button, in ``catalogue``'s words."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(catalogue.say("human.button"), callback_data=BUTTON_DATA)]]
    )


class HumanRequests:
    """``/human`` and the button, and the diversion of a waiting customer's messages, said
    from the business's ``texts`` in each customer's language."""

    def __init__(self, desk: HandoffDesk, sender: TelegramSender, texts: BusinessTexts) -> None:
        self.desk = desk
        self.sender = sender
        self.texts = texts

    def handlers(self) -> list[Handler]:
        """``/human`` in private chats (in every shipped language's words) and the button's
        taps (before the conversation's)."""
        words = command_words(self.texts.business_catalogue(), "human")
        return [
            CommandHandler(words, self.on_human, filters=filters.ChatType.PRIVATE),
            CallbackQueryHandler(self.on_button, pattern=f"^{BUTTON_DATA}$"),
        ]

    async def on_human(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/human``: a hand-off opened (or the waiting one), and the customer told."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        await self._ask(chat.id, user.id, user.full_name, user.language_code)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on "Talk to a person" (in the customer's own private chat only)."""
        query = update.callback_query
        if query is None or query.message is None:
            return
        await answer_tap(query)
        if query.message.chat.type != "private" or query.message.chat.id != query.from_user.id:
            return
        user = query.from_user
        await self._ask(query.message.chat.id, user.id, user.full_name, user.language_code)

    async def _ask(self, chat_id: int, user_id: int, name: str, language: str | None) -> None:
        chat = ChatRef(TELEGRAM, chat_id)
        asked = await self.desk.ask(chat, chat.user(user_id), name=name, language=language)
        await self.sender.send_message(chat_id, OutgoingMessage(escape(asked.reply)))

    async def divert(self, update: Update) -> bool:
        """Pass the customer's message to staff when their chat has a hand-off waiting; True
        when it did (the order does not see it)."""
        message, chat = update.message, update.effective_chat
        if message is None or chat is None:
            return False
        handoff = await self.desk.waiting_for(ChatRef(TELEGRAM, chat.id))
        if handoff is None:
            return False
        body = message_body(message)
        if body is None:
            return True  # a sticker, a contact: neither for staff nor for the order now
        told = await self.desk.from_customer(handoff, body)
        if told is not None:
            await self.sender.send_message(chat.id, OutgoingMessage(escape(told)))
        return True

    def order_waits(self, command: CommandCallback) -> CommandCallback:
        """``command`` (one of the order's), run only when the chat waits for no person; while
        it does, passed on to staff and the customer told the order waits (module docstring)."""

        async def unless_waiting(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if not await self._hold_command(update, context):
                await command(update, context)

        return unless_waiting

    async def _hold_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
        message, chat = update.message, update.effective_chat
        if message is None or chat is None or not message.text:
            return False
        word = message.text.split(maxsplit=1)[0].split("@", 1)[0]
        if word == "/start" and (context.args or [""])[0].startswith(CODE_LINK):
            return False
        handoff = await self.desk.waiting_for(ChatRef(TELEGRAM, chat.id))
        if handoff is None:
            return False
        told = await self.desk.from_customer(handoff, text_body(message.text))
        if told is None:
            catalogue = self.texts.catalogue_for(handoff.language)
            told = catalogue.say("human.order_waits", command=word)
        await self.sender.send_message(chat.id, OutgoingMessage(escape(told)))
        return True

    async def waiting(self, chat_id: int) -> bool:
        """Whether the chat waits for a person (its taps do not answer the order then)."""
        return await self.desk.waiting_for(ChatRef(TELEGRAM, chat_id)) is not None

    async def offer(self, chat_id: int, language: str | None, text: str | None = None) -> None:
        """The "Talk to a person" button under ``text`` and its ``/human`` line, for a
        customer whose client says ``language``; without ``text`` (a re-ask) the ``/human``
        line alone, with no button, so the question's own keyboard stays the one to answer."""
        catalogue = self.texts.catalogue_for(language)
        if text is None:
            offered = OutgoingMessage(escape(catalogue.say("human.offer")))
            await self.sender.send_message(chat_id, offered)
            return
        said = f"{text}\n\n{catalogue.say('human.help_line')}"
        await self.sender.send_message(
            chat_id, OutgoingMessage(escape(said), offer_markup(catalogue))
        )

    def stuck(self, before: Prompt | None, turn: Turn) -> bool:
        """Whether ``turn`` asks ``before``'s question again, with a reason, after at least
        ``OFFER_AFTER_FAILURES`` wrong answers to it in a row (the turn's count says)."""
        return (
            before is not None
            and turn.prompt is not None
            and turn.prompt.step == before.step
            and bool(turn.messages)
            and turn.failures >= OFFER_AFTER_FAILURES
        )
