"""The console as a second door onto the Telegram card's hand-offs, on the running bot (PTB's
real Application polling the fake Bot API, the sandbox) and both store backends: a customer
asks for a person; an operator signed in to the console takes it (the card in the operators'
group is edited to show him), a Telegram take after it is refused with his name, he replies
(the customer gets it), fills the drop-off place from a latitude and longitude, and gives the
conversation back (the order goes on). A console take and a Telegram take at once make
exactly one owner, and the other door says who."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import ADA, BOLA, OLU, OPERATORS, PUBLIC_BASE_URL, BotStack
from tests.e2e.test_handoffs import ADE, LAGOS, at_the_dropoff_place, current_text, staff_says
from tests.fakes import SentMessage
from tests.support.words import SHIPPED
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]

TILES = "http://127.0.0.1:9/{z}/{x}/{y}.png"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
def console() -> dict[str, Any]:
    return {"enabled": True, "dispatchers": [f"telegram:{OLU.id}"]}


@pytest.fixture
def webapp() -> dict[str, Any]:
    """The Mini App on (its tiles draw the console's maps), on a tile host never reached."""
    return {"enabled": True, "tiles": {"url_template": TILES}}


async def _signed_in(stack: BotStack) -> httpx.AsyncClient:
    """Olu asks /console in the operators' group and signs in with the link he got."""
    await stack.command(OLU, "console", chat=OPERATORS)
    link = (stack.tg.sent_messages(OLU.id)[-1].text or "").rsplit("\n", 1)[-1]
    transport = httpx.ASGITransport(app=stack.bot.web_app)
    client = httpx.AsyncClient(transport=transport, base_url=PUBLIC_BASE_URL)
    signed = await client.post(link.removeprefix(PUBLIC_BASE_URL))
    assert signed.status_code == 303
    return client


async def _asks(stack: BotStack, user: Any) -> tuple[str, SentMessage]:
    """``user`` asks for a person: the hand-off's reference and its card in the group."""
    before = len(stack.tg.sent_messages(OPERATORS.id))
    await stack.command(user, "human")
    (posted,) = stack.tg.sent_messages(OPERATORS.id)[before:]
    assert posted.text is not None and posted.text.startswith("#")
    return posted.text[1:7], posted


async def _post(client: httpx.AsyncClient, ref: str, act: str, **fields: str) -> httpx.Response:
    page = await client.get(f"/console/handoffs/{ref}")
    found = _CSRF.search(page.text)
    assert found is not None
    return await client.post(f"/console/handoffs/{ref}/{act}", data={"csrf": found[1], **fields})


async def test_the_console_and_telegram_share_one_hand_off(stack: BotStack) -> None:
    await at_the_dropoff_place(stack)
    ref, posted = await _asks(stack, ADA)
    await stack.text(ADA, "I can't find my hostel in the list")
    client = await _signed_in(stack)

    listed = await client.get("/console/handoffs")
    assert f'data-handoff="{ref}"' in listed.text
    assert "12 Herbert Macaulay Way" in listed.text  # her answers so far
    assert "I can&#39;t find my hostel in the list" in listed.text

    # Ade sees the card with its button; by the time he presses it, Olu took it.
    tap = stack.tg.updates.tap(posted, SHIPPED.say("staff.take"), user=ADE)
    taken = await _post(client, ref, "take")
    assert taken.status_code == 303
    assert SHIPPED.say("staff.card_taken", owner="Olu") in current_text(stack, posted)

    # Ade's press, then his reply: both refused with Olu's name.
    await stack.send(tap)
    answer = stack.tg.callback_answer(tap["callback_query"]["id"])
    assert answer is not None
    assert answer["text"] == SHIPPED.say("staff.already_taken", owner="Olu", ref=ref)
    before = len(stack.tg.sent_messages(ADA.id))
    await staff_says(stack, ADE, "Ade here", posted)
    refused = stack.tg.sent_messages(OPERATORS.id)[-1]
    assert refused.text == SHIPPED.say("staff.already_taken", owner="Olu", ref=ref)
    assert stack.tg.sent_messages(ADA.id)[before:] == []

    replied = await _post(client, ref, "reply", text="Hello! Which hostel is it?")
    assert replied.status_code == 303
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[before:]] == [
        "Hello! Which hostel is it?"
    ]
    assert "Hello! Which hostel is it?" in current_text(stack, posted)  # the card's last lines

    page = await client.get(f"/console/handoffs/{ref}")
    # The place form, and the map a click on which fills it in: over the business's saved
    # places and service area, on the Mini App's tiles, drawn by the console's own script.
    assert 'data-pick-lat="latitude" data-pick-lng="longitude"' in page.text
    assert f'data-tiles="{TILES}"' in page.text
    assert '<script src="/console/static/console-map.js"></script>' in page.text
    assert "127.0.0.1:9" in page.headers["content-security-policy"]
    before = len(stack.tg.sent_messages(ADA.id))
    filled = await _post(client, ref, "place", latitude=str(LAGOS[0]), longitude=str(LAGOS[1]))
    assert filled.status_code == 303
    (note,) = stack.tg.sent_messages(ADA.id)[before:]
    assert note.text is not None and note.text.startswith("Our team filled in")
    page = await client.get(f"/console/handoffs/{ref}")
    assert "data-pick-lat" not in page.text  # the order moved past the place question

    before = len(stack.tg.sent_messages(ADA.id))
    done = await _post(client, ref, "done")
    assert done.status_code == 303
    closing = stack.tg.sent_messages(ADA.id)[before:]
    assert closing[0].text == SHIPPED.say("human.closed")
    assert closing[-1].text is not None and "address at this pin" in closing[-1].text
    assert SHIPPED.say("staff.card_closed") in current_text(stack, posted)
    handoff = await stack.bot.store.handoffs.get(ref)
    assert handoff is not None and handoff.state == "closed"

    (olu,) = await stack.bot.store.staff.named("Olu")
    trail = [
        (e.actor, e.action, e.outcome)
        for e in await stack.bot.store.audit.since(0)
        if e.subject == f"hand-off {ref}"
    ]
    assert trail == [
        (f"staff:{olu.id}", "handoff_take", "done"),
        ("telegram:1901", "handoff_take", "refused: taken_by_other (Olu)"),
        ("telegram:1901", "handoff_reply", "refused: taken_by_other (Olu)"),
        (f"staff:{olu.id}", "handoff_reply", "done"),
        (f"staff:{olu.id}", "handoff_fill", "done"),
        ("bot", "handoff_reply", "done"),  # the desk tells her what was filled in
        (f"staff:{olu.id}", "handoff_close", "done"),
    ]


