"""Operator commands: dispatching riders and watching every delivery, from operator chats only.

=======================================  ==========================================================
``/riders <id> [idle] [radius <km>]``    the fleet around the delivery's pickup, closest first
``/assign <id> <rider id>``              give the delivery to a rider
``/unassign <id>``                       take the rider off again (only while ``matched``)
``/deliveries [status]``                 every delivery, newest first, paged (via ``deliveries``)
=======================================  ==========================================================

Only the chats listed in ``[operators]`` are answered; anyone else gets a polite refusal and
nothing more: no Partner API call is made, so not even whether an id exists leaks. Every
refusal of the Partner API is said in plain words (``explain``).

The API pages deliveries with forward-only cursors, so the list offers "Next ›" and "« First"
(``op1:<status>:<page>:<cursor>`` on the button; nothing to remember, a restart changes nothing).
"""

from __future__ import annotations

import logging
import re
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.partner import errors
from bot.partner.models import DELIVERY_STATUSES, Delivery, Rider
from bot.relay.wording import short_ref, status_label
from bot.telegram.context import BotContext
from bot.telegram.render import NEXT_PAGE, OutgoingMessage
from bot.telegram.sender import Delivered
from bot.telegram.text import escape, split
from conversations.rules import format_money

log = logging.getLogger(__name__)

Handler = BaseHandler[Update, ContextTypes.DEFAULT_TYPE, None]

LIST_PAGE_SIZE: Final = 10
PATTERN: Final = re.compile(r"^op1:")
_LIST_DATA: Final = re.compile(r"op1:(\d):(\d{1,5}):([A-Za-z0-9_-]{0,48})")
FIRST_PAGE: Final = "« First"

REFUSED = "Sorry, that command is only for the team's operators."
RIDERS_USAGE = "Usage: /riders <delivery id> [idle] [radius <km>]"
ASSIGN_USAGE = "Usage: /assign <delivery id> <rider id>  (/riders <delivery id> lists riders)"
UNASSIGN_USAGE = "Usage: /unassign <delivery id>"
STATUS_WORDS = ", ".join(DELIVERY_STATUSES)


