"""The demo's own commands: lines starting with ``:`` play the business, its riders and the
service around the customer's chat, through the sandbox's Python admin methods (what staff and
riders do in the real product) and the bot's Partner client (what an operator's tools call).

Each command acts on the customer's latest delivery unless a delivery is named (its id, or
the short reference the chats show). A command that cannot move a delivery on says what would.
Statuses and amounts are said in the business's default language (``DemoBot.catalogue``).
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.chat_ref import CONSOLE, UserRef
from bot.console.console_render import said
from bot.demo.demo_bot import OPERATOR_CHAT, DemoChannel
from bot.demo.demo_errors import DemoError
from bot.demo.demo_world import DemoWorld
from bot.demo.gazetteer import PLACES
from bot.demo.next_moves import next_moves
from bot.handoff.bodies import text_body
from bot.handoff.desk import Filled
from bot.partner.errors import PartnerError
from bot.partner.models import Delivery
from bot.sandbox import ApiError
from conversations import LocationAnswer
from conversations.rules import format_money
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

DEMO = "demo"
ADVANCING = ("matched", "picked_up", "in_transit")  # what a rider can move on
RIDE_MINUTES = 5
"""The demo's minutes from one milestone of ``:advance`` to the next: its time moves on this
much before the sandbox puts the rider at the next one, so the fix reported there is a ride
from the last (up to 10 km at the fastest the tracking takes for a rider,
``bot.tracking.fixes.MAX_PLAUSIBLE_KMH``), not a GPS jump it would hold back."""
# The sandbox's rider waits for what the business's settings ask first; the command that gives it.
RIDER_WAITS = {
    "fee_not_paid": (
        "the business takes the fee before dispatch, so the rider sets off once it is paid: "
        ":paid marks it paid, then :advance"
    ),
    "otp_not_issued": (
        "the rider hands it over only for the drop-off code, which is issued when the fee is "
        "paid: :paid marks it paid, then :advance"
    ),
}


class CommandProblem(DemoError):
    """A command that cannot run as typed; the message says how to type it."""


@dataclass(frozen=True)
class Command:
    usage: str
    help: str
    run: Callable[[DemoWorld, list[str]], Awaitable[None]]


def _say(stack: DemoWorld, text: str) -> None:
    stack.screen.write(said(text, DEMO))


async def _delivery_id(stack: DemoWorld, args: list[str], position: int = 0) -> str:
    """The delivery named at ``position`` (its full id, or the short reference the chats
    show), else the customer's latest."""
    if len(args) > position:
        return await stack.delivery_id_for(args[position])
    latest = await stack.last_delivery_id()
    if latest is None:
        raise CommandProblem("there is no delivery yet: finish an order first")
    return latest


# --- the business's staff and riders (sandbox admin) --------------------------------------------


async def paid(stack: DemoWorld, args: list[str]) -> None:
    delivery_id = await _delivery_id(stack, args)
    stack.sandbox.mark_paid(delivery_id)
    _say(stack, f"staff marked the fee of {short_ref(delivery_id)} as paid")


async def fee(stack: DemoWorld, args: list[str]) -> None:
    if not args:
        raise CommandProblem("type the fee, e.g. :fee 2500")
    try:
        amount = float(args[0].replace(",", ""))
    except ValueError:
        raise CommandProblem("the fee must be a number, e.g. :fee 2500") from None
    delivery_id = await _delivery_id(stack, args, 1)
    view = stack.sandbox.set_fee(delivery_id, amount)
    currency = (view.get("payment") or {}).get("currency_code") or ""
    money = format_money(stack.bot.catalogue, amount, currency)
    _say(stack, f"staff set the fee of {short_ref(delivery_id)} to {money}")


