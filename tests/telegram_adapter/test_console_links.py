"""``/console`` through PTB's real Application and the fake Bot API, on both store backends: an
operator asks in the operators' group and the one-time sign-in link reaches their private chat
only (the group is told it went, never the link); it opens one session, as the role
``[console]`` gives their account; when the bot cannot write to them privately the group says
to start a private chat first; anyone else is refused; with the console off the command says
so. Every issue and redeem is in the audit trail, never the token."""

from __future__ import annotations

from typing import Any

import pytest

from bot.staff.staff_door import SignedIn, StaffDoor
from bot.store import LinkRefusal
from tests.e2e.conftest import CHIDI, OLU, OPERATORS, PUBLIC_BASE_URL, BotStack
from tests.support.words import say
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]

SIGN_IN = f"{PUBLIC_BASE_URL}/console/signin/"


@pytest.fixture
def console() -> dict[str, Any]:
    return {"enabled": True, "link_minutes": 5, "admins": [f"telegram:{OLU.id}"]}


def _door(stack: BotStack) -> StaffDoor:
    door = stack.bot.ctx.staff
    assert door is not None
    return door


async def test_the_link_goes_privately_and_signs_the_operator_in_once(stack: BotStack) -> None:
    private_before = len(stack.tg.sent_messages(OLU.id))

    (told,) = await stack.command(OLU, "console", chat=OPERATORS)

    assert told.text == say("telegram.console_sent", name=OLU.first_name)
    (private,) = stack.tg.sent_messages(OLU.id)[private_before:]
    link = (private.text or "").rsplit("\n", 1)[-1]
    assert link.startswith(SIGN_IN)
    assert private.text == say("telegram.console_link", minutes=5, link=link)
    token = link.removeprefix(SIGN_IN)
    assert all(token not in (m.text or "") for m in stack.tg.sent_messages(OPERATORS.id))

    signed = await _door(stack).sign_in(token)
    assert isinstance(signed, SignedIn)
    assert (signed.member.name, signed.member.role, str(signed.member.account)) == (
        "Olu",
        "admin",
        f"telegram:{OLU.id}",
    )
    assert await _door(stack).session(signed.session.token) is not None
    assert await _door(stack).sign_in(token) is LinkRefusal.USED

    trail = await stack.bot.store.audit.since(0)
    member = f"staff:{signed.member.id}"
    assert [(e.actor, e.action, e.subject, e.outcome) for e in trail] == [
        (f"telegram:{OLU.id}", "console_link", member, "issued"),
        (member, "console_signin", member, "done"),
        ("console", "console_signin", "link", "refused: used link"),
    ]
    assert all(token not in repr(entry) for entry in trail)


async def test_without_a_private_chat_the_group_is_told_to_start_one(stack: BotStack) -> None:
    stack.tg.block_chat(OLU.id)  # never started, or blocked: Telegram answers 403

    (told,) = await stack.command(OLU, "console", chat=OPERATORS)

    assert told.text == say("telegram.console_start_private", name=OLU.first_name)
    assert all(SIGN_IN not in (m.text or "") for m in stack.tg.sent_messages())


async def test_console_from_a_customer_chat_is_refused_and_issues_nothing(
    stack: BotStack,
) -> None:
    (refused,) = await stack.command(CHIDI, "console")

    assert refused.text == say("ops.refused")
    assert await stack.bot.store.staff.members() == []
    assert await stack.bot.store.audit.since(0) == []


@pytest.mark.parametrize("console", [{}])
async def test_with_the_console_off_the_command_says_so(stack: BotStack) -> None:
    (told,) = await stack.command(OLU, "console", chat=OPERATORS)

    assert told.text == say("telegram.console_off")
    assert stack.bot.ctx.staff is None
    assert await stack.bot.store.staff.members() == []
