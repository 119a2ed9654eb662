"""Operators name an agent channel's customer in ``/block`` and ``/unblock`` the way its app
does (``shop-app:cust-42``) and read them back so, never as the bot's inner ``agents:1``; a
bare reference that names no delivery is answered with the ``channel:customer`` form."""

from __future__ import annotations

from tests.e2e.conftest import OLU, OPERATORS, BotStack
from tests.support.words import say
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]


async def test_block_and_unblock_answer_with_the_agent_customers_own_name(
    stack: BotStack,
) -> None:
    user = await stack.bot.store.agents.user("shop-app", "cust-42", create=True)
    assert user is not None

    (done,) = await stack.command(OLU, "block", "shop-app:cust-42 spam", chat=OPERATORS)
    (again,) = await stack.command(OLU, "block", "shop-app:cust-42", chat=OPERATORS)
    (lifted,) = await stack.command(OLU, "unblock", "shop-app:cust-42", chat=OPERATORS)

    assert done.text == say("safety.block_done", customer="shop-app:cust-42")
    assert again.text == say("safety.block_again", customer="shop-app:cust-42")
    assert lifted.text == say("safety.unblock_done", customer="shop-app:cust-42")
    assert all(str(user) not in (m.text or "") for m in (done, again, lifted))


async def test_a_bare_reference_gets_the_channel_form(stack: BotStack) -> None:
    await stack.bot.store.agents.user("shop-app", "cust-42", create=True)

    (unknown,) = await stack.command(OLU, "block", "cust-99", chat=OPERATORS)
    (known,) = await stack.command(OLU, "block", "cust-42", chat=OPERATORS)

    assert unknown.text == " ".join(
        [
            say("safety.no_such_delivery", ref="CUST-99"),
            say("safety.agent_customer_form", example="shop-app:cust-99"),
        ]
    )
    assert known.text == " ".join(
        [
            say("safety.no_such_delivery", ref="CUST-42"),
            say("safety.agent_customer_known_as", names="shop-app:cust-42"),
        ]
    )
    assert await stack.bot.store.customer_blocks.all() == []
