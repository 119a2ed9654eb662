"""The way back: a pick from the "Pick on the map" page reaches the order through the real PTB
``Application`` (polling the fake Bot API) as a ``web_app_data`` message, and becomes the same
answers a saved-place tap or a shared pin makes: the create body is the same."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.partner.models import CreateDeliveryRequest, Delivery
from bot.telegram.update_check import update_flaw
from bot.webapp.picks import picked_line
from bot.webapp.place_question import ChatPlaceQuestions
from conversations import (
    Answer,
    ChoiceAnswer,
    ContactAnswer,
    LocationAnswer,
    TextAnswer,
)
from conversations.places import PlaceNames
from conversations.texts import dialogue
from tests.fakes import SentMessage, TgUser
from tests.support.words import SHIPPED, said_in
from tests.telegram_adapter.handler_world import HandlerWorld, handler_world

WEBAPP_URL = "https://bot.example/webapp"
ADA = TgUser(5101, "Ada")
BOLA = TgUser(5102, "Bola")

TO_DROPOFF: list[Answer] = [
    ChoiceAnswer(option="pickup_delivery"),
    LocationAnswer(lat=6.5095, lng=3.3711),
    TextAnswer(text="12 Herbert Macaulay Way, Yaba"),
]
AFTER_DROPOFF: list[Answer] = [
    ContactAnswer(phone="+2348031234567", first_name="Ada"),
    TextAnswer(text="Bola Ahmed"),
    TextAnswer(text="+2348022223333"),
    TextAnswer(text="A pair of shoes in a box"),
    ChoiceAnswer(option="small"),
]
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 4


class _Time:
    """Real time: these tests send no albums, whose quiet window it would time."""

    def clock(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[HandlerWorld]:
    async with handler_world(tmp_path, conversation=_Time(), webapp_url=WEBAPP_URL) as opened:
        yield opened


@pytest.fixture
def creates(world: HandlerWorld, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every create body the bot sends, as the wire carries it."""
    sent: list[dict[str, Any]] = []
    original = world.client.create_delivery

    async def spy(request: CreateDeliveryRequest, **how: Any) -> Delivery:
        # Each order's photo is its own upload, re-hosted under its own token: left out.
        body = request.model_dump(mode="json", exclude={"idempotencyKey", "packageImages"})
        sent.append(body | {"photos": len(request.packageImages or [])})
        return await original(request, **how)

    monkeypatch.setattr(world.client, "create_delivery", spy)
    return sent


async def at_dropoff(world: HandlerWorld, user: TgUser) -> SentMessage:
    """``user``'s order answered up to the drop-off place, asked through Telegram."""
    world.tg.add_chat(user)
    chats = world.ctx.chats
    await chats.new_order(user.chat, user.user)
    for answer in TO_DROPOFF[:-1]:
        await chats.handle(user.chat, user.user, answer)
    # The last answer goes through PTB, so the drop-off question is drawn in the chat.
    return await world.ask(world.tg.updates.text(user, "12 Herbert Macaulay Way, Yaba"))


async def to_summary(world: HandlerWorld, user: TgUser) -> None:
    """Answer the rest, up to the summary."""
    chats = world.ctx.chats
    for answer in AFTER_DROPOFF:
        await chats.handle(user.chat, user.user, answer)
    await world.ask(world.tg.updates.photo(user, JPEG))  # re-hosted by the bot, as in production
    turn = await chats.resume(user.chat, user.user)
    while turn is not None and turn.prompt is not None and turn.prompt.step != "summary":
        # Payment and whatever the scenario asks next: the first option each time.
        turn = await chats.handle(
            user.chat, user.user, ChoiceAnswer(option=turn.prompt.options[0].id)
        )


async def finish(world: HandlerWorld, user: TgUser) -> None:
    """Answer the rest and send the order from the summary."""
    await to_summary(world, user)
    await world.ctx.chats.handle(user.chat, user.user, ChoiceAnswer(option="confirm"))


async def pick(world: HandlerWorld, user: TgUser, **place: Any) -> SentMessage:
    session = await world.ctx.chats.session(user.chat)
    assert session is not None and session.step == "dropoff_place"
    body = {"v": 1, "step": session.step, "version": session.prompt_version, **place}
    return await world.ask(world.tg.updates.web_app_data(user, json.dumps(body)))


async def test_the_place_question_has_the_map_button(world: HandlerWorld) -> None:
    question = await at_dropoff(world, ADA)
    button = question.button("🗺 Pick on the map")
    assert button["web_app"] == {"url": f"{WEBAPP_URL}/place?chat={ADA.id}"}
    assert question.button_texts[1] == "📍 Share my location"


