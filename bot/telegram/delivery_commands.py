"""A customer's own deliveries in Telegram: ``/status [id]``, ``/deliveries`` (paged),
``/cancel_delivery <id> <reason>``.

Drawing only: each handler reads the command, asks ``ctx.desk`` (``bot.ordering.CustomerDesk``,
which decides what the customer may see and words every answer) and draws the reply, escaped
for HTML, with page buttons for the list.

These commands answer in private chats only: in a group everyone would read the answer. In an
operator chat ``/deliveries`` is the operators' view of every delivery (``operators``).

Page buttons carry ``dl1:p:<user id>:<page>`` (never the conversation's ``q1:`` namespace); a
tap by anyone but that user is refused, so a list shown in one chat cannot be paged by others.
"""

from __future__ import annotations

import re
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.ordering.desk_replies import DeliveryPage
from bot.telegram.bot_context import BotContext
from bot.telegram.message_sender import Delivered, answer_tap
from bot.telegram.operators import OperatorCommands
from bot.telegram.refs import telegram_user
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage, next_page, previous_page
from conversations.keywords import command_words
from conversations.texts import desk_texts
from conversations.texts.catalogue import Catalogue
from conversations.texts.desk_texts import ChannelWords

Handler = BaseHandler[Update, ContextTypes.DEFAULT_TYPE, None]

TELEGRAM_WORDS: Final = ChannelWords(
    new="/new",
    status="/status",
    deliveries="/deliveries",
    cancel_delivery="/cancel_delivery",
    share_contact="telegram.share_contact",
    share_own_contact="telegram.share_own_contact",
)
"""How the texts name Telegram's commands and its contact button."""

PATTERN: Final = re.compile(r"^dl1:")
_PAGE_DATA: Final = re.compile(r"dl1:p:(\d{1,20}):(\d{1,6})")


class DeliveryCommands:
    """The customer commands over one ``BotContext``; ``delivery_handlers`` registers them."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        self.operators = OperatorCommands(ctx)

    async def status(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/status [id]``: the delivery as the service has it now (no id: the latest)."""
        message, user_id = _private(update)
        if message is None or user_id is None:
            return await self._say_private_only(update)
        reply = await self.ctx.desk.status(
            _catalogue(self.ctx, update), telegram_user(user_id), " ".join(context.args or [])
        )
        await self._say(message, reply.text)

    async def deliveries(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/deliveries``: the customer's own, newest first; every delivery in operator chats."""
        message = update.effective_message
        if message is not None and self.ctx.is_operator(message.chat_id):
            return await self.operators.deliveries(update, context)
        message, user_id = _private(update)
        if message is None or user_id is None:
            return await self._say_private_only(update)
        page = await self.page(_catalogue(self.ctx, update), user_id, 0)
        await self.ctx.sender.send_message(message.chat_id, page)

    async def cancel(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/cancel_delivery <id> <reason>``: cancel one of the customer's own deliveries."""
        message, user_id = _private(update)
        if message is None or user_id is None:
            return await self._say_private_only(update)
        _, typed, reason = [*(message.text or "").split(maxsplit=2), "", ""][:3]
        catalogue = _catalogue(self.ctx, update)
        reply = await self.ctx.desk.cancel(catalogue, telegram_user(user_id), typed, reason)
        await self._say(message, reply.text)

    async def turn_page(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on a page button of a ``/deliveries`` list."""
        query = update.callback_query
        if query is None:
            return
        match = _PAGE_DATA.fullmatch(query.data or "")
        shown = query.message if isinstance(query.message, Message) else None
        words, catalogue = self.ctx.desk.words, _catalogue(self.ctx, update)
        if match is None or shown is None:
            await answer_tap(query, desk_texts.stale_list_button(catalogue, words))
            return
        owner, page = int(match[1]), int(match[2])
        if query.from_user.id != owner:
            await answer_tap(query, desk_texts.not_your_list(catalogue, words))
            return
        await answer_tap(query)
        drawn = await self.page(catalogue, owner, page)
        edited = await self.ctx.sender.edit_message(shown.chat_id, shown.message_id, drawn)
        if not isinstance(edited, Delivered):  # too old to edit: draw it anew
            await self.ctx.sender.send_message(shown.chat_id, drawn)

    async def page(self, catalogue: Catalogue, user_id: int, page: int) -> OutgoingMessage:
        """Page ``page`` (from 0, clamped to the last) of the user's deliveries, drawn from
        ``catalogue``."""
        listed = await self.ctx.desk.deliveries(catalogue, telegram_user(user_id), page)
        return draw_page(catalogue, listed, user_id)

    async def _say(self, message: Message, text: str) -> None:
        await self.ctx.sender.send_message(message.chat_id, OutgoingMessage(escape(text)))

    async def _say_private_only(self, update: Update) -> None:
        message = update.effective_message
        if message is not None:
            said = desk_texts.DELIVERIES_PRIVATE_ONLY.render(_catalogue(self.ctx, update))
            await self._say(message, said)


def delivery_handlers(ctx: BotContext) -> list[Handler]:
    """The handlers of ``/status``, ``/deliveries``, ``/cancel_delivery`` and list paging."""
    commands, business = DeliveryCommands(ctx), ctx.texts.business_catalogue()
    return [
        CommandHandler(command_words(business, "status"), commands.status),
        CommandHandler(command_words(business, "deliveries"), commands.deliveries),
        CommandHandler(command_words(business, "cancel_delivery"), commands.cancel),
        CallbackQueryHandler(commands.turn_page, pattern=PATTERN),
    ]


def draw_page(catalogue: Catalogue, page: DeliveryPage, user_id: int) -> OutgoingMessage:
    """The list as HTML, each reference as code, with ‹ Prev / Next › buttons for ``user_id``."""
    if not page.entries:
        return OutgoingMessage(escape(page.text))
    lines = [escape(page.title)]
    lines += [
        desk_texts.list_entry_template(catalogue).format(
            ref=f"<code>{escape(entry.ref)}</code>",
            status=escape(entry.status_text),
            date=escape(entry.ordered_on),
        )
        for entry in page.entries
    ]
    if page.hint is not None:
        lines += ["", escape(page.hint)]
    buttons = []
    if page.has_previous:
        buttons.append(_page_button(previous_page(catalogue), user_id, page.page - 1))
    if page.has_next:
        buttons.append(_page_button(next_page(catalogue), user_id, page.page + 1))
    markup = InlineKeyboardMarkup([buttons]) if buttons else None
    return OutgoingMessage("\n".join(lines), markup)


def _catalogue(ctx: BotContext, update: Update) -> Catalogue:
    """The catalogue ``update`` is answered from: its sender's language."""
    user = update.effective_user
    return ctx.catalogue_for(None if user is None else user.language_code)


def _private(update: Update) -> tuple[Message | None, int | None]:
    """The message and its sender's id, when it was written in a private chat."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or message.chat.type != ChatType.PRIVATE:
        return None, None
    return message, user.id


def _page_button(label: str, user_id: int, page: int) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=f"dl1:p:{user_id}:{page}")
