"""``/report [7d|24h] [flow]``: where customers give up, short, in an operator chat.

The same figures as ``deliverybot report`` (``bot.funnel.report``), a few lines per flow: the
conversations started, the deliveries created, and the steps losing the most conversations
with their drop-off, median time and most frequent re-ask reason.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.funnel.recorder import day_of
from bot.funnel.report import funnel_report, render_short
from bot.periods import since_seconds
from bot.telegram.operators.operator_chat import OperatorChat

DEFAULT_PERIOD = "7d"


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
        try:
            seconds = since_seconds(period)
        except ValueError:
            await self.say(message, words.say("ops.report.usage"))
            return
        if args:
            await self.say(message, words.say("ops.report.usage"))
            return
        store = self.ctx.store
        since = day_of(store.clock() - seconds)
        rows = await funnel_report(store.funnel, since_day=since, flow=flow)
        await self.say(message, render_short(words, rows, period=period))
