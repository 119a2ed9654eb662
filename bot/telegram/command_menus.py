"""The command menus Telegram shows: customers' by default, operators' in their own chats.

Each menu is set once per shipped language: in the business's default language for everyone,
and with ``language_code`` for users whose app is in another shipped language (Telegram shows
them that one). The descriptions are catalogue messages (``menu.<command>``); the constants
below carry the English source's.

``register_commands`` sends them with ``set_my_commands``: the customer menu in the default
scope, and for each operator chat (``BotCommandScopeChat``) the operator commands added. A flow
that declares a ``command`` (``/return``) is in both private menus, after the ordering commands
(``flow_commands``), and the customer's data rights (``/mydata``, ``/forgetme``) last. An
operator's group gets only the delivery and dispatch commands: orders are taken, and a
customer's data handed over, in private chats, where it is not shown to a whole group.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from telegram import Bot, BotCommand, BotCommandScopeChat, BotCommandScopeDefault
from telegram.error import TelegramError

from bot.telegram.telegram_texts import EN
from conversations.flow import FlowRegistry
from conversations.keywords import command_words, said_command
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS, SHIPPED, Catalogue

log = logging.getLogger(__name__)


def _source(command: str) -> BotCommand:
    """A command with its description from Telegram's English source words."""
    return BotCommand(command, EN[f"menu.{command}"])


ORDERING_COMMANDS: Final = (
    _source("start"),
    _source("new"),
    _source("repeat"),
    _source("cancel"),
    _source("back"),
    _source("help"),
)
DELIVERY_COMMANDS: Final = (
    _source("status"),
    _source("deliveries"),
    _source("cancel_delivery"),
)
# The customer's data rights (``privacy_commands``): in private chats only.
PRIVACY_COMMANDS: Final = (
    _source("mydata"),
    _source("forgetme"),
)
DISPATCH_COMMANDS: Final = (
    _source("riders"),
    _source("assign"),
    _source("unassign"),
    _source("report"),
    _source("console"),
)

CUSTOMER_COMMANDS: Final = ORDERING_COMMANDS + DELIVERY_COMMANDS + PRIVACY_COMMANDS
OPERATOR_COMMANDS: Final = CUSTOMER_COMMANDS + DISPATCH_COMMANDS
# An operators' group: no ordering there (see the module docstring).
OPERATOR_GROUP_COMMANDS: Final = DELIVERY_COMMANDS + DISPATCH_COMMANDS


RESERVED: Final = frozenset(
    word
    for name in {command.command for command in OPERATOR_COMMANDS} | {"skip", "done", "human"}
    for word in command_words(DEFAULT_TEXTS.business_catalogue(), name)
)
"""Commands the bot answers itself, in every shipped language's words (``/statut``), which no
flow may take (``/skip`` and ``/done`` answer a question)."""


def flow_commands(catalogue: Catalogue, registry: FlowRegistry) -> tuple[BotCommand, ...]:
    """A menu entry for every flow that declares a command, named as the entry menu names it
    in ``catalogue``'s words.

    Raises ``ValueError`` naming the flow when its command is one the bot already answers.
    """
    taken = [flow.name for flow in registry.with_commands if flow.command in RESERVED]
    if taken:
        raise ValueError(f"flow {taken[0]!r}: its command is one of the bot's own commands")
    return tuple(
        BotCommand(flow.command, flow.menu_label(catalogue))
        for flow in registry.with_commands
        if flow.command is not None
    )


def customer_menu(flows: tuple[BotCommand, ...] = ()) -> tuple[BotCommand, ...]:
    """The customer menu, with the flows' own commands after the ordering ones."""
    return ORDERING_COMMANDS + flows + DELIVERY_COMMANDS + PRIVACY_COMMANDS


def commands_for(chat_id: int, flows: tuple[BotCommand, ...] = ()) -> tuple[BotCommand, ...]:
    """The menu of an operator chat: a private chat (positive id) or a group (negative id)."""
    if chat_id > 0:
        return customer_menu(flows) + DISPATCH_COMMANDS
    return OPERATOR_GROUP_COMMANDS


def said(catalogue: Catalogue, menu: Iterable[BotCommand]) -> tuple[BotCommand, ...]:
    """``menu`` with each command and its description in ``catalogue``'s words (``/statut``
    for a French customer; a flow's own command keeps its label, which its flow declares)."""
    messages = catalogue.messages
    return tuple(
        BotCommand(
            said_command(catalogue, command.command), catalogue.say(f"menu.{command.command}")
        )
        if f"menu.{command.command}" in messages
        else command
        for command in menu
    )


async def register_commands(
    texts: BusinessTexts, bot: Bot, operators: Iterable[int], flows: tuple[BotCommand, ...] = ()
) -> None:
    """Set the customer menu and each operator chat's menu, in every shipped language, each
    in the business's ``texts`` in that language; ``flows`` from ``flow_commands``.

    A menu Telegram refuses (the bot is not in that group yet) is logged and skipped: the
    commands still work there, only the menu is missing.
    """
    default = texts.texts.default_language
    for language in sorted(SHIPPED, key=lambda code: code != default):
        code = None if language == default else language
        catalogue = texts.catalogue_for(language)
        menu = said(catalogue, customer_menu(flows))
        await bot.set_my_commands(menu, scope=BotCommandScopeDefault(), language_code=code)
        for chat_id in operators:
            try:
                menu = said(catalogue, commands_for(chat_id, flows))
                scope = BotCommandScopeChat(chat_id)
                await bot.set_my_commands(menu, scope=scope, language_code=code)
            except TelegramError as error:
                log.warning(
                    "operator chat %s: command menu not set (%s); has the bot been added there?",
                    chat_id,
                    type(error).__name__,
                )
