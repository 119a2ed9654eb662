"""``/assign <ref> <rider id>`` and ``/unassign <ref>``: the API's rules, refusals said plainly.
``<ref>`` is the short reference chats show, or the full id (``delivery_refs``)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.partner import errors
from bot.telegram.operators.operator_chat import OperatorChat
from bot.telegram.operators.operator_refusals import explain
from conversations.texts.deliveries_texts import short_ref, status_label


class Dispatch(OperatorChat):
    """Giving a delivery to a rider, and taking it back while that is still allowed."""

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
        try:
            delivery = await self.ctx.client.assign_rider(delivery_id, rider_id)
        except errors.PartnerError as error:
            await self.audit(update, "assign", delivery_id, _refused(error), rider_id)
            return await self.say(message, explain(words, error, delivery_id, rider_id))
        await self.audit(update, "assign", delivery_id, "done", rider_id)
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
        try:
            delivery = await self.ctx.client.unassign_rider(delivery_id)
        except errors.PartnerError as error:
            await self.audit(update, "unassign", delivery_id, _refused(error))
            return await self.say(message, explain(words, error, delivery_id=delivery_id))
        await self.audit(update, "unassign", delivery_id, "done")
        ref, status = short_ref(delivery.id), status_label(words, delivery.status)
        await self.say(message, words.say("ops.unassigned", ref=ref, status=status))


def _refused(error: errors.PartnerError) -> str:
    """A refusal as the audit trail keeps it: the API's code, never its message's details."""
    return f"refused: {error.code or error.status}"
