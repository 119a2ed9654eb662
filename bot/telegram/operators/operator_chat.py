"""What every operator command shares: answered in operator chats only, in which words, and how
it replies."""

from __future__ import annotations

from telegram import Message, Update

from bot.chat_ref import TELEGRAM, UserRef
from bot.partner import errors
from bot.staff.partner_refusals import explain
from bot.telegram.bot_context import BotContext
from bot.telegram.operators.delivery_refs import RefRefused, delivery_id_for
from bot.telegram.received_update import language_of
from bot.telegram.text import escape, split
from bot.telegram.turn_messages import OutgoingMessage
from conversations.texts.catalogue import Catalogue


class OperatorChat:
    """The base of the operator commands: the gate to operator chats, and replies."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    def catalogue(self, update: Update) -> Catalogue:
        """The words a command's reply is said in: the business's texts in the language of the
        operator's client (``language_of``), as every reply to an update is."""
        return self.ctx.catalogue_for(language_of(update))

    async def operator_message(self, update: Update) -> Message | None:
        """The command's message when it came from an operator chat; a refusal otherwise.

        The refusal comes before any Partner API call, so not even whether an id exists leaks.
        """
        message = update.effective_message
        if message is None:
            return None
        if self.ctx.is_operator(message.chat_id):
            return message
        await self.say(message, self.catalogue(update).say("ops.refused"))
        return None

    async def delivery_named(self, words: Catalogue, message: Message, typed: str) -> str | None:
        """The id of the delivery ``typed`` names (full id or the short reference chats show);
        None after saying why it names none (or the list could not be read), in ``words``."""
        try:
            found = await delivery_id_for(words, self.ctx.client, typed)
        except errors.PartnerError as error:
            await self.say(message, explain(words, error))
            return None
        if isinstance(found, RefRefused):
            await self.say(message, found.reason)
            return None
        return found

    async def audit(
        self, update: Update, action: str, subject: str, outcome: str, detail: str | None = None
    ) -> None:
        """Write what the operator did, and how it ended, to the audit trail (``store.audit``);
        the actor is the operator's Telegram account."""
        await self.ctx.store.audit.record(operator_of(update), action, subject, outcome, detail)

    async def say(self, message: Message, text: str) -> None:
        """Plain ``text`` into the message's chat."""
        await self.say_html(message, escape(text))

    async def say_html(self, message: Message, html: str) -> None:
        """``html`` into the message's chat, in as many messages as it needs."""
        # Pieces are cut at line ends, and no tag here spans a line.
        pieces = [OutgoingMessage(piece) for piece in split(html)]
        await self.ctx.sender.send_messages(message.chat_id, pieces)


def operator_of(update: Update) -> str:
    """Who acted, for the audit trail: the operator's Telegram account (``telegram:1900``)."""
    user = update.effective_user
    return str(UserRef(TELEGRAM, user.id)) if user is not None else "telegram:unknown"
