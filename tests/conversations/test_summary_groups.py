"""The summary stays short: Confirm and a few "Change ..." groups, every field two taps away,
and no line for an empty answer nobody was asked."""

from __future__ import annotations

from conversations.dialog import BACK_TO_SUMMARY, EDIT_PREFIX, GROUP_PREFIX, PAGE_SIZE
from conversations.texts import dialogue as wording
from conversations.texts.taps import BUTTONS, for_channel
from tests.conversations.conftest import Chat
from tests.support.words import SHIPPED


async def fields_two_taps_away(chat: Chat) -> set[str]:
    """Every edit id the summary reaches: its own, and those of each group's menu."""
    assert chat.prompt is not None
    summary = chat.prompt
    reached = {o.id for o in summary.options if o.id.startswith(EDIT_PREFIX)}
    for group in [o.id for o in summary.options if o.id.startswith(GROUP_PREFIX)]:
        await chat.tap(group)
        menu = chat.prompt
        assert menu is not None and menu.step == "summary"
        assert menu.options[-1].id == BACK_TO_SUMMARY
        fields = {o.id for o in menu.options[:-1]}
        assert len(fields) > 1, f"{group} holds one field: it should be that field's own option"
        reached |= fields
        await chat.tap(BACK_TO_SUMMARY)
        assert chat.prompt is not None and chat.prompt.text == summary.text
    return reached


async def test_the_summary_offers_at_most_8_choices_and_reaches_every_field(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    assert chat.prompt is not None
    labels = [o.label for o in chat.prompt.options]
    assert len(labels) <= PAGE_SIZE, labels
    assert labels[0] == "Confirm and send"
    assert "Change people" in labels and "Change places" in labels
    changes = set(chat.change_ids())
    assert len(changes) > PAGE_SIZE  # many fields, behind few choices
    assert await fields_two_taps_away(chat) == changes


async def test_a_field_of_a_group_is_changed_and_the_summary_comes_back(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    await chat.tap("Change people")
    assert chat.prompt is not None
    assert chat.prompt.text == "What would you like to change?"
    assert "Change receiver's phone" in [o.label for o in chat.prompt.options]
    await chat.tap("Change receiver's phone")
    assert chat.step == "receiver_phone"
    await chat.say("0809 999 8888")
    assert chat.step == "summary"
    assert chat.prompt is not None
    assert "• Receiver's phone: +2348099998888" in chat.prompt.text
    assert chat.prompt.options[0].label == "Confirm and send"  # the summary, not the menu


async def test_a_group_is_opened_by_typing_its_name_and_left_with_back(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    summary = chat.prompt
    assert summary is not None
    await chat.say("change people")
    assert chat.prompt is not None and chat.prompt.text == "What would you like to change?"
    await chat.command("back")
    assert chat.step == "summary"
    assert chat.prompt is not None and chat.prompt.text == summary.text
    assert chat.prompt.version > summary.version  # the menu's buttons are stale now


async def test_the_groups_menu_refuses_what_it_does_not_offer(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    await chat.tap("Change people")
    await chat.say("something else")
    assert for_channel(SHIPPED, wording.PICK_AN_OPTION.render(SHIPPED), BUTTONS) in chat.said
    assert chat.prompt is not None and chat.prompt.text == "What would you like to change?"


async def test_a_field_is_still_changed_straight_from_the_summary(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    assert "edit:receiver_phone" not in chat.option_ids()
    await chat.tap("edit:receiver_phone")
    assert chat.step == "receiver_phone"


async def test_an_email_nobody_asked_for_has_no_line_until_it_is_asked(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    assert chat.prompt is not None
    assert "Your email" not in chat.prompt.text
    assert "• Fragile: No" in chat.prompt.text  # a pre-set that says something keeps its line
    await chat.tap("edit:sender_email")
    await chat.command("skip")
    assert chat.step == "summary"
    assert chat.prompt is not None
    assert "• Your email: none" in chat.prompt.text  # asked, and left empty on purpose