async def advance(stack: DemoWorld, args: list[str]) -> None:
    delivery_id = await _delivery_id(stack, args)
    delivery = await stack.bot.client.get_delivery(delivery_id)
    if delivery.status not in ADVANCING:
        # Nothing for a rider to move on: say what would (a fee, a rider), not "no further".
        raise CommandProblem(await next_moves(stack.bot.catalogue, stack.bot.client, delivery))
    stack.ride(RIDE_MINUTES * 60)
    try:
        view = stack.sandbox.advance_status(delivery_id)
    except ApiError as refused:
        waiting = RIDER_WAITS.get(refused.code)
        if waiting is None:
            raise
        raise CommandProblem(f"{short_ref(delivery_id)}: {waiting}") from refused
    _say(
        stack,
        f"the rider moved {short_ref(delivery_id)} to "
        f"{status_label(stack.bot.catalogue, str(view['status']))} ({RIDE_MINUTES} min on)",
    )


async def link(stack: DemoWorld, args: list[str]) -> None:
    delivery_id = await _delivery_id(stack, args)
    handoff = await stack.bot.store.otp.get(delivery_id)
    ref = short_ref(delivery_id)
    if handoff is None:
        sent = stack.bot.customer.link_sent(ref)
        if sent is None:
            raise CommandProblem(f"{ref} has no drop-off code link yet (:paid issues the code)")
        # Its hand-off ended with the delivery: the link is said, and opening it says so.
        _say(stack, f"{ref} is finished: its link no longer gives the code ({sent})")
        return
    _say(stack, f"the receiver opens the link: {stack.bot.customer.otp_link(handoff.token)}")
    await stack.bot.customer.open_link(handoff)


async def places(stack: DemoWorld, args: list[str]) -> None:
    lines = ["addresses the demo's offline geocoder knows (type one, or part of one):"]
    lines += [f"  {place.name}" for place in PLACES]
    lines.append("anywhere else: share a pin, e.g. location 6.5095 3.3711 Ozone Cinema, Yaba")
    _say(stack, "\n".join(lines))


async def otp(stack: DemoWorld, args: list[str]) -> None:
    delivery_id = await _delivery_id(stack, args)
    code = stack.sandbox.otp_code(delivery_id)
    _say(stack, f"the sandbox's drop-off code for {short_ref(delivery_id)}: {code or 'none yet'}")


async def fault(stack: DemoWorld, args: list[str]) -> None:
    if len(args) < 2:
        raise CommandProblem("type it like :fault create_delivery status count=4 status=503")
    operation, kind, *rest = args
    options: dict[str, Any] = {}
    for item in rest:
        name, _, value = item.partition("=")
        try:
            if name in ("count", "status"):
                options[name] = int(value)
            elif name == "latency":
                options["latency_seconds"] = float(value)
            elif name in ("code", "when"):
                options[name] = value
            else:
                raise CommandProblem(
                    f"unknown fault option {name!r}: count, status, code, latency, when"
                )
        except ValueError:
            raise CommandProblem(f"{name} must be a number") from None
    count = options.pop("count", 1)
    stack.sandbox.inject_fault(operation, kind, count, **options)
    _say(stack, f"the sandbox will answer the next {count} {operation} call(s) with a {kind} fault")


# --- what an operator's tools ask the Partner API -----------------------------------------------


def describe(catalogue: Catalogue, delivery: Delivery) -> str:
    """One line about ``delivery`` as an operator's tools show it, its status and fee said
    from ``catalogue``."""
    parts = [f"{short_ref(delivery.id)}: {status_label(catalogue, delivery.status)}"]
    payment = delivery.payment
    if payment is not None and payment.delivery_fee is not None:
        money = format_money(catalogue, payment.delivery_fee, payment.currency_code or "")
        parts.append(f"fee {money} ({payment.delivery_payment_status or 'unpaid'})")
    if delivery.rider is not None:
        vehicle = f" ({delivery.rider.vehicle_type})" if delivery.rider.vehicle_type else ""
        parts.append(f"rider {delivery.rider.name or delivery.rider.id}{vehicle}")
    if delivery.tracking_url:
        parts.append(f"tracking {delivery.tracking_url}")
    return " · ".join(parts)


async def status(stack: DemoWorld, args: list[str]) -> None:
    delivery = await stack.bot.client.get_delivery(await _delivery_id(stack, args))
    _say(stack, describe(stack.bot.catalogue, delivery))


