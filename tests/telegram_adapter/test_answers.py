"""Updates, as Telegram sends them, read as the answers they give."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Update

from bot.channel_texts import shipped_channel_texts
from bot.telegram.answers import answer_from_update, command_in, is_own_contact, venue_address
from bot.telegram.photo_receiver import IncomingPhoto
from conversations import CommandAnswer, ContactAnswer, LocationAnswer, TextAnswer
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from tests.fakes import FakeTelegram, TgChat, TgUser, UpdateFactory

ALICE = TgUser(1001, "Alice", last_name="Obi", username="alice")
CAROL = TgUser(1003, "Carol", last_name="Eze")
GROUP = TgChat.group(-100300, "Dispatch")
# An English-speaking sender's update, with every channel's words.
TURN = BusinessTexts(DEFAULT_TEXTS.with_channels(*shipped_channel_texts())).catalogue_for(None)
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64


@pytest.fixture
def updates() -> UpdateFactory:
    return FakeTelegram().updates


def read(data: dict[str, Any]) -> Update:
    return Update.de_json(data, None)


def test_text_is_a_text_answer_without_step_or_version(updates: UpdateFactory) -> None:
    answer = answer_from_update(TURN, read(updates.text(ALICE, "12 Allen Avenue")))
    assert answer == TextAnswer(text="12 Allen Avenue")
    assert answer.step is None and answer.version is None


@pytest.mark.parametrize("name", ["back", "cancel", "help", "skip", "done"])
def test_navigation_commands(updates: UpdateFactory, name: str) -> None:
    assert answer_from_update(TURN, read(updates.command(ALICE, name))) == CommandAnswer(name=name)  # type: ignore[arg-type]


def test_commands_addressed_to_this_bot_count_and_to_another_bot_do_not(
    updates: UpdateFactory,
) -> None:
    mine = read(updates.command(ALICE, "done", chat=GROUP, mention_bot=True))
    assert answer_from_update(TURN, mine, bot_username="FAKE_delivery_bot") == CommandAnswer(
        name="done"
    )
    theirs = updates.command(ALICE, "done", chat=GROUP)
    message = theirs["message"]
    message["text"] = "/done@other_bot"
    message["entities"][0]["length"] = len("/done@other_bot")
    assert answer_from_update(TURN, read(theirs), bot_username="fake_delivery_bot") is None
    # Without the bot's username every addressee is taken.
    assert answer_from_update(TURN, read(theirs)) == CommandAnswer(name="done")


def test_other_commands_are_left_to_their_handlers(updates: UpdateFactory) -> None:
    assert answer_from_update(TURN, read(updates.command(ALICE, "start", "otp_abc"))) is None
    assert answer_from_update(TURN, read(updates.command(ALICE, "status"))) is None


def test_a_command_is_read_with_its_payload_and_case(updates: UpdateFactory) -> None:
    update = read(updates.command(ALICE, "Start", "ref_42"))
    assert update.message is not None
    assert command_in(update.message) == ("start", None)
    assert answer_from_update(TURN, read(updates.command(ALICE, "DONE"))) == CommandAnswer(
        name="done"
    )


def test_text_that_only_starts_with_a_slash_is_text(updates: UpdateFactory) -> None:
    assert answer_from_update(TURN, read(updates.text(ALICE, "/ 12 Allen Ave"))) == TextAnswer(
        text="/ 12 Allen Ave"
    )


def test_the_customers_own_contact(updates: UpdateFactory) -> None:
    update = read(updates.contact(ALICE, "2348031234567"))
    assert answer_from_update(TURN, update) == ContactAnswer(
        phone="2348031234567", first_name="Alice", last_name="Obi", user_id=ALICE.id
    )
    assert is_own_contact(update)


def test_someone_elses_contact_keeps_their_user_id(updates: UpdateFactory) -> None:
    update = read(
        updates.contact(ALICE, "+2348039999999", first_name="Carol", last_name="Eze", user_id=1003)
    )
    answer = answer_from_update(TURN, update)
    assert answer == ContactAnswer(
        phone="+2348039999999", first_name="Carol", last_name="Eze", user_id=1003
    )
    assert not is_own_contact(update)


def test_a_contact_that_is_not_a_telegram_user(updates: UpdateFactory) -> None:
    update = read(updates.contact(ALICE, "08031234567", first_name="Dan", user_id=None))
    assert answer_from_update(TURN, update) == ContactAnswer(phone="08031234567", first_name="Dan")
    assert not is_own_contact(update)
    assert not is_own_contact(read(updates.text(ALICE, "hi")))


def test_a_location(updates: UpdateFactory) -> None:
    update = read(updates.location(ALICE, 6.5244, 3.3792, horizontal_accuracy=20))
    assert answer_from_update(TURN, update) == LocationAnswer(lat=6.5244, lng=3.3792)


def test_a_venue_fills_the_address(updates: UpdateFactory) -> None:
    data = updates.location(ALICE, 6.4281, 3.4219)
    pin = data["message"]["location"]
    data["message"]["venue"] = {
        "location": pin,
        "title": "Eko Hotel",
        "address": "Adetokunbo Ademola St",
    }
    assert answer_from_update(TURN, read(data)) == LocationAnswer(
        lat=6.4281, lng=3.4219, address="Eko Hotel, Adetokunbo Ademola St"
    )


def test_venue_addresses_do_not_repeat_the_name() -> None:
    assert venue_address("Shoprite", "Shoprite, Lekki Phase 1") == "Shoprite, Lekki Phase 1"
    assert venue_address(" ", "1 Admiralty  Way") == "1 Admiralty Way"
    assert venue_address("Ozone", "") == "Ozone"


def test_a_photo_is_handed_on_as_its_largest_size(updates: UpdateFactory) -> None:
    data = updates.photo(ALICE, [JPEG[:10], JPEG, JPEG[:20]])
    sizes = data["message"]["photo"]
    widest = max(sizes, key=lambda s: s["width"])
    answer = answer_from_update(TURN, read(data))
    assert answer == IncomingPhoto(widest["file_id"], widest["file_size"])


def test_an_image_sent_as_a_file_is_handed_on_with_its_declared_type(
    updates: UpdateFactory,
) -> None:
    data = updates.text(ALICE, "x")
    message = data["message"]
    del message["text"]
    message["document"] = {
        "file_id": "BQAC-doc",
        "file_unique_id": "AgAD-doc",
        "file_name": "package.png",
        "mime_type": "image/png",
        "file_size": 2048,
    }
    assert answer_from_update(TURN, read(data)) == IncomingPhoto("BQAC-doc", 2048, "image/png")


def test_stickers_edits_and_taps_are_not_answers(updates: UpdateFactory) -> None:
    data = updates.text(ALICE, "x")
    message = data["message"]
    del message["text"]
    message["sticker"] = {
        "file_id": "CAAC",
        "file_unique_id": "AgAD",
        "type": "regular",
        "width": 512,
        "height": 512,
        "is_animated": False,
        "is_video": False,
    }
    assert answer_from_update(TURN, read(data)) is None

    edited = updates.text(ALICE, "typo fixed")
    edited["edited_message"] = edited.pop("message")
    assert answer_from_update(TURN, read(edited)) is None

    tap = {
        "update_id": 5,
        "callback_query": {
            "id": "1",
            "from": ALICE.to_json(),
            "chat_instance": "1",
            "data": "q1:o:AAAAAAAA:1:0",
        },
    }
    assert answer_from_update(TURN, read(tap)) is None
