"""parse_line: what a typed line means, given the open question."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.parse import (
    OpenHandoff,
    PhotoFiles,
    Unclear,
    parse_line,
)
from bot.ordering.typed_requests import (
    AskStatus,
    CancelDelivery,
    ListDeliveries,
    NewOrder,
    RepeatLast,
)
from conversations import (
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    LocationAnswer,
    Option,
    PhotoCount,
    Prompt,
    TextAnswer,
)
from tests.support.words import SHIPPED

CHOICE = Prompt(
    step="package_size",
    version=7,
    text="How big is it?",
    input="choice",
    accepts=("choice",),
    options=(Option(id="small", label="Small"), Option(id="large", label="Large")),
    default="small",
)
PHONE = Prompt(step="sender_phone", version=3, text="Phone?", input="phone", accepts=("text",))
PHOTOS = Prompt(
    step="photos",
    version=9,
    text="Photos?",
    input="photos",
    accepts=("photos",),
    photos=PhotoCount(have=0, min=1, max=6),
)
SUMMARY = Prompt(
    step="summary",
    version=12,
    text="Please check",
    input="confirm",
    accepts=("choice",),
    options=(
        Option(id="confirm", label="Confirm and send"),
        Option(id="edit:receiver_phone", label="Change receiver's phone"),
    ),
)


def test_a_number_picks_an_option_like_a_tapped_button() -> None:
    assert parse_line(SHIPPED, " 2 ", CHOICE) == ChoiceAnswer(
        option="large", step="package_size", version=7
    )


def test_a_number_is_text_where_numbers_are_answers() -> None:
    rooms = Prompt(
        step="dropoff_unit", version=4, text="Which room?", input="choice",
        accepts=("choice", "text"), options=(Option(id="A001", label="A001"),),
        numbers_are_values=True,
    )  # fmt: skip
    assert parse_line(SHIPPED, "1", rooms) == TextAnswer(text="1")
    assert parse_line(SHIPPED, "12", rooms) == TextAnswer(text="12")


def test_a_number_out_of_range_is_text() -> None:
    assert parse_line(SHIPPED, "3", CHOICE) == TextAnswer(text="3")
    assert parse_line(SHIPPED, "08031234567", PHONE) == TextAnswer(text="08031234567")


def test_an_empty_line_takes_the_default_or_does_nothing() -> None:
    assert parse_line(SHIPPED, "", CHOICE) == ChoiceAnswer(
        option="small", step="package_size", version=7
    )
    assert parse_line(SHIPPED, "   ", PHONE) is None


@pytest.mark.parametrize("typed", ["back", "BACK", "/back"])
def test_commands_carry_the_question_they_answer(typed: str) -> None:
    assert parse_line(SHIPPED, typed, PHONE) == CommandAnswer(
        name="back", step="sender_phone", version=3
    )


def test_every_navigation_command() -> None:
    for name in ("back", "cancel", "help", "done", "skip"):
        parsed = parse_line(SHIPPED, name, PHONE)
        assert isinstance(parsed, CommandAnswer) and parsed.name == name


def test_a_command_word_inside_a_sentence_is_text() -> None:
    assert parse_line(SHIPPED, "back door of the shop", PHONE) == TextAnswer(
        text="back door of the shop"
    )


def test_edit_by_step_name_or_by_title() -> None:
    wanted = ChoiceAnswer(option="edit:receiver_phone", step="summary", version=12)
    assert parse_line(SHIPPED, "edit receiver_phone", SUMMARY) == wanted
    assert parse_line(SHIPPED, "edit Receiver's phone", SUMMARY) == wanted
    assert parse_line(SHIPPED, "edit size", SUMMARY) == CommandAnswer(
        name="edit", target="size", step="summary", version=12
    )


def test_contact() -> None:
    assert parse_line(SHIPPED, "contact 08031234567 Ada Obi", PHONE) == ContactAnswer(
        phone="08031234567", first_name="Ada", last_name="Obi"
    )
    assert parse_line(SHIPPED, "contact +2348031234567", PHONE) == ContactAnswer(
        phone="+2348031234567"
    )
    assert isinstance(parse_line(SHIPPED, "contact Ada Obi", PHONE), Unclear)


@pytest.mark.parametrize(
    ("typed", "lat", "lng", "address"),
    [
        ("location 6.5244 3.3792", 6.5244, 3.3792, None),
        ("location 6.5244,3.3792", 6.5244, 3.3792, None),
        ("location -6.5, -3.25 5 Awolowo Road, Ikoyi", -6.5, -3.25, "5 Awolowo Road, Ikoyi"),
    ],
)
def test_location(typed: str, lat: float, lng: float, address: str | None) -> None:
    assert parse_line(SHIPPED, typed, PHONE) == LocationAnswer(lat=lat, lng=lng, address=address)


def test_a_location_without_numbers_says_how_to_type_it() -> None:
    parsed = parse_line(SHIPPED, "location Yaba", PHONE)
    assert isinstance(parsed, Unclear) and "location 6.5244 3.3792" in parsed.message


def test_photo_paths_on_a_photo_question(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"x")
    (tmp_path / "b c.jpg").write_bytes(b"x")
    parsed = parse_line(SHIPPED, "a.png 'b c.jpg'", PHOTOS, base_dir=tmp_path)
    assert parsed == PhotoFiles((tmp_path / "a.png", tmp_path / "b c.jpg"))
    absolute = parse_line(SHIPPED, str(tmp_path / "a.png"), PHOTOS, base_dir=Path("/nowhere"))
    assert absolute == PhotoFiles((tmp_path / "a.png",))


def test_missing_photo_files_are_named(tmp_path: Path) -> None:
    parsed = parse_line(SHIPPED, "a.png gone.png " + "x" * 300, PHOTOS, base_dir=tmp_path)
    assert isinstance(parsed, Unclear)
    assert "a.png, gone.png" in parsed.message


def test_paths_are_text_on_other_questions(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"x")
    assert parse_line(SHIPPED, "a.png", PHONE, base_dir=tmp_path) == TextAnswer(text="a.png")


def test_new_order_and_no_question() -> None:
    assert parse_line(SHIPPED, "new", None) == NewOrder()
    assert parse_line(SHIPPED, "/start", CHOICE) == NewOrder()
    assert parse_line(SHIPPED, "new return_parcel", CHOICE) == NewOrder("return_parcel")
    assert parse_line(SHIPPED, "/new  errand ", None) == NewOrder("errand")
    # Not a flow's name: the words are an answer.
    assert parse_line(SHIPPED, "new phone case", None) == TextAnswer(text="new phone case")
    assert parse_line(SHIPPED, "new Return", None) == TextAnswer(text="new Return")
    assert parse_line(SHIPPED, "hello", None) == TextAnswer(text="hello")
    assert parse_line(SHIPPED, "", None) is None


def test_repeat_asks_for_the_last_order_again() -> None:
    assert parse_line(SHIPPED, "repeat", CHOICE) == RepeatLast()
    assert parse_line(SHIPPED, "/Repeat", None) == RepeatLast()
    assert parse_line(SHIPPED, "repeat the shoes", None) == TextAnswer(text="repeat the shoes")


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ("status", AskStatus()),
        ("/status 3F2A9C1E", AskStatus("3F2A9C1E")),
        ("STATUS 3f2a9c1e", AskStatus("3f2a9c1e")),
        ("deliveries", ListDeliveries()),
        ("/deliveries 3", ListDeliveries(3)),
        ("cancel_delivery", CancelDelivery("", "")),
        ("cancel_delivery 3F2A9C1E", CancelDelivery("3F2A9C1E", "")),
        (
            "/cancel_delivery 3F2A9C1E  I ordered it twice ",
            CancelDelivery("3F2A9C1E", "I ordered it twice"),
        ),
        ("/start otp_" + "a" * 43, OpenHandoff("a" * 43)),
        ("start otp_abc", OpenHandoff("abc")),
    ],
)
def test_the_customer_desk_commands_work_whatever_is_asked(line: str, meant: object) -> None:
    for prompt in (None, CHOICE, PHONE, PHOTOS):
        assert parse_line(SHIPPED, line, prompt) == meant


def test_desk_words_in_a_sentence_are_an_answer() -> None:
    assert parse_line(SHIPPED, "status symbol of mine", PHONE) == TextAnswer(
        text="status symbol of mine"
    )
    assert parse_line(SHIPPED, "deliveries to Ikoyi", PHONE) == TextAnswer(
        text="deliveries to Ikoyi"
    )
    assert parse_line(SHIPPED, "/start somewhere else", None) == TextAnswer(
        text="/start somewhere else"
    )


def test_start_with_a_code_link_opens_the_handoff_and_with_a_word_names_a_flow() -> None:
    assert parse_line(SHIPPED, "/start otp_abc123", None) == OpenHandoff("abc123")
    assert parse_line(SHIPPED, "/start return_parcel", None) == NewOrder("return_parcel")


# --- every shipped language's words ---------------------------------------------------------

GROUPED = SUMMARY.model_copy(
    update={
        "options": (
            Option(id="confirm", label="Confirm and send"),
            Option(id="change:people", label="Change people"),
        ),
        "changes": (Option(id="edit:receiver_phone", label="Change receiver's phone"),),
    }
)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("retour", "back"),
        ("annuler", "cancel"),
        ("Aide", "help"),
        ("/aide", "help"),
        ("passer", "skip"),
        ("fini", "done"),
        ("terminé", "done"),
        ("back", "back"),
    ],
)
def test_french_and_english_navigation_words(typed: str, name: str) -> None:
    assert parse_line(SHIPPED, typed, PHONE) == CommandAnswer(
        name=name, step="sender_phone", version=3
    )


def test_french_order_and_desk_words() -> None:
    assert parse_line(SHIPPED, "nouveau", PHONE) == NewOrder()
    assert parse_line(SHIPPED, "nouvelle return_parcel", PHONE) == NewOrder("return_parcel")
    assert parse_line(SHIPPED, "répéter", PHONE) == RepeatLast()
    assert parse_line(SHIPPED, "repeter", PHONE) == RepeatLast()
    assert parse_line(SHIPPED, "statut 3F2A", PHONE) == AskStatus("3F2A")
    assert parse_line(SHIPPED, "livraisons 2", PHONE) == ListDeliveries(2)
    assert parse_line(SHIPPED, "annuler_livraison 3F2A erreur", PHONE) == CancelDelivery(
        "3F2A", "erreur"
    )
    assert parse_line(SHIPPED, "position 6.5 3.3", PHONE) == LocationAnswer(lat=6.5, lng=3.3)


def test_a_field_behind_a_group_is_changed_by_its_step_or_its_words() -> None:
    wanted = ChoiceAnswer(option="edit:receiver_phone", step="summary", version=12)
    assert parse_line(SHIPPED, "edit receiver_phone", GROUPED) == wanted
    assert parse_line(SHIPPED, "modifier receiver_phone", GROUPED) == wanted
    assert parse_line(SHIPPED, "edit receiver's phone", GROUPED) == wanted
    assert parse_line(SHIPPED, "2", GROUPED) == ChoiceAnswer(
        option="change:people", step="summary", version=12
    )


def test_once_the_order_ended_status_cancel_and_where_is_my_parcel_are_the_desks() -> None:
    for typed in ("statut", "status", "Où est mon colis ?", "where's my parcel?", "état"):
        assert parse_line(SHIPPED, typed, None) == AskStatus(), typed
    assert parse_line(SHIPPED, "annuler", None) == CancelDelivery("", "")
    assert parse_line(SHIPPED, "cancel", None) == CancelDelivery("", "")


def test_while_a_question_is_open_the_words_after_an_order_are_answers() -> None:
    assert parse_line(SHIPPED, "où est mon colis ?", PHONE) == TextAnswer(text="où est mon colis ?")
    assert parse_line(SHIPPED, "annuler", PHONE) == CommandAnswer(
        name="cancel", step="sender_phone", version=3
    )
