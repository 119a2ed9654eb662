"""Reply ids read back against the open question, and typed words read as commands."""

from __future__ import annotations

from bot.ordering.typed_requests import (
    AnswerQuote,
    AskPerson,
    AskStatus,
    CancelDelivery,
    ListDeliveries,
    NewOrder,
    RepeatLast,
)
from bot.whatsapp.reply_ids import (
    MenuWord,
    OwnNumber,
    PageTurn,
    StaleTap,
    TypedId,
    command_id,
    menu_id,
    option_id,
    own_number_id,
    page_id,
    read_tap,
)
from bot.whatsapp.words import (
    ShowMenu,
    read_words,
)
from conversations import ChoiceAnswer, CommandAnswer, Option, Prompt, TextAnswer
from tests.support.words import SHIPPED, said_in

SIZE = Prompt(
    step="package_size",
    version=4,
    text="How big is it?",
    input="choice",
    accepts=("choice",),
    options=(Option(id="small", label="Small"), Option(id="large", label="Large")),
    commands=("back",),
)
ROOMS = SIZE.model_copy(update={"step": "dropoff_unit", "numbers_are_values": True})
LATER = SIZE.model_copy(update={"version": 5})


def test_ids_read_back_as_what_they_stand_for_on_the_question_they_were_drawn_for() -> None:
    assert read_tap(option_id(SIZE, 1, "s"), SIZE, "s") == ChoiceAnswer(
        option="large", step="package_size", version=4
    )
    assert read_tap(command_id(SIZE, "back", "s"), SIZE, "s") == CommandAnswer(
        name="back", step="package_size", version=4
    )
    assert read_tap(page_id(SIZE, 1, "s"), SIZE, "s") == PageTurn(1)
    assert read_tap(own_number_id(SIZE, "s"), SIZE, "s") == OwnNumber()
    assert read_tap(menu_id("status"), None, None) == MenuWord("status")


def test_an_older_questions_ids_come_back_stale_for_the_engine_to_refuse() -> None:
    stale = read_tap(option_id(SIZE, 0, "s"), LATER, "s")
    assert stale == ChoiceAnswer(option="", step="package_size", version=4)
    other_order = read_tap(option_id(SIZE, 0, "s"), SIZE, "another-session")
    assert isinstance(other_order, ChoiceAnswer) and other_order.step.startswith("#")
    assert isinstance(read_tap(page_id(SIZE, 1, "s"), LATER, "s"), StaleTap)
    assert isinstance(read_tap(own_number_id(SIZE, "s"), None, None), StaleTap)


def test_ids_this_channel_did_not_make_are_read_as_words() -> None:
    for reply_id in (
        "quote keep 3F2A9C1E",
        "w1:o:short:1:0",
        "w1:k:format_disk",
        "w1:c:AAAAAAAA:4:zap",
    ):
        assert read_tap(reply_id, SIZE, "s") == TypedId(reply_id)
    past_the_end = option_id(SIZE, 1, "s")[:-1] + "9"  # no option 9 on this question
    assert read_tap(past_the_end, SIZE, "s") == TypedId(past_the_end)


def test_words_in_either_language_whatever_the_customers() -> None:
    french = said_in("fr")
    for catalogue in (SHIPPED, french):
        assert read_words(catalogue, "nouveau", None) == NewOrder()
        assert read_words(catalogue, "/new", SIZE) == NewOrder()
        assert read_words(catalogue, "Répéter", SIZE) == RepeatLast()
        assert read_words(catalogue, "humain", SIZE) == AskPerson()
        assert read_words(catalogue, "menu", SIZE) == ShowMenu()
        assert read_words(catalogue, "aide", None) == ShowMenu()
        assert read_words(catalogue, "help", SIZE) == CommandAnswer(
            name="help", step="package_size", version=4
        )
        assert read_words(catalogue, "retour", SIZE) == CommandAnswer(
            name="back", step="package_size", version=4
        )
        assert read_words(catalogue, "statut 3F2A9C1E", SIZE) == AskStatus("3F2A9C1E")
        assert read_words(catalogue, "livraisons 2", SIZE) == ListDeliveries(2)
        assert read_words(catalogue, "annuler_livraison 3F2A9C1E twice", SIZE) == CancelDelivery(
            "3F2A9C1E", "twice"
        )
        assert read_words(catalogue, "où est mon colis ?", None) == AskStatus()
        assert read_words(catalogue, "annuler", None) == CancelDelivery("", "")
        assert read_words(catalogue, "quote keep 3F2A9C1E", SIZE) == AnswerQuote("keep", "3F2A9C1E")


def test_a_number_is_an_option_unless_numbers_are_the_answers() -> None:
    assert read_words(SHIPPED, "2", SIZE) == ChoiceAnswer(
        option="large", step="package_size", version=4
    )
    assert read_words(SHIPPED, "12", SIZE) == TextAnswer(text="12")
    assert read_words(SHIPPED, "2", ROOMS) == TextAnswer(text="2")
    assert read_words(SHIPPED, "status of my parcel please", SIZE) == TextAnswer(
        text="status of my parcel please"
    )
    assert read_words(SHIPPED, "   ", SIZE) is None
