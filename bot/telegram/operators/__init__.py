"""Operator commands: dispatching riders and watching every delivery, from operator chats only.

=======================================  ==========================================================
``/riders <ref> [idle] [radius <km>]``   the fleet around the delivery's pickup, closest first
                                         (``rider_list``)
``/assign <ref> <rider id>``             give the delivery to a rider (``rider_assignment``)
``/unassign <ref>``                      take the rider off again, only while ``matched``
                                         (``rider_assignment``)
``/deliveries [status]``                 every delivery, newest first, paged (``listing``; the
                                         command itself is registered by ``delivery_commands``)
``/block <customer> [reason]``           stop a customer ordering; their drafts are dropped
                                         (``customer_stops``)
``/unblock <customer>``                  let them order again (``customer_stops``)
``/report [7d|24h] [flow]``              where customers give up, short (``funnel_view``)
``/console``                             a one-time sign-in link to the web console, sent
                                         privately (``console_links``)
=======================================  ==========================================================

Only the chats listed in ``[operators]`` are answered; anyone else gets a polite refusal and
nothing more (``operator_chat``). ``<ref>`` is the short reference every chat shows, or the
full id (``delivery_refs``). Every refusal of the Partner API is said in plain words
(``refusals``).
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes

from bot.staff.partner_refusals import explain
from bot.telegram.application import Handler
from bot.telegram.bot_context import BotContext
from bot.telegram.operators.console_links import ConsoleLinks
from bot.telegram.operators.customer_stops import CustomerStops
from bot.telegram.operators.funnel_view import FunnelView
from bot.telegram.operators.listing import PATTERN, DeliveryList
from bot.telegram.operators.rider_assignment import Dispatch
from bot.telegram.operators.rider_list import RidersView, riders_text


class OperatorCommands:
    """Every operator command over one ``BotContext``; ``operator_handlers`` registers them."""

    def __init__(self, ctx: BotContext) -> None:
        self.riders = RidersView(ctx)
        self.dispatch = Dispatch(ctx)
        self.listing = DeliveryList(ctx)
        self.stops = CustomerStops(ctx)
        self.funnel = FunnelView(ctx)
        self.console_links = ConsoleLinks(ctx)

    async def deliveries(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/deliveries [status]`` in an operator chat (``delivery_handlers`` hands it over)."""
        await self.listing.deliveries(update, context)


def operator_handlers(ctx: BotContext) -> list[Handler]:
    """The handlers of ``/riders``, ``/assign``, ``/unassign``, ``/block``, ``/unblock``,
    ``/report``, ``/console`` and the operator list's pages.

    ``/deliveries`` itself is registered by ``delivery_handlers``, which hands operator chats
    over to ``OperatorCommands.deliveries``.
    """
    commands = OperatorCommands(ctx)
    return [
        CommandHandler("riders", commands.riders.riders),
        CommandHandler("assign", commands.dispatch.assign),
        CommandHandler("unassign", commands.dispatch.unassign),
        CommandHandler("block", commands.stops.block),
        CommandHandler("unblock", commands.stops.unblock),
        CommandHandler("report", commands.funnel.report),
        CommandHandler("console", commands.console_links.console),
        CallbackQueryHandler(commands.listing.turn_page, pattern=PATTERN),
    ]


__all__ = ["OperatorCommands", "explain", "operator_handlers", "riders_text"]
