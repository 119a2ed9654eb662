"""Every flow is reachable in Telegram: a deep link ``/start <flow>``, the flow's own menu
command, and the entry menu; a group is told to order in private."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.telegram.command_menus import customer_menu, flow_commands
from conversations.flow import FlowRegistry
from conversations.flows import default_registry
from tests.e2e.conftest import ADA, CHIDI, OPERATORS, BotStack
from tests.support.words import SHIPPED, say

RETURN_FIRST = "The parcel goes back to Ikeja Hub, 14 Allen Avenue, Ikeja, Lagos."
RETURN_ASKS = "Where should the rider collect the parcel?"
ENTRY_ASKS = "What would you like to order?"


async def test_a_deep_link_starts_its_flow(stack: BotStack) -> None:
    said = [m.text or "" for m in await stack.command(ADA, "start", "return_parcel")]
    assert said[0].startswith(say("telegram.greeting")) and RETURN_FIRST in said[0]
    assert said[-1].index(RETURN_FIRST) < said[-1].index(RETURN_ASKS)


async def test_a_deep_link_naming_no_flow_starts_the_usual_way(stack: BotStack) -> None:
    (shown,) = await stack.command(ADA, "start", "spring_sale")
    assert shown.text is not None and ENTRY_ASKS in shown.text


async def test_a_flows_command_starts_it_and_drops_the_open_order(stack: BotStack) -> None:
    await stack.command(ADA, "new")
    said = [m.text or "" for m in await stack.command(ADA, "return")]
    assert said[-1].startswith(RETURN_FIRST) and RETURN_ASKS in said[-1]
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None and session.flow == "return_parcel"


async def test_a_flows_command_in_a_group_is_sent_to_a_private_chat(stack: BotStack) -> None:
    (shown,) = await stack.command(CHIDI, "return", chat=OPERATORS)
    assert shown.text == say("telegram.private_only")


async def test_help_names_the_flows_commands(stack: BotStack) -> None:
    (shown,) = await stack.command(CHIDI, "help")
    assert shown.text is not None and "/return: Return a parcel to us" in shown.text


async def test_the_flows_commands_are_in_the_private_menus(stack: BotStack) -> None:
    customer = [c["command"] for c in stack.tg.commands()]
    assert customer == [
        c.command for c in customer_menu(flow_commands(SHIPPED, default_registry()))
    ]
    assert "return" in customer


def test_a_flow_may_not_take_one_of_the_bots_own_commands() -> None:
    returns = default_registry()["return_parcel"]
    clashing = replace(returns, name="status_check", command="status")
    with pytest.raises(ValueError, match="'status_check'"):
        flow_commands(SHIPPED, FlowRegistry([clashing]))
