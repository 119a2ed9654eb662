"""The reusable steps: amounts, lengths, emails, contacts, photos, a place group's names."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from conversations.dialog import Answer, ChoiceAnswer, CommandAnswer, PhotosAnswer, Turn
from conversations.flow import Invalid
from conversations.steps import place_steps
from conversations.steps.common import bounded, clean
from conversations.steps.typed import amount_value, parse_amount
from tests.support.words import SHIPPED


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("5000", 5000),
        ("5,000", 5000),
        ("NGN 5 000.50", 5000.5),
        ("₦5000", 5000),
        ("0", None),
        ("five", None),
        ("5.123", None),
        ("", None),
    ],
)
def test_amounts(typed, value):
    assert parse_amount(typed) == value


@pytest.mark.parametrize(
    ("stored", "value"),
    [(5000, 5000.0), (2500.5, 2500.5), (None, None), (True, None), ("5000", None)],
)
def test_an_amount_answer_reads_back_as_a_number(stored, value):
    assert amount_value(stored) == value


def test_texts_are_cleaned_and_bounded():
    assert clean("  Two \n books\t ") == "Two books"
    assert bounded(SHIPPED, "  ok  ", 1, 5) == "ok"
    assert isinstance(bounded(SHIPPED, " ", 1, 5), Invalid)
    too_long = bounded(SHIPPED, "x" * 6, 1, 5, what="name")
    assert isinstance(too_long, Invalid)
    assert too_long.reason == "Please keep the name under 5 characters (that was 6)."


def test_answers_round_trip_as_json_for_transcripts():
    adapter = TypeAdapter(Answer)
    for answer in (
        ChoiceAnswer(option="small", step="package_size", version=3),
        CommandAnswer(name="edit", target="photos"),
        PhotosAnswer(urls=["https://media.example/a.jpg"]),
    ):
        assert adapter.validate_json(adapter.dump_json(answer)) == answer


async def test_turns_round_trip_as_json_for_transcripts(chat):
    turn = await chat.start()
    stored = turn.model_dump_json()
    assert '"finished":false' in stored
    assert '"paged":false' in stored
    assert Turn.model_validate_json(stored) == turn


async def test_an_invalid_email_is_reasked_and_a_valid_one_kept(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    await chat.tap("saved:loc-gate")
    await chat.say("Ada Obi")
    await chat.say("08031234567")
    assert chat.session.answers["sender_email"] == ""  # pre-set: offered from the summary
    await chat.say("Bola Ade")
    await chat.say("08022223333")
    await chat.say("Books")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("cash_on_delivery")
    await chat.tap("edit:sender_email")
    await chat.say("ada@")
    assert "doesn't look like an email address" in chat.said
    await chat.say(" ada@example.com ")
    assert chat.session.answers["sender_email"] == "ada@example.com"


async def test_a_contact_without_a_usable_phone_still_gives_the_name(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    await chat.tap("saved:loc-gate")
    await chat.contact("12", "Ada", "Obi")
    assert "I couldn't use the phone number on that contact." in chat.said
    assert chat.step == "sender_phone"
    await chat.command("back")
    await chat.contact("+2348031234567", "", "")
    assert "That contact has no usable name" in chat.said


async def test_photos_are_counted_deduplicated_and_capped(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:photos")
    await chat.send(PhotosAnswer(urls=["http://insecure.example/a.jpg"]))
    assert "could not be received" in chat.said
    await chat.send(PhotosAnswer(urls=[f"https://media.example/p/{n}.jpg" for n in (1, 1, 2)]))
    assert "Got 2 photos." in chat.said  # the photos are the answer: no Done
    assert chat.step == "summary"
    assert len(chat.session.answers["photos"]) == 2
    await chat.tap("edit:photos")
    await chat.photos(8)
    assert "I kept the first 6. Got 6 photos." in chat.said
    assert chat.step == "summary"
    assert len(chat.session.answers["photos"]) == 6


async def test_an_amount_over_the_limit_is_refused(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:pod_amount")
    await chat.say("999999999")
    assert "Please type an amount up to NGN 5,000,000." in chat.said
    await chat.say("2500")
    assert "• Cash to collect: NGN 2,500" in chat.prompt.text


async def test_a_free_text_too_long_names_no_step_title(chat):
    await chat.start()
    await chat.tap("errand")
    await chat.tap("at_place")
    await chat.say("rice " * 250)
    assert chat.said == "Please keep the answer under 1000 characters (that was 1249)."
    assert chat.step == "errand_items"


def test_a_place_group_names_its_steps_as_attributes():
    home = place_steps(
        "home",
        title="Home",
        question="Where?",
        fields=("deliveryAddress", "deliveryCoords"),
        next="summary",
    )
    assert (home.first, home.place, home.unit) == ("home_place", "home_place", "home_unit")
    assert [s.name for s in home.steps] == [
        "home_place",
        "home_unit",
        "home_address",
        "home_confirm",
    ]
    shop = place_steps(
        "shop",
        title="Shop",
        question="Where?",
        fields=("pickupAddress", "pickupCoords"),
        next="summary",
        saved=False,
    )
    assert shop.unit is None  # no saved places, so no unit step to lead to
    assert [s.name for s in shop.steps] == [shop.place, shop.address, shop.confirm]
