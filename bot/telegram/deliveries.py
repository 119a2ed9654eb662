"""A customer's own deliveries: ``/status [id]``, ``/deliveries`` (paged), ``/cancel_delivery``.

Ownership is the ``store.deliveries`` link made when the bot created the delivery, keyed by
the Telegram *user*. Every lookup a customer can trigger goes through it first, and anything
they do not own gets exactly the answer an unknown id gets, without a Partner API call, so ids
cannot be probed. Customers may type the full id or the short reference the bot's messages use
(``3F2A9C1E``); a reference is matched only against their own deliveries.

These commands answer in private chats only: in a group everyone would read the answer. In an
operator chat ``/deliveries`` is the operators' view of every delivery (``operators``).

Page buttons carry ``dl1:p:<user id>:<page>`` (never the conversation's ``q1:`` namespace); a
tap by anyone but that user is refused, so a list shown in one chat cannot be paged by others.
"""

from __future__ import annotations

import logging
import math
import re
from datetime import UTC, datetime
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.partner import errors
from bot.partner.models import CANCEL_REASON_LENGTH, Delivery
from bot.store import DeliveryLink
from bot.telegram.context import BotContext
from bot.telegram.operators import OperatorCommands
from bot.telegram.render import NEXT_PAGE, PREVIOUS_PAGE, OutgoingMessage
from bot.telegram.sender import Delivered, answer_tap
from bot.telegram.text import escape
from conversations.rules import format_money
from conversations.texts.deliveries_texts import short_ref, status_label, status_sentence

log = logging.getLogger(__name__)

Handler = BaseHandler[Update, ContextTypes.DEFAULT_TYPE, None]

PAGE_SIZE: Final = 5
PATTERN: Final = re.compile(r"^dl1:")
_PAGE_DATA: Final = re.compile(r"dl1:p:(\d{1,20}):(\d{1,6})")
_MIN_REF: Final = 6  # shorter prefixes would match too much to mean anything
_REF_SEARCH: Final = 200  # a reference is looked for among the customer's newest deliveries

UNKNOWN = "I can't find a delivery {ref} among yours. /deliveries lists them."
NONE_YET = "You have no deliveries yet. Send /new to order one."
PRIVATE_ONLY = "Please ask me in a private chat: your deliveries are not shown in groups."
NOT_YOUR_LIST = "This list belongs to someone else. Send /deliveries for yours."
CANCEL_USAGE = (
    "To cancel, send /cancel_delivery, the delivery and your reason, e.g.\n"
    "/cancel_delivery 3F2A9C1E I ordered it twice"
)
BUSY = "The delivery service is busy right now. Please try again in a minute."
UNREACHABLE = "I couldn't reach the delivery service just now. Please try again in a few minutes."