async def test_a_saved_place_with_a_list_unit_is_the_same_order_as_tapping_it(
    world: HandlerWorld, creates: list[dict[str, Any]]
) -> None:
    await at_dropoff(world, ADA)
    await pick(world, ADA, saved={"id": "loc_moremi_hall", "unit": "A012"})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step not in {"dropoff_place", "dropoff_unit"}
    await finish(world, ADA)

    await at_dropoff(world, BOLA)
    chats = world.ctx.chats
    await chats.handle(BOLA.chat, BOLA.user, ChoiceAnswer(option="saved:loc_moremi_hall"))
    await chats.handle(BOLA.chat, BOLA.user, TextAnswer(text="A012"))
    await finish(world, BOLA)

    by_map, by_tap = creates
    assert by_map == by_tap
    assert by_map["deliveryAddress"].endswith("A012")


async def test_a_pin_is_the_same_order_as_a_shared_location(
    world: HandlerWorld, creates: list[dict[str, Any]]
) -> None:
    await at_dropoff(world, ADA)
    address = "Blue gate, 3 Akoka Road"
    await pick(world, ADA, pin={"lat": 6.5171, "lng": 3.3899, "address": address})
    await finish(world, ADA)

    await at_dropoff(world, BOLA)
    await world.ask(world.tg.updates.location(BOLA, 6.5171, 3.3899))
    await world.ask(world.tg.updates.text(BOLA, address))
    await finish(world, BOLA)

    by_map, by_pin = creates
    assert by_map == by_pin
    assert by_map["deliveryAddress"] == address


async def test_a_pick_for_a_question_no_longer_open_is_refused_like_a_stale_tap(
    world: HandlerWorld,
) -> None:
    await at_dropoff(world, ADA)
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None
    stale = {"v": 1, "step": "dropoff_place", "version": session.prompt_version - 1}
    stale["saved"] = {"id": "loc_unilag_gate", "unit": ""}
    reply = await world.ask(world.tg.updates.web_app_data(ADA, json.dumps(stale)))
    after = await world.ctx.chats.session(ADA.chat)
    assert after is not None and after.step == "dropoff_place"
    assert "dropoff_place" not in after.answers
    # The engine's refusal of a tap on an old button, and the open question again.
    assert (reply.text or "").startswith(dialogue.STALE.render(SHIPPED))
    assert reply.button("🗺 Pick on the map")


