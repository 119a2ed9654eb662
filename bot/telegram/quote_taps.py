"""The quote question's buttons in Telegram: "Keep the order" / "Cancel it" under the relay's
question (``bot.relay.quote_question``; drawn by ``relay_channel.TelegramRelayChannel.ask``).

A tap carries ``quote keep <ref>`` or ``quote cancel <ref>``; only the customer who ordered
the delivery, in their private chat, can answer (the desk finds the reference among their own
deliveries alone). ``bot.ordering.quote_desk`` decides and words the answer; here it is only
drawn: the answer as a new message, and the buttons taken off a question that is answered.
"""

from __future__ import annotations

from typing import Final

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.ext import CallbackQueryHandler, ContextTypes

from bot.ordering.quote_desk import QuoteDesk
from bot.relay import quote_question
from bot.telegram.application import Handler
from bot.telegram.message_sender import TelegramSender, answer_tap
from bot.telegram.received_update import language_of
from bot.telegram.refs import telegram_user
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage

PATTERN: Final = r"^quote (keep|cancel) "

# Outcomes after which the question has nothing left to answer: its buttons go.
_CLOSED: Final = frozenset({"kept", "cancelled", "not_allowed", "already_answered", "moved_on"})


class QuoteTaps:
    """Taps on the quote question's buttons, answered by ``quotes``."""

    def __init__(self, quotes: QuoteDesk, sender: TelegramSender) -> None:
        self.quotes = quotes
        self.sender = sender

    def handlers(self) -> list[Handler]:
        return [CallbackQueryHandler(self.on_tap, pattern=PATTERN)]

    async def on_tap(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on "Keep the order" or "Cancel it"."""
        query = update.callback_query
        if query is None:
            return
        await answer_tap(query)
        shown = query.message if isinstance(query.message, Message) else None
        parsed = quote_question.parse(query.data or "")
        if shown is None or parsed is None or shown.chat.type != ChatType.PRIVATE:
            return
        choice, ref = parsed
        catalogue = self.quotes.desk.texts.catalogue_for(language_of(update))
        reply = await self.quotes.answer(catalogue, telegram_user(query.from_user.id), ref, choice)
        if reply.outcome in _CLOSED:
            await self.sender.call(
                shown.chat_id,
                "editMessageReplyMarkup",
                {"message_id": shown.message_id, "reply_markup": None},
            )
        await self.sender.send_message(shown.chat_id, OutgoingMessage(escape(reply.text)))
