"""The command menus Telegram shows: customers' by default, operators' in their own chats.

``register_commands`` sends them with ``set_my_commands``: the customer menu in the default
scope, and for each operator chat (``BotCommandScopeChat``) the operator commands added. An
operator's group gets only the delivery and dispatch commands: orders are taken in private
chats, where a customer's details are not shown to a whole group.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from telegram import Bot, BotCommand, BotCommandScopeChat, BotCommandScopeDefault
from telegram.error import TelegramError

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
    BotCommand("assign", "Assign a rider: /assign <delivery id> <rider id>"),
    BotCommand("unassign", "Take the rider off: /unassign <delivery id>"),
)

CUSTOMER_COMMANDS: Final = ORDERING_COMMANDS + DELIVERY_COMMANDS
OPERATOR_COMMANDS: Final = CUSTOMER_COMMANDS + DISPATCH_COMMANDS
# An operators' group: no ordering there (see the module docstring).
OPERATOR_GROUP_COMMANDS: Final = DELIVERY_COMMANDS + DISPATCH_COMMANDS


def commands_for(chat_id: int) -> tuple[BotCommand, ...]:
    """The menu of an operator chat: a private chat (positive id) or a group (negative id)."""
    return OPERATOR_COMMANDS if chat_id > 0 else OPERATOR_GROUP_COMMANDS


async def register_commands(bot: Bot, operators: Iterable[int]) -> None:
    """Set the customer menu and each operator chat's menu.

    A menu Telegram refuses (the bot is not in that group yet) is logged and skipped: the
    commands still work there, only the menu is missing.
    """
    await bot.set_my_commands(CUSTOMER_COMMANDS, scope=BotCommandScopeDefault())
    for chat_id in operators:
        try:
            await bot.set_my_commands(commands_for(chat_id), scope=BotCommandScopeChat(chat_id))
        except TelegramError as error:
            log.warning(
                "operator chat %s: command menu not set (%s); has the bot been added there?",
                chat_id,
                type(error).__name__,
            )
