"""Rendering turns: escaped HTML, inline keyboards, paging, and reply keyboards for sharing."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove

from bot.telegram.callbacks import PageTurn, resolve
from bot.telegram.turn_messages import (
    SHARE_HINTS,
    OutgoingMessage,
    render_answered,
    render_prompt,
    render_turn,
    reply_answer,
)
from conversations import (
    CONFIRM,
    KEEP,
    ChoiceAnswer,
    CommandAnswer,
    Option,
    PhotoCount,
    Prompt,
    TextAnswer,
    Turn,
)
from conversations.texts.taps import tap
from tests.support.words import SHIPPED, say


def prompt(**fields: Any) -> Prompt:
    values: dict[str, Any] = {
        "step": "package_size",
        "version": 4,
        "text": "How big is it?",
        "input": "choice",
        "accepts": ("choice",),
    }
    values.update(fields)
    return Prompt.model_validate(values)


def options(count: int, *, detail: bool = False) -> tuple[Option, ...]:
    return tuple(
        Option(id=f"opt-{i}", label=f"Option {i}", detail=f"detail {i}" if detail else None)
        for i in range(count)
    )


def inline(message: OutgoingMessage) -> list[list[str]]:
    assert isinstance(message.markup, InlineKeyboardMarkup)
    return [[button.text for button in row] for row in message.markup.inline_keyboard]


def reply_buttons(message: OutgoingMessage) -> list[dict[str, Any]]:
    assert isinstance(message.markup, ReplyKeyboardMarkup)
    return [button.to_dict() for row in message.markup.keyboard for button in row]


def the_prompt(turn: Turn, **kwargs: Any) -> OutgoingMessage:
    drawn = render_turn(SHIPPED, turn, **kwargs)
    assert drawn.prompt_index is not None
    return drawn.messages[drawn.prompt_index]


# --- every input kind ---------------------------------------------------------------------------


def test_choice_options_one_per_row_with_the_default_marked() -> None:
    asked = prompt(options=options(3), default="opt-1")
    message = the_prompt(Turn(prompt=asked))
    assert message.text == "How big is it?"
    assert inline(message) == [["Option 0"], ["✓ Option 1"], ["Option 2"]]


def test_option_details_are_listed_in_the_text() -> None:
    message = the_prompt(Turn(prompt=prompt(options=options(2, detail=True))))
    assert message.text == "How big is it?\n\n• Option 0: detail 0\n• Option 1: detail 1"


def test_a_text_step_without_shortcuts_has_no_keyboard() -> None:
    drawn = render_turn(SHIPPED, Turn(prompt=prompt(input="text", accepts=("text",), text="Name?")))
    assert drawn.messages == (OutgoingMessage("Name?"),)
    assert drawn.prompt_index == 0 and drawn.reply_keyboard == ()


def test_a_text_step_offers_keep_as_a_shortcut() -> None:
    keep = Option(id=KEEP, label="Keep: Ada Obi")
    asked = prompt(input="text", accepts=("text",), options=(keep,), commands=("back",))
    assert inline(the_prompt(Turn(prompt=asked))) == [["Keep: Ada Obi"], ["↩ Back"]]


@pytest.mark.parametrize("kind", ["phone", "contact"])
def test_phone_and_contact_steps_ask_for_a_contact_with_a_reply_keyboard(kind: str) -> None:
    asked = prompt(input=kind, accepts=("text", "contact"), text="Receiver's phone?")
    drawn = render_turn(SHIPPED, Turn(prompt=asked))
    (message,) = drawn.messages
    assert message.text == "Receiver's phone?"
    assert reply_buttons(message) == [{"text": "📱 Share my contact", "request_contact": True}]
    assert drawn.reply_keyboard == ("contact",)


def test_a_place_step_with_saved_places_draws_them_on_its_reply_keyboard() -> None:
    saved = (Option(id="saved:1", label="Home", detail="12 Allen Ave"),)
    asked = prompt(
        input="place",
        accepts=("location", "choice"),
        options=saved,
        default="saved:1",
        commands=("back",),
        text="Where?",
    )
    drawn = render_turn(SHIPPED, Turn(messages=("Noted.",), prompt=asked))
    (message,) = drawn.messages
    assert drawn.prompt_index == 0 and drawn.reply_keyboard == ("location",)
    assert message.text == "Noted.\n\nWhere?\n\n• Home: 12 Allen Ave"
    assert reply_buttons(message) == [
        {"text": "📍 Share my location", "request_location": True},
        {"text": "✓ Home"},
        {"text": "↩ Back"},
    ]


def test_a_reply_keyboard_button_reads_back_as_the_tap_it_stands_for() -> None:
    saved = (Option(id="saved:1", label="Home"),)
    asked = prompt(
        input="place",
        accepts=("location", "choice", "text"),
        options=saved,
        default="saved:1",
        commands=("back",),
    )
    assert reply_answer(SHIPPED, asked, "✓ Home") == ChoiceAnswer(
        option="saved:1", step=asked.step, version=4
    )
    assert reply_answer(SHIPPED, asked, "↩ Back") == CommandAnswer(
        name="back", step=asked.step, version=4
    )
    assert reply_answer(SHIPPED, asked, "Home") is None  # typed: the engine reads it
    assert reply_answer(SHIPPED, prompt(options=saved), "Home") is None  # an inline prompt's label


def test_a_paged_place_step_keeps_its_inline_keyboard_and_puts_the_location_button_on_a_hint() -> (
    None
):
    asked = prompt(
        input="place", accepts=("location", "choice"), options=options(12), text="Where?"
    )
    assert asked.paged
    drawn = render_turn(SHIPPED, Turn(prompt=asked))
    first, hint = drawn.messages
    assert drawn.prompt_index == 0
    assert isinstance(first.markup, InlineKeyboardMarkup)
    assert hint.text == say(SHARE_HINTS[("location",)])
    assert reply_buttons(hint) == [{"text": "📍 Share my location", "request_location": True}]
    assert drawn.reply_keyboard == ("location",)


def test_a_paged_place_step_puts_the_location_button_on_a_note_before_it_when_there_is_one() -> (
    None
):
    asked = prompt(input="place", accepts=("location", "choice", "text"), options=options(12))
    drawn = render_turn(SHIPPED, Turn(messages=("Noted.",), prompt=asked))
    note, question = drawn.messages
    assert reply_buttons(note)[0]["request_location"] is True
    assert isinstance(question.markup, InlineKeyboardMarkup)


def test_a_photos_step_shows_done_and_skip() -> None:
    asked = prompt(
        input="photos",
        accepts=("photos",),
        commands=("back", "skip", "done"),
        photos=PhotoCount(have=1, min=0, max=6),
        text="Send photos of the package.",
    )
    assert inline(the_prompt(Turn(prompt=asked))) == [["↩ Back", "Skip", "Done"]]


def test_the_summary_offers_confirm_and_changes() -> None:
    asked = prompt(
        step="summary",
        input="confirm",
        text="Pickup: 12 Allen Ave\nSize: small",
        options=(
            Option(id=CONFIRM, label="Confirm order"),
            Option(id="edit:package_size", label="Change package size"),
        ),
        commands=("back", "help", "cancel", "skip"),
    )
    message = the_prompt(Turn(prompt=asked))
    assert message.text == "Pickup: 12 Allen Ave\nSize: small"
    assert inline(message) == [
        ["Confirm order"],
        ["Change package size"],
        ["↩ Back", "Help", "Cancel"],
        ["Skip"],
    ]


def test_buttons_resolve_back_to_the_answers_they_stand_for() -> None:
    asked = prompt(options=options(2), commands=("back",))
    markup = the_prompt(Turn(prompt=asked), session_id="s-1").markup
    assert isinstance(markup, InlineKeyboardMarkup)
    (first,), _, (back,) = markup.inline_keyboard
    assert resolve(first.callback_data, asked, session_id="s-1") == ChoiceAnswer(  # type: ignore[arg-type]
        option="opt-0", step="package_size", version=4
    )
    assert resolve(back.callback_data, asked, session_id="s-1") == CommandAnswer(  # type: ignore[arg-type]
        name="back", step="package_size", version=4
    )


# --- escaping and long text ---------------------------------------------------------------------


def test_everything_the_engine_says_is_escaped_and_button_labels_stay_plain() -> None:
    asked = prompt(
        text="Is <b>this</b> & that right?",
        options=(Option(id="a", label="A <3 & co", detail="<i>x</i>"),),
    )
    drawn = render_turn(SHIPPED, Turn(messages=("Fish & <chips>",), prompt=asked))
    (question,) = drawn.messages
    assert question.text == (
        "Fish &amp; &lt;chips&gt;\n\n"
        "Is &lt;b&gt;this&lt;/b&gt; &amp; that right?\n\n• A &lt;3 &amp; co: &lt;i&gt;x&lt;/i&gt;"
    )
    assert inline(question) == [["A <3 & co"]]


def test_blank_messages_are_dropped() -> None:
    assert render_turn(SHIPPED, Turn(messages=("", "Hi", "  "))).messages == (
        OutgoingMessage("Hi"),
    )


# --- one message per turn where the keyboards allow ---------------------------------------------


def test_a_turns_notices_and_its_prompt_are_one_message_with_the_keyboard() -> None:
    asked = prompt(options=options(2))
    drawn = render_turn(SHIPPED, Turn(messages=("Got 1 photo.", "Nice."), prompt=asked))
    (message,) = drawn.messages
    assert message.text == "Got 1 photo.\n\nNice.\n\nHow big is it?"
    assert inline(message) == [["Option 0"], ["Option 1"]] and drawn.prompt_index == 0


def test_notices_without_a_prompt_are_one_message() -> None:
    drawn = render_turn(
        SHIPPED, Turn(messages=("Done!", "A rider is on the way.", "Track it here: x"))
    )
    assert drawn.messages == (
        OutgoingMessage("Done!\n\nA rider is on the way.\n\nTrack it here: x"),
    )
    assert drawn.prompt_index is None


def test_a_long_turn_is_split_and_the_keyboard_stays_on_the_last_piece() -> None:
    asked = prompt(options=options(1))
    drawn = render_turn(SHIPPED, Turn(messages=("n" * 3000, "o" * 3000), prompt=asked))
    assert [m.text[0] for m in drawn.messages] == ["n", "o"]
    assert drawn.messages[-1].text.endswith("How big is it?")
    assert drawn.messages[0].markup is None and inline(drawn.messages[1]) == [["Option 0"]]
    assert drawn.prompt_index == 1


def test_a_long_prompt_keeps_its_keyboard_on_the_last_piece() -> None:
    asked = prompt(text="x" * 5000, options=options(1))
    drawn = render_turn(SHIPPED, Turn(prompt=asked))
    assert len(drawn.messages) == 2 and drawn.prompt_index == 1
    assert drawn.messages[0].markup is None and inline(drawn.messages[1]) == [["Option 0"]]


# --- paging -------------------------------------------------------------------------------------


def test_long_lists_are_paged_eight_at_a_time() -> None:
    asked = prompt(options=options(20), commands=("back",))
    first = the_prompt(Turn(prompt=asked))
    assert inline(first) == [[f"Option {i}"] for i in range(8)] + [["Next ›"], ["↩ Back"]]
    assert first.text.endswith("Page 1 of 3")

    middle = render_prompt(SHIPPED, asked, page=1)
    assert inline(middle)[:8] == [[f"Option {i}"] for i in range(8, 16)]
    assert inline(middle)[8] == ["‹ Prev", "Next ›"]
    assert middle.text.endswith("Page 2 of 3")

    last = render_prompt(SHIPPED, asked, page=2)
    assert inline(last) == [[f"Option {i}"] for i in range(16, 20)] + [["‹ Prev"], ["↩ Back"]]
    with pytest.raises(IndexError):
        render_prompt(SHIPPED, asked, page=3)


def test_page_buttons_turn_to_their_pages() -> None:
    asked = prompt(options=options(20))
    markup = render_prompt(SHIPPED, asked, page=1).markup
    assert isinstance(markup, InlineKeyboardMarkup)
    prev, following = markup.inline_keyboard[8]
    assert resolve(prev.callback_data, asked) == PageTurn(0)  # type: ignore[arg-type]
    assert resolve(following.callback_data, asked) == PageTurn(2)  # type: ignore[arg-type]


def test_a_paged_list_opens_on_the_page_of_the_default() -> None:
    asked = prompt(options=options(20), default="opt-12")
    message = the_prompt(Turn(prompt=asked))
    assert ["✓ Option 12"] in inline(message)
    assert message.text.endswith("Page 2 of 3")


def test_eight_options_are_not_paged() -> None:
    message = the_prompt(Turn(prompt=prompt(options=options(8))))
    assert len(inline(message)) == 8 and "Page" not in message.text


def test_only_the_shown_pages_details_are_listed() -> None:
    asked = prompt(options=options(10, detail=True))
    text = render_prompt(SHIPPED, asked, page=1).text
    assert "detail 8" in text and "detail 9" in text and "detail 7" not in text


# --- reply keyboards over several turns ----------------------------------------------------------


def test_a_sharing_prompt_carries_its_keyboard_even_when_unchanged() -> None:
    asked = prompt(input="place", accepts=("location",), text="Where?")
    drawn = render_turn(
        SHIPPED, Turn(messages=("Not a real place.",), prompt=asked), reply_keyboard=("location",)
    )
    (message,) = drawn.messages
    assert message.text == "Not a real place.\n\nWhere?"
    assert reply_buttons(message) == [{"text": "📍 Share my location", "request_location": True}]
    assert drawn.reply_keyboard == ("location",)


def test_leaving_a_sharing_step_removes_the_keyboard_on_a_plain_message() -> None:
    asked = prompt(input="text", accepts=("text",), text="Address at this pin?")
    drawn = render_turn(SHIPPED, Turn(prompt=asked), reply_keyboard=("location",))
    (message,) = drawn.messages
    assert isinstance(message.markup, ReplyKeyboardRemove)
    assert drawn.reply_keyboard == ()


def test_a_prompt_without_buttons_carries_the_notices_and_the_new_reply_keyboard() -> None:
    asked = prompt(input="phone", accepts=("text", "contact"), text="Receiver's phone?")
    drawn = render_turn(SHIPPED, Turn(messages=("Noted.",), prompt=asked))
    (message,) = drawn.messages
    assert message.text == "Noted.\n\nReceiver's phone?"
    assert reply_buttons(message)[0]["request_contact"] is True


def test_leaving_for_a_prompt_with_buttons_removes_the_keyboard_with_a_short_note() -> None:
    asked = prompt(options=options(2))
    drawn = render_turn(SHIPPED, Turn(prompt=asked), reply_keyboard=("location",))
    note, question = drawn.messages
    assert note.text == say("telegram.keyboard_removed") and isinstance(
        note.markup, ReplyKeyboardRemove
    )
    assert drawn.prompt_index == 1 and isinstance(question.markup, InlineKeyboardMarkup)


def test_a_conversation_that_ends_takes_the_keyboard_away_on_its_last_words() -> None:
    drawn = render_turn(
        SHIPPED,
        Turn(messages=("Cancelled.", "Bye."), status="cancelled"),
        reply_keyboard=("contact",),
    )
    (last_words,) = drawn.messages
    assert last_words.text == "Cancelled.\n\nBye."
    assert isinstance(last_words.markup, ReplyKeyboardRemove)
    assert drawn.prompt_index is None and drawn.reply_keyboard == ()


def test_with_nothing_to_send_the_keyboard_stays_as_it_was() -> None:
    drawn = render_turn(SHIPPED, Turn(), reply_keyboard=("contact",))
    assert drawn.messages == () and drawn.reply_keyboard == ("contact",)


def test_switching_from_contact_to_location_sends_the_new_keyboard() -> None:
    asked = prompt(input="place", accepts=("location",), text="Where?")
    drawn = render_turn(SHIPPED, Turn(prompt=asked), reply_keyboard=("contact",))
    assert reply_buttons(drawn.messages[0])[0]["request_location"] is True


def test_only_inline_or_plain_messages_are_editable() -> None:
    assert OutgoingMessage("x").editable
    assert OutgoingMessage("x", ReplyKeyboardRemove()).editable is False


# --- the prompt once answered -------------------------------------------------------------------


def test_an_answered_prompt_shows_the_tapped_choice_without_buttons() -> None:
    asked = prompt(options=options(2), text="Size <?>")
    answered = render_answered(SHIPPED, asked, ChoiceAnswer(option="opt-1"))
    assert answered == OutgoingMessage("Size &lt;?&gt;\n\n✓ Option 1")
    assert render_answered(SHIPPED, asked, CommandAnswer(name="skip")).text.endswith("✓ Skip")
    assert render_answered(SHIPPED, asked, TextAnswer(text="big")) == OutgoingMessage(
        "Size &lt;?&gt;"
    )
    assert render_answered(SHIPPED, asked) == OutgoingMessage("Size &lt;?&gt;")


def test_long_button_labels_are_cut_and_blank_ones_never_empty() -> None:
    asked = prompt(options=(Option(id="a", label="x" * 100), Option(id="b", label="  ")))
    long_label, blank = inline(the_prompt(Turn(prompt=asked)))
    assert long_label == ["x" * 59 + "…"] and blank == ["…"]


def test_telegram_says_tap_where_the_engine_asks_to_choose() -> None:
    asked = prompt(text=f"How big is it? {tap('!help', capital=True)} for tips.")
    turn = Turn(messages=(f"Send more or {tap('!done')}.",), prompt=asked)
    (message,) = render_turn(SHIPPED, turn).messages
    assert message.text == "Send more or tap Done.\n\nHow big is it? Tap Help for tips."
    assert render_answered(SHIPPED, asked).text == "How big is it? Tap Help for tips."


def test_a_long_composed_address_on_a_button_keeps_its_unit() -> None:
    address = "Moremi Hall — Block 4, Faculty Road, University of Lagos, Akoka, Yaba, Lagos — B012"
    asked = prompt(options=(Option(id="a", label=address),), default="a")
    [[label]] = inline(the_prompt(Turn(prompt=asked)))
    assert len(label) == 60
    assert label.startswith("✓ Moremi Hall — Block 4") and label.endswith("… — B012")
