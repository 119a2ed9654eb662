"""``/console`` from an operator whose Telegram app is in French, on the running bot and both
store backends: the link is said in French and the console it opens is in French; one whose
app is in no shipped language gets the business's."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.conftest import OLU, OPERATORS, PUBLIC_BASE_URL, BotStack
from tests.fakes import TgUser
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]

OLU_IN_FRENCH = TgUser(OLU.id, OLU.first_name, language_code="fr")
OLU_IN_YORUBA = TgUser(OLU.id, OLU.first_name, language_code="yo")


@pytest.fixture
def console() -> dict[str, Any]:
    return {"enabled": True}


async def _console_page(stack: BotStack, operator: TgUser) -> str:
    await stack.command(operator, "console", chat=OPERATORS)
    link = (stack.tg.sent_messages(OLU.id)[-1].text or "").rsplit("\n", 1)[-1]
    transport = httpx.ASGITransport(app=stack.bot.web_app)
    async with httpx.AsyncClient(transport=transport, base_url=PUBLIC_BASE_URL) as client:
        signed = await client.post(link.removeprefix(PUBLIC_BASE_URL))
        assert signed.status_code == 303
        return (await client.get("/console/deliveries")).text


async def test_an_operator_in_french_opens_the_console_in_french(stack: BotStack) -> None:
    page = await _console_page(stack, OLU_IN_FRENCH)
    assert '<html lang="fr">' in page
    assert "<h1>Livraisons</h1>" in page


async def test_an_operator_in_a_language_not_shipped_gets_the_business_default(
    stack: BotStack,
) -> None:
    page = await _console_page(stack, OLU_IN_YORUBA)
    assert '<html lang="en">' in page
