"""``/block <customer> [reason]`` and ``/unblock <customer>``: operators stop a customer who
misuses the bot, and restore them (``bot.safety.customer_blocking``).

``<customer>`` is a delivery reference, a Telegram user id, a WhatsApp number (spaces and all:
``/block +234 801 234 5678 spam``), or an agent channel's customer
(``bot.safety.customer_names``). The reply says what was done, and how many open orders were
dropped; the audit trail keeps who did it.
"""

from __future__ import annotations

from telegram import Message, Update
from telegram.ext import ContextTypes

from bot.chat_ref import UserRef
from bot.safety.customer_blocking import unblocked_said
from bot.safety.customer_names import (
    NameRefused,
    customer_named,
    customer_shown,
    name_and_rest,
)
from bot.telegram.operators.operator_chat import OperatorChat, operator_of
from conversations.texts.catalogue import Catalogue


class CustomerStops(OperatorChat):
    """Blocking and unblocking customers from an operator chat."""

    async def block(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/block <customer> [reason]``."""
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = context.args or []
        if not args:
            return await self.say(message, words.say("safety.block_usage"))
        typed, rest = name_and_rest(args)
        user = await self._customer(words, message, typed)
        if user is None:
            return None
        reason = " ".join(rest) or None
        done = await self.ctx.chats.blocking.block(user, by=operator_of(update), reason=reason)
        await self.say(message, done.said(words, await customer_shown(self.ctx.store, user)))

    async def unblock(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/unblock <customer>``."""
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = context.args or []
        typed, rest = name_and_rest(args) if args else ("", [])
        if not typed or rest:
            return await self.say(message, words.say("safety.unblock_usage"))
        user = await self._customer(words, message, typed)
        if user is None:
            return None
        lifted = await self.ctx.chats.blocking.unblock(user, by=operator_of(update))
        shown = await customer_shown(self.ctx.store, user)
        await self.say(message, unblocked_said(words, shown, lifted))

    async def _customer(self, words: Catalogue, message: Message, typed: str) -> UserRef | None:
        found = await customer_named(words, self.ctx.store, typed)
        if isinstance(found, NameRefused):
            await self.say(message, found.reason)
            return None
        return found