async def test_a_pick_outside_the_coverage_is_refused_as_in_chat(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    reply = await pick(world, ADA, pin={"lat": 9.0579, "lng": 7.4951, "address": "Abuja CBD"})
    shared = await world.ask(world.tg.updates.location(ADA, 9.0579, 7.4951))
    assert reply.text == shared.text
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "dropoff_place"


UNREADABLE = {
    "not the page's shape": '{"v": 1, "step": "x"}',
    "an older page's version": '{"v": 0, "step": "dropoff_place", "version": 3, "pin": {}}',
    "not JSON at all": "dropoff_place:loc_moremi_hall",
    "cut short": '{"v": 1, "step": "dropoff_place", "version": 3, "saved": {"id": "lo',
}


@pytest.mark.parametrize("data", UNREADABLE.values(), ids=UNREADABLE.keys())
async def test_a_pick_that_cannot_be_read_is_told_about_the_map(
    world: HandlerWorld, data: str
) -> None:
    await at_dropoff(world, ADA)
    before = await world.ctx.chats.session(ADA.chat)
    reply = await world.ask(world.tg.updates.web_app_data(ADA, data))
    assert reply.text == (
        "That pick from the map could not be read: please pick again, or answer here in the chat."
    )
    assert await world.ctx.chats.session(ADA.chat) == before  # nothing answered, nothing lost


async def picked(world: HandlerWorld, user: TgUser, **place: Any) -> list[SentMessage]:
    """Every message the bot sent ``user`` in answer to the pick of ``place``."""
    before = len(world.tg.sent_messages(user.id))
    await pick(world, user, **place)
    return world.tg.sent_messages(user.id)[before:]


async def test_a_saved_place_and_its_room_are_echoed_and_never_asked_again(
    world: HandlerWorld,
) -> None:
    await at_dropoff(world, ADA)
    [reply] = await picked(world, ADA, saved={"id": "loc_moremi_hall", "unit": "A012"})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "sender_name"  # the next one unanswered
    echo, *rest = (reply.text or "").split("\n\n")
    assert echo == "Drop-off place: Moremi Hall · Room A012"
    assert "OK." not in rest and not any("Room" in text for text in rest)
    assert session.answers["dropoff_unit"] == "A012"


async def test_a_pin_is_echoed_with_its_address(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    address = "Blue gate, 3 Akoka Road"
    [reply] = await picked(world, ADA, pin={"lat": 6.5171, "lng": 3.3899, "address": address})
    assert (reply.text or "").startswith(f"Drop-off place: {address}\n\n")


async def test_the_echo_is_in_the_language_of_the_turn(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    await pick(world, ADA, saved={"id": "loc_moremi_hall", "unit": "A012"})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None
    french = said_in("fr")
    title = french.say("flows.title.dropoff_place")
    line = picked_line(french, session, PlaceNames.of("dropoff"), title)
    assert line == "Lieu de livraison : Moremi Hall · Room A012"


async def test_a_change_from_the_summary_by_map_is_echoed_before_the_summary(
    world: HandlerWorld,
) -> None:
    await at_dropoff(world, ADA)
    await pick(world, ADA, saved={"id": "loc_moremi_hall", "unit": "B007"})
    await to_summary(world, ADA)
    await world.ctx.chats.handle(ADA.chat, ADA.user, ChoiceAnswer(option="edit:dropoff_place"))
    [reply] = await picked(world, ADA, saved={"id": "loc_moremi_hall", "unit": "A012"})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "summary"
    assert (reply.text or "").startswith("Drop-off place: Moremi Hall · Room A012\n\n")


async def test_a_room_the_list_does_not_have_is_asked_without_an_echo(
    world: HandlerWorld,
) -> None:
    await at_dropoff(world, ADA)
    replies = await picked(world, ADA, saved={"id": "loc_moremi_hall", "unit": "Z999"})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "dropoff_unit"
    assert not any((m.text or "").startswith("Drop-off place:") for m in replies)


async def test_the_page_gets_the_chats_open_question(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    questions = ChatPlaceQuestions(world.ctx.chats)
    session = await world.ctx.chats.session(ADA.chat)
    question = await questions.question(SHIPPED, ADA.id)
    assert session is not None and question is not None
    assert (question.step, question.version) == ("dropoff_place", session.prompt_version)
    assert question.title == "Drop-off place"  # what the page picks, as the flow names it
    assert (await world.ctx.chats.session(ADA.chat)) == session  # reading it saved nothing
    moremi = next(place for place in question.saved if place.id == "loc_moremi_hall")
    assert moremi.unit.mode == "list" and moremi.unit.required
    assert moremi.unit.choices[:3] == ["Warden's office", "A001", "A002"]
    assert not moremi.unit.allow_custom
    assert question.coverage.mode == "radius_from_hub" and question.coverage.circles
    assert question.coverage.circles[0].radius_m == (2 * 40 + 0.5) * 1000
    assert question.current is None and question.search is False
    assert await questions.question(SHIPPED, BOLA.id) is None  # no order open there


async def test_a_change_from_the_summary_preselects_the_answer_given(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    await pick(world, ADA, saved={"id": "loc_moremi_hall", "unit": "B007"})
    await to_summary(world, ADA)
    chats = world.ctx.chats
    await chats.handle(ADA.chat, ADA.user, ChoiceAnswer(option="edit:dropoff_place"))
    question = await ChatPlaceQuestions(chats).question(SHIPPED, ADA.id)
    assert question is not None and question.current is not None
    assert (question.current.kind, question.current.saved_id, question.current.unit) == (
        "saved",
        "loc_moremi_hall",
        "B007",
    )


async def test_no_map_question_at_a_question_that_is_not_a_place(world: HandlerWorld) -> None:
    world.tg.add_chat(ADA)
    await world.ctx.chats.new_order(ADA.chat, ADA.user)
    assert await ChatPlaceQuestions(world.ctx.chats).question(SHIPPED, ADA.id) is None


def test_the_door_checks_the_picks_type() -> None:
    message = {
        "message_id": 1,
        "date": 0,
        "chat": {"id": 5, "type": "private"},
        "from": {"id": 5, "is_bot": False, "first_name": "A"},
    }
    good = {
        "update_id": 1,
        "message": message | {"web_app_data": {"data": "{}", "button_text": "x"}},
    }
    bad = {"update_id": 2, "message": message | {"web_app_data": {"data": 7, "button_text": "x"}}}
    assert update_flaw(good) is None
    flaw = update_flaw(bad)
    assert flaw is not None and flaw.reason == "message.web_app_data.data is not a string"


async def test_an_optional_unit_left_empty_is_skipped_as_in_chat(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    await pick(world, ADA, saved={"id": "loc_ikeja_city_mall", "unit": ""})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step not in {"dropoff_place", "dropoff_unit"}
    assert "dropoff_unit" not in session.answers or not session.answers["dropoff_unit"]


async def test_a_required_unit_left_empty_asks_for_it_as_in_chat(world: HandlerWorld) -> None:
    await at_dropoff(world, ADA)
    await pick(world, ADA, saved={"id": "loc_jaja_hall", "unit": ""})
    session = await world.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "dropoff_unit"
    assert "Room number" in (world.tg.sent_messages(ADA.id)[-1].text or "")
