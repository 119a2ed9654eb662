"""``/assign <ref> <rider id>`` and ``/unassign <ref>``: the API's rules, refusals said plainly.
``<ref>`` is the short reference chats show, or the full id (``delivery_refs``). The actions
themselves, their refusals' words and their audit are ``bot.staff.dispatching``'s, shared
with the web console."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.staff.dispatching import Dispatcher
from bot.telegram.bot_context import BotContext
from bot.telegram.operators.operator_chat import OperatorChat, operator_of
from conversations.texts.deliveries_texts import short_ref, status_label


class Dispatch(OperatorChat):
    """Giving a delivery to a rider, and taking it back while that is still allowed."""

    def __init__(self, ctx: BotContext) -> None:
        super().__init__(ctx)
        self.dispatcher = Dispatcher(ctx.client, ctx.store.audit)

    async def assign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/assign <id> <rider id>``."""
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = context.args or []
        if len(args) != 2:
            return await self.say(message, words.say("ops.assign_usage"))
        typed, rider_id = args
        delivery_id = await self.delivery_named(words, message, typed)
        if delivery_id is None:
            return None
        done = await self.dispatcher.assign(words, operator_of(update), delivery_id, rider_id)
        if done.delivery is None:
            return await self.say(message, done.refusal or done.outcome)
        delivery = done.delivery
        rider = delivery.rider
        name = (rider.name if rider else None) or rider_id
        ref, status = short_ref(delivery.id), status_label(words, delivery.status)
        await self.say(message, words.say("ops.assigned", rider=name, ref=ref, status=status))

    async def unassign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/unassign <id>`` (only while the delivery is ``matched``)."""
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = context.args or []
        if len(args) != 1:
            return await self.say(message, words.say("ops.unassign_usage"))
        delivery_id = await self.delivery_named(words, message, args[0])
        if delivery_id is None:
            return None
        done = await self.dispatcher.unassign(words, operator_of(update), delivery_id)
        if done.delivery is None:
            return await self.say(message, done.refusal or done.outcome)
        ref, status = short_ref(done.delivery.id), status_label(words, done.delivery.status)
        await self.say(message, words.say("ops.unassigned", ref=ref, status=status))