async def riders(stack: DemoWorld, args: list[str]) -> None:
    delivery = await stack.bot.client.get_delivery(await _delivery_id(stack, args))
    pickup = delivery.pickup
    lat = pickup.latitude if pickup is not None else None
    lng = pickup.longitude if pickup is not None else None
    if lat is None or lng is None:
        lat = lng = None  # the pickup pin goes with both coordinates or not at all
    lines = [f"riders for {short_ref(delivery.id)}, nearest first (:assign <id> to dispatch):"]
    found = await stack.bot.client.list_riders(pickup_lat=lat, pickup_lng=lng)
    for rider in found:
        distance = f"{rider.distance_km:.1f} km" if rider.distance_km is not None else "? km"
        fresh = "fresh GPS" if rider.location and rider.location.fresh else "no fresh GPS"
        lines.append(
            f"  {rider.id}: {rider.name} ({rider.vehicle_type or '-'}), "
            f"{status_label(stack.bot.catalogue, rider.presence)}, {distance}, {fresh}"
        )
    _say(stack, "\n".join(lines))


async def assign(stack: DemoWorld, args: list[str]) -> None:
    if not args:
        raise CommandProblem("type the rider's id, e.g. :assign rdr_tunde (see :riders)")
    delivery_id = await _delivery_id(stack, args, 1)
    delivery = await stack.bot.client.assign_rider(delivery_id, args[0])
    _say(stack, f"assigned: {describe(stack.bot.catalogue, delivery)}")


# --- the demo itself ------------------------------------------------------------------------------


async def restart(stack: DemoWorld, args: list[str]) -> None:
    await stack.restart()


async def wait(stack: DemoWorld, args: list[str]) -> None:
    # A line every few seconds of demo time, never silent.
    with stack.bot.waits.shown(stack.bot.catalogue):
        await stack.bot.chats.settle()
        await stack.bot.follow_up.settle()


async def later(stack: DemoWorld, args: list[str]) -> None:
    try:
        hours = float(args[0]) if args else 25.0
    except ValueError:
        raise CommandProblem("type the hours, e.g. :later 25") from None
    if not 0 < hours <= 24 * 365:
        raise CommandProblem("the hours go from a few minutes (0.1) to a year (8760)")
    if not stack.later(hours * 3600):
        raise CommandProblem(
            "only the WhatsApp demo moves time on (--channel whatsapp): the console has no "
            "customer-service window"
        )
    passed = f"{hours:g} hour{'' if hours == 1 else 's'} pass"
    if hours >= 24:
        passed += (
            ": the customer's 24-hour window is closed, so news goes as the approved template "
            "until they write again"
        )
    _say(stack, passed)


async def show_help(stack: DemoWorld, args: list[str]) -> None:
    width = max(len(command.usage) for command in COMMANDS.values())
    lines = ["demo commands (the customer's answers need no colon):"]
    lines += [f"  {c.usage.ljust(width)}  {c.help}" for c in COMMANDS.values()]
    lines += CUSTOMER_HELP[stack.options.channel]
    _say(stack, "\n".join(lines))


async def quit_demo(stack: DemoWorld, args: list[str]) -> None:
    stack.quit = True
    _say(stack, "bye")


async def staff(stack: DemoWorld, args: list[str]) -> None:
    """The business's staff on the customer's waiting hand-off: take it, say something, fill
    the place question with a pin, or close it."""
    desk = stack.bot.handoffs
    handoff = await desk.waiting_for(stack.bot.customer.chat)
    if handoff is None:
        raise CommandProblem("no hand-off is waiting: the customer types human first")
    action, rest = (args[0].casefold(), args[1:]) if args else ("", [])
    operator = UserRef(CONSOLE, OPERATOR_CHAT)
    if action == "take":
        taken = await desk.take(handoff.ref, operator, "Demo staff")
        if taken is not None and not taken.owner:
            _say(stack, f"{taken.handoff.owner_name} has it already")
    elif action == "say" and rest:
        await desk.reply(handoff, text_body(" ".join(rest)), signer="Demo staff", by=operator)
    elif action == "place" and len(rest) == 2:
        try:
            pin = LocationAnswer(lat=float(rest[0]), lng=float(rest[1]))
        except ValueError as error:
            raise CommandProblem("usage: :staff place <lat> <lng>") from error
        if not await desk.takes_place(handoff):
            raise CommandProblem("the order is not at a place question")
        filled = await desk.fill(handoff, pin, by=operator)
        _say(
            stack,
            f"filled {filled.question}"
            if isinstance(filled, Filled)
            else f"refused for {filled.question}: {filled.reason}",
        )
    elif action == "done":
        await desk.close(handoff.ref, by=operator)
    else:
        raise CommandProblem("usage: :staff take|say <text>|place <lat> <lng>|done")


