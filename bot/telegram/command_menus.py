"""The command menus Telegram shows: customers' by default, operators' in their own chats.

``register_commands`` sends them with ``set_my_commands``: the customer menu in the default
scope, and for each operator chat (``BotCommandScopeChat``) the operator commands added. A flow
that declares a ``command`` (``/return``) is in both private menus, after the ordering commands
(``flow_commands``). An operator's group gets only the delivery and dispatch commands: orders
are taken in private chats, where a customer's details are not shown to a whole group.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from telegram import Bot, BotCommand, BotCommandScopeChat, BotCommandScopeDefault
from telegram.error import TelegramError

from conversations.flow import FlowRegistry

log = logging.getLogger(__name__)

ORDERING_COMMANDS: Final = (
    BotCommand("start", "Start an order, or continue yours"),
    BotCommand("new", "Start a new order"),
    BotCommand("repeat", "Order your last delivery again"),
    BotCommand("cancel", "Stop the order you are filling in"),
    BotCommand("back", "Go back to the previous question"),
    BotCommand("help", "What I can do, and the commands"),
)
DELIVERY_COMMANDS: Final = (
    BotCommand("status", "Status of a delivery: /status [id]"),
    BotCommand("deliveries", "Your deliveries"),
    BotCommand("cancel_delivery", "Cancel a delivery: /cancel_delivery <id> <reason>"),
)
DISPATCH_COMMANDS: Final = (
    BotCommand("riders", "Riders near a delivery: /riders <id> [radius km]"),
    BotCommand("assign", "Assign a rider: /assign <delivery ref> <rider id>"),
    BotCommand("unassign", "Take the rider off: /unassign <delivery ref>"),
)

CUSTOMER_COMMANDS: Final = ORDERING_COMMANDS + DELIVERY_COMMANDS
OPERATOR_COMMANDS: Final = CUSTOMER_COMMANDS + DISPATCH_COMMANDS
# An operators' group: no ordering there (see the module docstring).
OPERATOR_GROUP_COMMANDS: Final = DELIVERY_COMMANDS + DISPATCH_COMMANDS


RESERVED: Final = frozenset(command.command for command in OPERATOR_COMMANDS) | {"skip", "done"}
"""Commands the bot answers itself, which no flow may take (``/skip`` and ``/done`` answer a
question)."""


def flow_commands(registry: FlowRegistry) -> tuple[BotCommand, ...]:
    """A menu entry for every flow that declares a command, named as the entry menu names it.

    Raises ``ValueError`` naming the flow when its command is one the bot already answers.
    """
    taken = [flow.name for flow in registry.with_commands if flow.command in RESERVED]
    if taken:
        raise ValueError(f"flow {taken[0]!r}: its command is one of the bot's own commands")
    return tuple(
        BotCommand(flow.command, flow.menu_label)
        for flow in registry.with_commands
        if flow.command is not None
    )


def customer_menu(flows: tuple[BotCommand, ...] = ()) -> tuple[BotCommand, ...]:
    """The customer menu, with the flows' own commands after the ordering ones."""
    return ORDERING_COMMANDS + flows + DELIVERY_COMMANDS


def commands_for(chat_id: int, flows: tuple[BotCommand, ...] = ()) -> tuple[BotCommand, ...]:
    """The menu of an operator chat: a private chat (positive id) or a group (negative id)."""
    if chat_id > 0:
        return customer_menu(flows) + DISPATCH_COMMANDS
    return OPERATOR_GROUP_COMMANDS


async def register_commands(
    bot: Bot, operators: Iterable[int], flows: tuple[BotCommand, ...] = ()
) -> None:
    """Set the customer menu and each operator chat's menu; ``flows`` from ``flow_commands``.

    A menu Telegram refuses (the bot is not in that group yet) is logged and skipped: the
    commands still work there, only the menu is missing.
    """
    await bot.set_my_commands(customer_menu(flows), scope=BotCommandScopeDefault())
    for chat_id in operators:
        try:
            menu = commands_for(chat_id, flows)
            await bot.set_my_commands(menu, scope=BotCommandScopeChat(chat_id))
        except TelegramError as error:
            log.warning(
                "operator chat %s: command menu not set (%s); has the bot been added there?",
                chat_id,
                type(error).__name__,
            )
