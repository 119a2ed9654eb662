"""``/console``: an operator asks, in an operator chat, for a sign-in link to the web console.

The link is theirs alone, so it is never said in the group: it goes to their private chat with
the bot, and the group is told only that it went. When the bot cannot write to them privately
(they never started a chat with it, or blocked it) the group is told to start one first, still
without the link. With ``[console] enabled = false`` the command says the console is off.
The console opens in the language of their Telegram app when it is shipped, until they choose
another there.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.chat_ref import TELEGRAM, UserRef
from bot.telegram.message_sender import Delivered
from bot.telegram.operators.operator_chat import OperatorChat
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage


class ConsoleLinks(OperatorChat):
    """``/console`` from an operator chat: a one-time link, sent privately."""

    async def console(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/console``."""
        message = await self.operator_message(update)
        user = update.effective_user
        if message is None or user is None:
            return
        words = self.catalogue(update)
        door = self.ctx.staff
        if door is None:
            return await self.say(message, words.say("telegram.console_off"))
        # The console opens in their client's language when it is shipped (``chosen``).
        link = await door.link_for(UserRef(TELEGRAM, user.id), user.full_name, words.chosen)
        private = words.say("telegram.console_link", minutes=door.link_minutes, link=link)
        # A private chat's id is the user's own: the link goes there and nowhere else.
        sent = await self.ctx.sender.send_message(user.id, OutgoingMessage(escape(private)))
        if isinstance(sent, Delivered):
            return await self.say(message, words.say("telegram.console_sent", name=user.first_name))
        await self.say(message, words.say("telegram.console_start_private", name=user.first_name))
