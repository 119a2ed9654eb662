"""``/deliveries [status]`` in an operator chat: every delivery, newest first, paged.

The API pages deliveries with forward-only cursors, so the list offers "Next ›" and "« First"
(``op1:<status>:<page>:<cursor>`` on the button; nothing to remember, a restart changes nothing).
"""

from __future__ import annotations

import re
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.ext import ContextTypes

from bot.partner import errors
from bot.partner.models import DELIVERY_STATUSES, Delivery
from bot.staff.partner_refusals import explain
from bot.telegram.message_sender import Delivered, answer_tap
from bot.telegram.operators.operator_chat import OperatorChat
from bot.telegram.text import escape
from bot.telegram.turn_messages import OutgoingMessage, next_page
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import status_label

LIST_PAGE_SIZE: Final = 10
PATTERN: Final = re.compile(r"^op1:")
_LIST_DATA: Final = re.compile(r"op1:(\d):(\d{1,5}):([A-Za-z0-9_-]{0,48})")
STATUS_WORDS: Final = ", ".join(DELIVERY_STATUSES)


class DeliveryList(OperatorChat):
    """Every delivery of the business, a page at a time, optionally of one status."""

    async def deliveries(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/deliveries [status]`` in an operator chat: every delivery, newest first."""
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = context.args or []
        wanted = args[0].casefold() if args else None
        if len(args) > 1 or (wanted is not None and wanted not in DELIVERY_STATUSES):
            return await self.say(message, words.say("ops.list_usage", statuses=STATUS_WORDS))
        status = 0 if wanted is None else DELIVERY_STATUSES.index(wanted) + 1
        drawn = await self.list_page(words, status, 0, None)
        await self.ctx.sender.send_message(message.chat_id, drawn)

    async def turn_page(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on "Next ›" / "« First" under an operator list."""
        query = update.callback_query
        if query is None:
            return
        words = self.catalogue(update)
        shown = query.message if isinstance(query.message, Message) else None
        if shown is None or not self.ctx.is_operator(shown.chat_id):
            await answer_tap(query, words.say("ops.refused"))
            return
        match = _LIST_DATA.fullmatch(query.data or "")
        if match is None or int(match[1]) > len(DELIVERY_STATUSES):
            await answer_tap(query, words.say("ops.dead_list_button"))
            return
        await answer_tap(query)
        drawn = await self.list_page(words, int(match[1]), int(match[2]), match[3] or None)
        edited = await self.ctx.sender.edit_message(shown.chat_id, shown.message_id, drawn)
        if not isinstance(edited, Delivered):
            await self.ctx.sender.send_message(shown.chat_id, drawn)

    async def list_page(
        self, words: Catalogue, status: int, page: int, cursor: str | None
    ) -> OutgoingMessage:
        """One page of every delivery (``status`` 0: any, else ``DELIVERY_STATUSES[status-1]``),
        in ``words``."""
        wanted = DELIVERY_STATUSES[status - 1] if status else None
        try:
            found = await self.ctx.client.list_deliveries(
                limit=LIST_PAGE_SIZE, status=wanted, cursor=cursor
            )
        except errors.PartnerError as error:
            return OutgoingMessage(escape(explain(words, error)))
        if wanted:
            which = words.say("ops.deliveries_of", status=status_label(words, wanted))
            which = which[:1].upper() + which[1:]
        else:
            which = words.say("ops.all_deliveries")
        if not found.deliveries:
            empty = "ops.list_none" if page == 0 else "ops.list_no_more"
            return OutgoingMessage(escape(words.say(empty, which=which)))
        lines = [escape(words.say("ops.list_title", which=which, page=page + 1))]
        lines += [_delivery_line(words, delivery) for delivery in found.deliveries]
        buttons = []
        if page > 0:
            buttons.append(
                InlineKeyboardButton(words.say("ops.first_page"), callback_data=f"op1:{status}:0:")
            )
        data = f"op1:{status}:{page + 1}:{found.next_cursor}"
        if found.next_cursor and _LIST_DATA.fullmatch(data):
            buttons.append(InlineKeyboardButton(next_page(words), callback_data=data))
        elif found.next_cursor:  # a cursor too long for a button: say there is more
            lines.append(escape(words.say("ops.more_exist")))
        return OutgoingMessage(
            "\n".join(lines), InlineKeyboardMarkup([buttons]) if buttons else None
        )


def _delivery_line(words: Catalogue, delivery: Delivery) -> str:
    facts = [status_label(words, delivery.status)]
    payment = delivery.payment
    if payment is not None and payment.delivery_fee is not None:
        facts.append(words.money(payment.delivery_fee, payment.currency_code or ""))
    rider = delivery.rider
    facts.append(
        words.say("ops.rider", name=rider.name or rider.id) if rider else words.say("ops.no_rider")
    )
    if delivery.dropoff is not None and delivery.dropoff.address:
        facts.append(words.say("ops.to", address=delivery.dropoff.address))
    return f"• <code>{escape(delivery.id)}</code>\n    {escape(' · '.join(facts))}"