class OperatorCommands:
    """The operator commands over one ``BotContext``; ``operator_handlers`` registers them."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def riders(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/riders <id> [idle] [radius <km>]``."""
        message = await self._operator_message(update)
        if message is None:
            return
        args = context.args or []
        parsed = _rider_filters(args[1:]) if args else None
        if parsed is None:
            return await self._say(message, RIDERS_USAGE)
        idle, radius = parsed
        delivery_id = args[0]
        try:
            delivery = await self.ctx.client.get_delivery(delivery_id)
            pickup = delivery.pickup
            lat, lng = (pickup.latitude, pickup.longitude) if pickup else (None, None)
            if radius is not None and (lat is None or lng is None):
                return await self._say(
                    message, "This delivery has no pickup coordinates, so there is no radius."
                )
            found = await self.ctx.client.list_riders(
                pickup_lat=lat, pickup_lng=lng, radius_km=radius, idle_only=idle
            )
        except errors.PartnerError as error:
            return await self._say(message, explain(error, delivery_id=delivery_id))
        await self._say_html(message, riders_text(delivery, found, idle=idle, radius=radius))

    async def assign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/assign <id> <rider id>``."""
        message = await self._operator_message(update)
        if message is None:
            return
        args = context.args or []
        if len(args) != 2:
            return await self._say(message, ASSIGN_USAGE)
        delivery_id, rider_id = args
        try:
            delivery = await self.ctx.client.assign_rider(delivery_id, rider_id)
        except errors.PartnerError as error:
            return await self._say(message, explain(error, delivery_id, rider_id))
        rider = delivery.rider
        name = (rider.name if rider else None) or rider_id
        await self._say(
            message,
            f"{name} is assigned to delivery {short_ref(delivery.id)}; "
            f"it is now {status_label(delivery.status)}.",
        )

    async def unassign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/unassign <id>``."""
        message = await self._operator_message(update)
        if message is None:
            return
        args = context.args or []
        if len(args) != 1:
            return await self._say(message, UNASSIGN_USAGE)
        try:
            delivery = await self.ctx.client.unassign_rider(args[0])
        except errors.PartnerError as error:
            return await self._say(message, explain(error, delivery_id=args[0]))
        await self._say(
            message,
            f"The rider was taken off delivery {short_ref(delivery.id)}; "
            f"it is {status_label(delivery.status)} again.",
        )

    async def deliveries(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/deliveries [status]`` in an operator chat: every delivery, newest first."""
        message = await self._operator_message(update)
        if message is None:
            return
        args = context.args or []
        wanted = args[0].casefold() if args else None
        if len(args) > 1 or (wanted is not None and wanted not in DELIVERY_STATUSES):
            return await self._say(message, f"Usage: /deliveries [status], one of: {STATUS_WORDS}")
        status = 0 if wanted is None else DELIVERY_STATUSES.index(wanted) + 1
        drawn = await self.list_page(status, 0, None)
        await self.ctx.sender.send_message(message.chat_id, drawn)

    async def turn_page(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A tap on "Next ›" / "« First" under an operator list."""
        query = update.callback_query
        if query is None:
            return
        shown = query.message if isinstance(query.message, Message) else None
        if shown is None or not self.ctx.is_operator(shown.chat_id):
            await query.answer(REFUSED)
            return
        match = _LIST_DATA.fullmatch(query.data or "")
        if match is None or int(match[1]) > len(DELIVERY_STATUSES):
            await query.answer("This button no longer works. Send /deliveries again.")
            return
        await query.answer()
        drawn = await self.list_page(int(match[1]), int(match[2]), match[3] or None)
        edited = await self.ctx.sender.edit_message(shown.chat_id, shown.message_id, drawn)
        if not isinstance(edited, Delivered):
            await self.ctx.sender.send_message(shown.chat_id, drawn)

    async def list_page(self, status: int, page: int, cursor: str | None) -> OutgoingMessage:
        """One page of every delivery (``status`` 0: any, else ``DELIVERY_STATUSES[status-1]``)."""
        wanted = DELIVERY_STATUSES[status - 1] if status else None
        try:
            found = await self.ctx.client.list_deliveries(
                limit=LIST_PAGE_SIZE, status=wanted, cursor=cursor
            )
        except errors.PartnerError as error:
            return OutgoingMessage(escape(explain(error)))
        which = f"{status_label(wanted).capitalize()} deliveries" if wanted else "All deliveries"
        if not found.deliveries:
            empty = "none" if page == 0 else "no more"
            return OutgoingMessage(escape(f"{which}: {empty}."))
        lines = [escape(f"{which}, newest first (page {page + 1}):")]
        lines += [_delivery_line(delivery) for delivery in found.deliveries]
        buttons = []
        if page > 0:
            buttons.append(InlineKeyboardButton(FIRST_PAGE, callback_data=f"op1:{status}:0:"))
        data = f"op1:{status}:{page + 1}:{found.next_cursor}"
        if found.next_cursor and _LIST_DATA.fullmatch(data):
            buttons.append(InlineKeyboardButton(NEXT_PAGE, callback_data=data))
        elif found.next_cursor:  # a cursor too long for a button: say there is more
            lines.append(escape("More deliveries exist; filter by status to see them."))
        return OutgoingMessage(
            "\n".join(lines), InlineKeyboardMarkup([buttons]) if buttons else None
        )

    async def _operator_message(self, update: Update) -> Message | None:
        """The command's message when it came from an operator chat; a refusal otherwise."""
        message = update.effective_message
        if message is None:
            return None
        if self.ctx.is_operator(message.chat_id):
            return message
        await self._say(message, REFUSED)
        return None

    async def _say(self, message: Message, text: str) -> None:
        await self._say_html(message, escape(text))

    async def _say_html(self, message: Message, html: str) -> None:
        # Pieces are cut at line ends, and no tag here spans a line.
        pieces = [OutgoingMessage(piece) for piece in split(html)]
        await self.ctx.sender.send_messages(message.chat_id, pieces)


def operator_handlers(ctx: BotContext) -> list[Handler]:
    """The handlers of ``/riders``, ``/assign``, ``/unassign`` and the operator list's pages.

    ``/deliveries`` itself is registered by ``delivery_handlers``, which hands operator chats
    over to ``OperatorCommands.deliveries``.
    """
    commands = OperatorCommands(ctx)
    return [
        CommandHandler("riders", commands.riders),
        CommandHandler("assign", commands.assign),
        CommandHandler("unassign", commands.unassign),
        CallbackQueryHandler(commands.turn_page, pattern=PATTERN),
    ]


def riders_text(
    delivery: Delivery, riders: list[Rider], *, idle: bool, radius: float | None
) -> str:
    """The rider list as HTML, in the API's order (closest first, presence as tiebreak)."""
    filters = [part for part in ("idle only" if idle else "", _within(radius)) if part]
    pickup = delivery.pickup.address if delivery.pickup and delivery.pickup.address else None
    title = f"Riders for delivery {short_ref(delivery.id)}"
    title += f" (pickup: {pickup})" if pickup else ""
    title += f", {', '.join(filters)}" if filters else ""
    if not riders:
        return escape(f"{title}: none match.")
    lines = [escape(f"{title}:")]
    for number, rider in enumerate(riders, 1):
        vehicle = f" ({rider.vehicle_type})" if rider.vehicle_type else ""
        lines.append(
            f"{number}. {escape((rider.name or 'Unnamed rider') + vehicle)}"
            f" · <code>{escape(rider.id)}</code>"
        )
        lines.append(escape(f"    {_rider_facts(rider)}"))
    lines.append(escape(f"Assign with /assign {delivery.id} <rider id>"))
    return "\n".join(lines)


def explain(
    error: errors.PartnerError, delivery_id: str | None = None, rider_id: str | None = None
) -> str:
    """A Partner API refusal in plain words, for operators."""
    ref = f"Delivery {short_ref(delivery_id)}" if delivery_id else "The delivery"
    rider = f"rider {rider_id}" if rider_id else "that rider"
    if isinstance(error, errors.FeeRequired):
        return f"{ref} has no delivery fee yet (it is awaiting a price). Set the fee first."
    if isinstance(error, errors.RiderNotFound):
        return f"There is no {rider} on this fleet. /riders <delivery id> lists the riders."
    if isinstance(error, errors.RiderNotActive):
        return f"The {rider} has not accepted the fleet invite yet, so cannot be assigned."
    if isinstance(error, errors.AssignNotAllowed):
        return f"The pickup of {ref.lower()} has started, so its rider can no longer change."
    if isinstance(error, errors.UnassignNotAllowed):
        return (
            f"{ref} has no rider to take off: a rider can only be unassigned while the "
            "delivery is matched (assigned, not picked up yet)."
        )
    if isinstance(error, errors.CancelNotAllowed):
        return f"{ref} can no longer be cancelled."
    if isinstance(error, errors.NotFound):
        return f"There is no delivery {_echo(delivery_id)}." if delivery_id else "No such delivery."
    return _general(error)


def _general(error: errors.PartnerError) -> str:
    if isinstance(error, errors.RateLimited):
        wait = f" in {error.retry_after:.0f} seconds" if error.retry_after else " in a minute"
        return f"The Partner API asks the bot to slow down; try again{wait}."
    if isinstance(error, errors.ValidationError):
        problems = [f"{field} {'; '.join(texts)}" for field, texts in error.field_errors.items()]
        return "Not accepted: " + ("; ".join(problems) if problems else error.message)
    if isinstance(error, errors.AuthenticationError | errors.ForbiddenError):
        return f"The Partner API refused the bot's key ({error.code or error.status}): check it."
    if isinstance(error, errors.ServerError | errors.TransportError):
        return f"The Partner API failed ({error.code or error.message}); try again shortly."
    return f"The Partner API refused: {error.message}"


def _echo(typed: str) -> str:
    return typed if len(typed) <= 60 else typed[:59] + "…"


def _rider_filters(words: list[str]) -> tuple[bool, float | None] | None:
    """``[idle] [radius <km>]`` in any order, or None when something else was typed."""
    idle, radius = False, None
    rest = [word.casefold() for word in words]
    while rest:
        word = rest.pop(0)
        if word in ("idle", "idle_only") and not idle:
            idle = True
        elif word == "radius" and radius is None and rest:
            try:
                radius = float(rest.pop(0).removesuffix("km"))
            except ValueError:
                return None
            if rest and rest[0] == "km":
                rest.pop(0)
        else:
            return None
    return idle, radius


def _rider_facts(rider: Rider) -> str:
    distance = f"{rider.distance_km:.1f} km away" if rider.distance_km is not None else None
    if rider.location is None:
        located = "no location"
    else:
        located = "fresh location" if rider.location.fresh else "stale location"
    count = rider.active_delivery_count
    active = f"{count} active deliver{'y' if count == 1 else 'ies'}"
    facts = [status_label(str(rider.presence)), distance or "distance unknown", located, active]
    return " · ".join(facts)


def _within(radius: float | None) -> str:
    return "" if radius is None else f"within {radius:g} km"


def _delivery_line(delivery: Delivery) -> str:
    facts = [status_label(delivery.status)]
    payment = delivery.payment
    if payment is not None and payment.delivery_fee is not None:
        facts.append(format_money(payment.delivery_fee, payment.currency_code or "").strip())
    rider = delivery.rider
    facts.append(f"rider {rider.name or rider.id}" if rider else "no rider")
    if delivery.dropoff is not None and delivery.dropoff.address:
        facts.append(f"to {delivery.dropoff.address}")
    return f"• <code>{escape(delivery.id)}</code>\n    {escape(' · '.join(facts))}"
