"""The customer's data rights in Telegram: ``/mydata`` and ``/forgetme``, in private chats.

``/mydata`` sends everything the bot keeps about the customer as one JSON document
(``sendDocument``, ``my-data-<date>.json``, captioned ``privacy.export_intro``), then the
photo files still kept, as documents (``bot.privacy.my_data_file`` caps them); with nothing
kept it says ``privacy.export_nothing`` instead. ``/forgetme`` asks ``privacy.forget_question``
under two buttons; "yes" erases (``forget_customer``) and answers what was erased, what the
business keeps for its books and what waits for an open delivery (``forget_answer``); "no"
answers ``privacy.forget_kept``. Both requests are audited by ``bot.privacy.customer_requests``.

The handlers run under the chat's turn (the update processor), so no turn of the order
conversation runs meanwhile and none saves a session copy back after the erasure; what the
conversation remembers of the chat in memory (its prompt, its session's id) is dropped with
``forget_view``, so the next message starts afresh instead of answering an erased question.

The same requests typed as words, the whole message ("my data", "forget me", "mes données",
"oubliez-moi", in any shipped language: ``conversations.keywords.data_request``), are answered
as the commands are, in a private chat, before the order conversation or a person awaited
reads them: a French customer need not know the English command.

Buttons carry ``pv1:<y|n>:<user id>``: a tap by anyone else is refused, like a deliveries
list's page buttons. In a group these commands answer that they work in a private chat only:
a customer's data is not shown to a group.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Message, Update
from telegram.constants import ChatType
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.privacy.customer_requests import CUSTOMER_ACTOR, export_customer, forget_customer
from bot.privacy.my_data_file import (
    attached_photos,
    export_file,
    export_file_name,
    kept_nothing,
)
from bot.telegram.bot_context import BotContext
from bot.telegram.message_sender import answer_tap
from bot.telegram.received_update import language_of
from bot.telegram.refs import telegram_user
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage
from conversations.keywords import data_request
from conversations.texts.catalogue import Catalogue
from conversations.texts.privacy_texts import forget_answer

Handler = BaseHandler[Update, ContextTypes.DEFAULT_TYPE, None]
ForgetView = Callable[[int], None]

MY_DATA: Final = "mydata"
FORGET_ME: Final = "forgetme"
PATTERN: Final = re.compile(r"^pv1:")
_TAP: Final = re.compile(r"pv1:([yn]):(\d{1,20})")


class PrivacyCommands:
    """``/mydata``, ``/forgetme`` and its two buttons over ``ctx``; ``forget_view(chat_id)``
    drops what the conversation remembers of a chat whose customer was erased."""

    def __init__(self, ctx: BotContext, forget_view: ForgetView) -> None:
        self.ctx = ctx
        self.forget_view = forget_view

    async def my_data(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/mydata``: the export as a JSON document, the photos kept after it."""
        message, user_id = await self._private(update)
        if message is None or user_id is None:
            return
        catalogue = self._catalogue(update)
        exported = await export_customer(
            self.ctx.store, telegram_user(user_id), actor=CUSTOMER_ACTOR
        )
        if kept_nothing(exported):
            await self._say(message.chat_id, catalogue.say("privacy.export_nothing"))
            return
        data = await export_file(exported)
        document = InputFile(data, filename=export_file_name(self.ctx.store.clock()))
        params = {"document": document, "caption": catalogue.say("privacy.export_intro")}
        await self.ctx.sender.call(message.chat_id, "sendDocument", params)
        for path in attached_photos(exported, self.ctx.store.media_dir):
            data = await asyncio.to_thread(_read, path)
            if data:  # a file the retention removed meanwhile is simply not sent
                photo = InputFile(data, filename=path.name)
                await self.ctx.sender.call(message.chat_id, "sendDocument", {"document": photo})

    async def forget_me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/forgetme``: the question, under "erase" and "keep" buttons."""
        message, user_id = await self._private(update)
        if message is None or user_id is None:
            return
        catalogue = self._catalogue(update)
        buttons = [
            InlineKeyboardButton(catalogue.say(f"privacy.forget_{choice}"), callback_data=data)
            for choice, data in (("yes", _data("y", user_id)), ("no", _data("n", user_id)))
        ]
        question = OutgoingMessage(
            escape(catalogue.say("privacy.forget_question")), InlineKeyboardMarkup([buttons])
        )
        await self.ctx.sender.send_message(message.chat_id, question)

    async def typed(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A request typed as words (``DataWords`` let it through): as its command."""
        message = update.effective_message
        asked = data_request(self._catalogue(update), message.text or "") if message else None
        if asked == "my_data":
            await self.my_data(update, context)
        elif asked == "forget_me":
            await self.forget_me(update, context)

    async def on_tap(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on the question's buttons: erase, or keep; the buttons go either way."""
        query = update.callback_query
        if query is None:
            return
        catalogue = self._catalogue(update)
        match = _TAP.fullmatch(query.data or "")
        shown = query.message if isinstance(query.message, Message) else None
        if (
            match is None
            or shown is None
            or shown.chat.type != ChatType.PRIVATE
            or query.from_user.id != int(match[2])
        ):
            await answer_tap(query, catalogue.say("telegram.dead_button"))
            return
        await answer_tap(query)
        question = OutgoingMessage(escape(catalogue.say("privacy.forget_question")))
        await self.ctx.sender.edit_message(shown.chat_id, shown.message_id, question)
        if match[1] == "n":
            await self._say(shown.chat_id, catalogue.say("privacy.forget_kept"))
            return
        user = telegram_user(query.from_user.id)
        outcome = await forget_customer(self.ctx.store, user, actor=CUSTOMER_ACTOR)
        self.forget_view(shown.chat_id)
        said = forget_answer(
            catalogue,
            anonymised=outcome.anonymised_deliveries,
            open_deliveries=outcome.open_deliveries,
        )
        await self._say(shown.chat_id, said)

    async def _private(self, update: Update) -> tuple[Message | None, int | None]:
        """The command's message and sender in a private chat; elsewhere, told where to ask."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return None, None
        if message.chat.type != ChatType.PRIVATE:
            said = self._catalogue(update).say("telegram.privacy_private_only")
            await self._say(message.chat_id, said)
            return None, None
        return message, user.id

    def _catalogue(self, update: Update) -> Catalogue:
        return self.ctx.catalogue_for(language_of(update))

    async def _say(self, chat_id: int, text: str) -> None:
        await self.ctx.sender.send_message(chat_id, OutgoingMessage(escape(text)))


class DataWords(filters.MessageFilter):
    """A private chat's new message whose whole text asks about the sender's data, in the
    sender's language's catalogue (every shipped language's words count)."""

    def __init__(self, ctx: BotContext) -> None:
        super().__init__(name="DataWords")
        self.ctx = ctx

    def filter(self, message: Message) -> bool:
        if not message.text or message.chat.type != ChatType.PRIVATE:
            return False
        language = message.from_user.language_code if message.from_user else None
        return data_request(self.ctx.catalogue_for(language), message.text) is not None


def privacy_handlers(ctx: BotContext, forget_view: ForgetView) -> list[Handler]:
    """The handlers of ``/mydata``, ``/forgetme``, the same typed as words, and the forget
    question's buttons."""
    commands = PrivacyCommands(ctx, forget_view)
    return [
        CommandHandler(MY_DATA, commands.my_data),
        CommandHandler(FORGET_ME, commands.forget_me),
        MessageHandler(DataWords(ctx) & ~filters.UpdateType.EDITED, commands.typed),
        CallbackQueryHandler(commands.on_tap, pattern=PATTERN),
    ]


def _data(choice: str, user_id: int) -> str:
    return f"pv1:{choice}:{user_id}"


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""