class DeliveryCommands:
    """The customer commands over one ``BotContext``; ``delivery_handlers`` registers them."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        self.operators = OperatorCommands(ctx)

    async def status(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/status [id]``: the delivery as the service has it now (no id: the latest)."""
        message, user_id = _private(update)
        if message is None or user_id is None:
            return await self._say_private_only(update)
        typed = " ".join(context.args or []).strip()
        link = await self._own(user_id, typed) if typed else await self._latest(user_id)
        if link is None:
            return await self._say(message, UNKNOWN.format(ref=_echo(typed)) if typed else NONE_YET)
        try:
            delivery = await self.ctx.client.get_delivery(link.delivery_id)
        except errors.NotFound:
            return await self._say(
                message, UNKNOWN.format(ref=_echo(typed) or short_ref(link.delivery_id))
            )
        except errors.PartnerError as error:
            log.info("status of %s not read: %r", link.delivery_id, error)
            return await self._say(message, _last_known(link, error))
        await self._say(message, describe(delivery, link))

    async def deliveries(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/deliveries``: the customer's own, newest first; every delivery in operator chats."""
        message = update.effective_message
        if message is not None and self.ctx.is_operator(message.chat_id):
            return await self.operators.deliveries(update, context)
        message, user_id = _private(update)
        if message is None or user_id is None:
            return await self._say_private_only(update)
        page = await self.page(user_id, 0)
        await self.ctx.sender.send_message(message.chat_id, page)

    async def cancel(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/cancel_delivery <id> <reason>``: cancel one of the customer's own deliveries."""
        message, user_id = _private(update)
        if message is None or user_id is None:
            return await self._say_private_only(update)
        _, typed, reason = [*(message.text or "").split(maxsplit=2), "", ""][:3]
        if not typed:
            return await self._say(message, CANCEL_USAGE)
        low, high = CANCEL_REASON_LENGTH
        if not low <= len(reason.strip()) <= high:
            return await self._say(
                message,
                f"Please give a reason of {low} to {high} characters "
                f"(yours has {len(reason.strip())}).\n\n{CANCEL_USAGE}",
            )
        link = await self._own(user_id, typed)
        if link is None:
            return await self._say(message, UNKNOWN.format(ref=_echo(typed)))
        ref = short_ref(link.delivery_id)
        try:
            await self.ctx.client.cancel_delivery(link.delivery_id, reason)
        except errors.CancelNotAllowed:
            return await self._say(message, _not_cancellable(ref, link.status))
        except errors.NotFound:
            return await self._say(message, UNKNOWN.format(ref=_echo(typed)))
        except errors.PartnerError as error:
            log.info("cancel of %s failed: %r", link.delivery_id, error)
            return await self._say(message, _customer_error(error))
        await self._say(message, f"Delivery {ref} is cancelled.")

    async def turn_page(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on a page button of a ``/deliveries`` list."""
        query = update.callback_query
        if query is None:
            return
        match = _PAGE_DATA.fullmatch(query.data or "")
        shown = query.message if isinstance(query.message, Message) else None
        if match is None or shown is None:
            await answer_tap(query, "This button no longer works. Send /deliveries again.")
            return
        owner, page = int(match[1]), int(match[2])
        if query.from_user.id != owner:
            await answer_tap(query, NOT_YOUR_LIST)
            return
        await answer_tap(query)
        drawn = await self.page(owner, page)
        edited = await self.ctx.sender.edit_message(shown.chat_id, shown.message_id, drawn)
        if not isinstance(edited, Delivered):  # too old to edit: draw it anew
            await self.ctx.sender.send_message(shown.chat_id, drawn)

    async def page(self, user_id: int, page: int) -> OutgoingMessage:
        """Page ``page`` (from 0, clamped to the last) of the user's deliveries."""
        total = await self.ctx.store.deliveries.count_for_user(user_id)
        if total == 0:
            return OutgoingMessage(escape(NONE_YET))
        pages = math.ceil(total / PAGE_SIZE)
        page = min(max(page, 0), pages - 1)
        links = await self.ctx.store.deliveries.for_user(user_id, PAGE_SIZE, page * PAGE_SIZE)
        title = (
            f"Your deliveries (page {page + 1} of {pages}):" if pages > 1 else "Your deliveries:"
        )
        lines = [escape(title), *(_list_line(link) for link in links)]
        example = short_ref(links[0].delivery_id)
        lines += ["", escape(f"Send /status {example} (or any reference above) for details.")]
        buttons = []
        if page > 0:
            buttons.append(_page_button(PREVIOUS_PAGE, user_id, page - 1))
        if page + 1 < pages:
            buttons.append(_page_button(NEXT_PAGE, user_id, page + 1))
        markup = InlineKeyboardMarkup([buttons]) if buttons else None
        return OutgoingMessage("\n".join(lines), markup)

    # --- lookups that only ever see the user's own deliveries ---------------------------------

    async def _own(self, user_id: int, typed: str) -> DeliveryLink | None:
        deliveries = self.ctx.store.deliveries
        if await deliveries.owned_by(typed, user_id):
            return await deliveries.get(typed)
        ref = typed.casefold()
        if len(ref) < _MIN_REF:
            return None
        newest = await deliveries.for_user(user_id, _REF_SEARCH)
        return next((d for d in newest if d.delivery_id.casefold().startswith(ref)), None)

    async def _latest(self, user_id: int) -> DeliveryLink | None:
        newest = await self.ctx.store.deliveries.for_user(user_id, 1)
        return newest[0] if newest else None

    async def _say(self, message: Message, text: str) -> None:
        await self.ctx.sender.send_message(message.chat_id, OutgoingMessage(escape(text)))

    async def _say_private_only(self, update: Update) -> None:
        message = update.effective_message
        if message is not None:
            await self._say(message, PRIVATE_ONLY)


def delivery_handlers(ctx: BotContext) -> list[Handler]:
    """The handlers of ``/status``, ``/deliveries``, ``/cancel_delivery`` and list paging."""
    commands = DeliveryCommands(ctx)
    return [
        CommandHandler("status", commands.status),
        CommandHandler("deliveries", commands.deliveries),
        CommandHandler("cancel_delivery", commands.cancel),
        CallbackQueryHandler(commands.turn_page, pattern=PATTERN),
    ]


def describe(delivery: Delivery, link: DeliveryLink) -> str:
    """A delivery for its customer, in plain words: status, rider, fee, route, tracking."""
    lines = [f"Delivery {short_ref(delivery.id)}", status_sentence(delivery)]
    rider = delivery.rider
    if rider is not None:
        vehicle = f" ({rider.vehicle_type})" if rider.vehicle_type else ""
        lines.append(f"Rider: {rider.name or 'assigned'}{vehicle}")
    payment = delivery.payment
    if payment is not None and payment.delivery_fee is not None:
        fee = format_money(payment.delivery_fee, payment.currency_code or "").strip()
        paid = payment.delivery_payment_status
        lines.append(f"Fee: {fee}" + (f" (payment {status_label(paid)})" if paid else ""))
    elif delivery.status == "awaiting_price":
        lines.append("Fee: not set yet")
    if delivery.pickup is not None and delivery.pickup.address:
        lines.append(f"From: {delivery.pickup.address}")
    if delivery.dropoff is not None and delivery.dropoff.address:
        lines.append(f"To: {delivery.dropoff.address}")
    tracking = delivery.tracking_url or link.tracking_url
    if tracking:
        lines.append(f"Track it here: {tracking}")
    return "\n".join(lines)


def _private(update: Update) -> tuple[Message | None, int | None]:
    """The message and its sender's id, when it was written in a private chat."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or message.chat.type != ChatType.PRIVATE:
        return None, None
    return message, user.id


def _echo(typed: str) -> str:
    """What the customer typed, short enough to repeat back."""
    return typed if len(typed) <= 40 else typed[:39] + "…"


def _list_line(link: DeliveryLink) -> str:
    ordered = datetime.fromtimestamp(link.created_at, UTC).strftime("%d %b %Y")
    ref = f"<code>{escape(short_ref(link.delivery_id))}</code>"
    return f"• {ref}: {escape(status_label(link.status))}, ordered {ordered}"


def _page_button(label: str, user_id: int, page: int) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=f"dl1:p:{user_id}:{page}")


def _not_cancellable(ref: str, status: str) -> str:
    if status == "cancelled":
        return f"Delivery {ref} is already cancelled."
    if status == "delivered":
        return f"Delivery {ref} was delivered, so it can no longer be cancelled."
    return f"Delivery {ref} can no longer be cancelled: the rider already has the package."


def _customer_error(error: errors.PartnerError) -> str:
    if isinstance(error, errors.RateLimited):
        return BUSY
    if isinstance(error, errors.ValidationError):
        return f"The delivery service did not accept that: {error.message}"
    return UNREACHABLE


def _last_known(link: DeliveryLink, error: errors.PartnerError) -> str:
    """What the chat was last told, when the service cannot be asked now."""
    lines = [
        f"Delivery {short_ref(link.delivery_id)}",
        f"Last known status: {status_label(link.status)}.",
    ]
    if link.tracking_url:
        lines.append(f"Track it here: {link.tracking_url}")
    lines += ["", _customer_error(error)]
    return "\n".join(lines)
