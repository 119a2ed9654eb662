"""``/report [7d|24h] [flow]``: where customers give up, short, in an operator chat.

The same figures as ``deliverybot report`` (``bot.funnel.report``), a few lines per flow: the
conversations started, the deliveries created, and the steps losing the most conversations
with their drop-off, median time and most frequent re-ask reason.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.funnel.report import DEFAULT_PERIOD, render_short, report_for
from bot.telegram.operators.operator_chat import OperatorChat


class FunnelView(OperatorChat):
    """The ``/report`` command."""

    async def report(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = list(context.args or [])
        period = args.pop(0) if args and args[0][:1].isdigit() else DEFAULT_PERIOD
        flow = args.pop(0) if args else None
        if args:
            await self.say(message, words.say("ops.report.usage"))
            return
        store = self.ctx.store
        try:
            rows = await report_for(store.funnel, store.clock(), period, flow=flow)
        except ValueError:  # not a period
            await self.say(message, words.say("ops.report.usage"))
            return
        await self.say(message, render_short(words, rows, period=period))