CUSTOMER_HELP: dict[DemoChannel, list[str]] = {
    "console": [
        "as the customer, about the deliveries you ordered (no colon), as in Telegram:",
        "  status [ref] · deliveries [page] · cancel_delivery <ref> <reason>",
        "  /start otp_<token> (a drop-off code link, or :link), then contact <receiver's phone>",
        ":later is the WhatsApp demo's only (the console has no 24-hour window)",
    ],
    "whatsapp": [
        "as the WhatsApp customer (no colon): a choice's number or title taps it; say <words>",
        "  sends words as they are; location <lat> <lng> [name] or lat,lng shares a pin;",
        "  contact <phone> [name] shares a contact; photo [file] sends a photo (a sample);",
        "  new · menu · status [ref] · deliveries · cancel_delivery <ref> <reason> · human",
        ":link: the receiver sends the wa.me link's words from their own WhatsApp number",
    ],
}

COMMANDS: dict[str, Command] = {
    "paid": Command(":paid [id]", "staff mark the fee paid (the drop-off code is issued)", paid),
    "advance": Command(
        ":advance [id]",
        f"the rider rides {RIDE_MINUTES} min and moves it on: picked up (a fee due before "
        "dispatch paid first), in transit, delivered (its drop-off code issued first, when it "
        "needs one); the customer sees the rider's pin move",
        advance,
    ),
    "fee": Command(":fee <amount> [id]", "staff set the fee (an order awaiting a price)", fee),
    "status": Command(":status [id]", "the delivery as GET /deliveries/{id} shows it", status),
    "riders": Command(":riders [id]", "the fleet, nearest to the pickup first", riders),
    "assign": Command(":assign <rider> [id]", "dispatch a rider (as an operator)", assign),
    "otp": Command(":otp [id]", "the drop-off code, as the sandbox's staff see it", otp),
    "link": Command(
        ":link [id]", "open the drop-off code link printed for it, as its receiver would", link
    ),
    "places": Command(":places", "the addresses typed addresses are looked up in", places),
    "fault": Command(
        ":fault <operation> <kind> [count=N status=S code=C when=after]",
        "make the sandbox fail the next calls (e.g. create_delivery status status=503 count=4)",
        fault,
    ),
    "restart": Command(":restart", "restart the bot mid-conversation (the sandbox stays)", restart),
    "wait": Command(
        ":wait",
        "wait for what the bot finishes by itself: a create re-sent after a rate limit, "
        "an order whose answer was lost",
        wait,
    ),
    "staff": Command(
        ":staff take|say <text>|place <lat> <lng>|done",
        "play the staff answering the customer's hand-off (after they type human)",
        staff,
    ),
    "later": Command(
        ":later [hours]",
        "time passes (25 h by default): WhatsApp's 24-hour window closes (WhatsApp only)",
        later,
    ),
    "help": Command(":help", "this list", show_help),
    "quit": Command(":quit", "leave the demo", quit_demo),
}


async def run_command(stack: DemoWorld, line: str) -> None:
    """Run one ``:command`` line; problems and refusals are shown, never raised."""
    try:
        name, *args = shlex.split(line.removeprefix(":"))
    except ValueError:
        name, args = "", []
    command = COMMANDS.get(name.casefold())
    if command is None:
        _say(stack, f"unknown command :{name}; :help lists them")
        return
    try:
        await command.run(stack, args)
    except CommandProblem as problem:
        _say(stack, str(problem))
    except ApiError as error:
        _say(stack, f"the sandbox refused: {error.code}: {error.message}")
    except PartnerError as error:
        _say(stack, f"the Partner API refused: {error}")