async def test_a_console_take_and_a_telegram_take_at_once_make_one_owner(
    stack: BotStack,
) -> None:
    ref, posted = await _asks(stack, BOLA)
    client = await _signed_in(stack)
    page = await client.get(f"/console/handoffs/{ref}")
    found = _CSRF.search(page.text)
    assert found is not None
    tap = stack.tg.updates.tap(posted, SHIPPED.say("staff.take"), user=ADE)

    console, _ = await asyncio.gather(
        client.post(f"/console/handoffs/{ref}/take", data={"csrf": found[1]}),
        stack.send(tap),
    )

    handoff = await stack.bot.store.handoffs.get(ref)
    assert handoff is not None and handoff.state == "taken"
    answer = stack.tg.callback_answer(tap["callback_query"]["id"])
    assert answer is not None
    owner = handoff.owner_name
    assert SHIPPED.say("staff.card_taken", owner=owner) in current_text(stack, posted)
    if owner == "Olu":
        assert console.status_code == 303
        assert answer["text"] == SHIPPED.say("staff.already_taken", owner="Olu", ref=ref)
    else:
        assert owner == "Ade"
        assert answer["text"] == SHIPPED.say("staff.taken_by", owner="Ade", ref=ref)
        assert console.status_code == 409
        said = SHIPPED.say("staff.already_taken", owner="Ade", ref=ref)
        assert said in console.text
    outcomes = sorted(
        e.outcome for e in await stack.bot.store.audit.since(0) if e.action == "handoff_take"
    )
    assert outcomes == ["done", f"refused: taken_by_other ({owner})"]
