"""``/riders <id> [idle] [radius <km>]``: the fleet around a delivery's pickup, closest first."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.partner import errors
from bot.partner.models import Delivery, Rider
from bot.staff.dispatching import Dispatcher
from bot.staff.partner_refusals import explain
from bot.staff.rider_facts import rider_facts, rider_title
from bot.telegram.bot_context import BotContext
from bot.telegram.operators.operator_chat import OperatorChat
from bot.telegram.text import escape
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref


class RidersView(OperatorChat):
    """The rider list of one delivery, with presence, distance and location freshness."""

    def __init__(self, ctx: BotContext) -> None:
        super().__init__(ctx)
        self.dispatcher = Dispatcher(ctx.client, ctx.store.audit)

    async def riders(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/riders <id> [idle] [radius <km>]``."""
        message = await self.operator_message(update)
        if message is None:
            return
        words = self.catalogue(update)
        args = context.args or []
        parsed = rider_filters(args[1:]) if args else None
        if parsed is None:
            return await self.say(message, words.say("ops.riders_usage"))
        idle, radius = parsed
        delivery_id = await self.delivery_named(words, message, args[0])
        if delivery_id is None:
            return None
        try:
            delivery = await self.ctx.client.get_delivery(delivery_id)
            pickup = delivery.pickup
            placed = pickup is not None and None not in (pickup.latitude, pickup.longitude)
            if radius is not None and not placed:
                return await self.say(message, words.say("ops.no_pickup_coords"))
            found = await self.dispatcher.riders_around(delivery, idle=idle, radius=radius)
        except errors.PartnerError as error:
            return await self.say(message, explain(words, error, delivery_id=delivery_id))
        text = riders_text(words, delivery, found, idle=idle, radius=radius)
        await self.say_html(message, text)


def riders_text(
    words: Catalogue, delivery: Delivery, riders: list[Rider], *, idle: bool, radius: float | None
) -> str:
    """The rider list as HTML in ``words``, in the API's order (closest first, presence as
    tiebreak)."""
    filtered = (words.say("ops.idle_only") if idle else "", _within(words, radius))
    filters = [part for part in filtered if part]
    pickup = delivery.pickup.address if delivery.pickup and delivery.pickup.address else None
    ref = short_ref(delivery.id)
    if pickup:
        title = words.say("ops.riders_title_pickup", ref=ref, pickup=pickup)
    else:
        title = words.say("ops.riders_title", ref=ref)
    title += f", {', '.join(filters)}" if filters else ""
    if not riders:
        return escape(words.say("ops.none_match", title=title))
    lines = [escape(words.say("ops.listed", title=title))]
    for number, rider in enumerate(riders, 1):
        lines.append(
            f"{number}. {escape(rider_title(words, rider))} · <code>{escape(rider.id)}</code>"
        )
        lines.append(escape(f"    {rider_facts(words, rider)}"))
    lines.append(escape(words.say("ops.assign_with", ref=short_ref(delivery.id))))
    return "\n".join(lines)


def rider_filters(words: list[str]) -> tuple[bool, float | None] | None:
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


def _within(words: Catalogue, radius: float | None) -> str:
    return "" if radius is None else words.say("ops.within", km=words.number(radius))
