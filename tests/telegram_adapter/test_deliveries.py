"""/status, /deliveries and /cancel_delivery through PTB's real Application, the fake Telegram
and the sandbox: a customer only ever sees and acts on their own deliveries."""

from __future__ import annotations

import uuid

import pytest

from bot.chat_ref import ChatRef
from conversations.texts.deliveries_texts import short_ref
from tests.fakes import TgChat, TgUser

from .handler_world import HandlerWorld

ALICE = TgUser(1001, "Alice", username="alice")
BOB = TgUser(1002, "Bob")
FRIENDS = TgChat.group(-100300, "Friends")
# The customer's sentences, word for word (CustomerDesk with TELEGRAM_WORDS words them).
UNKNOWN = "I can't find a delivery {ref} among yours. /deliveries lists them."
NONE_YET = "You have no deliveries yet. Send /new to order one."
PRIVATE_ONLY = "Please ask me in a private chat: your deliveries are not shown in groups."
NOT_YOUR_LIST = "This list belongs to someone else. Send /deliveries for yours."


async def test_status_without_an_id_shows_the_latest_delivery_in_plain_words(
    world: HandlerWorld,
) -> None:
    latest = await world.order(ALICE)
    reply = await world.ask(world.tg.updates.command(ALICE, "status"))
    assert reply.text is not None
    lines = reply.text.splitlines()
    assert lines[0] == f"Delivery {short_ref(latest.id)}"
    # The default scenario dispatches automatically to the nearby rider.
    assert lines[1] == "A rider (Tunde, motorbike) is assigned and heading to pickup."
    assert "Rider: Tunde Bakare (motorbike)" in lines
    fee = world.sandbox.delivery(latest.id)["payment"]["delivery_fee"]
    assert f"Fee: NGN {fee:,.0f}, not paid yet" in lines
    assert "From: 12 Herbert Macaulay Way, Yaba, Lagos" in lines
    assert lines[-1] == f"Track it here: {latest.tracking_url}"


async def test_status_takes_the_full_id_or_the_short_reference(world: HandlerWorld) -> None:
    first = await world.order(ALICE)
    second = await world.order(ALICE)  # the nearby rider is busy now: this one waits
    latest = await world.ask(world.tg.updates.command(ALICE, "status"))
    assert latest.text is not None
    assert latest.text.startswith(
        f"Delivery {short_ref(second.id)}\nYour delivery is booked and waiting for a rider.\n"
    )
    for typed in (first.id, short_ref(first.id), short_ref(first.id).lower()):
        reply = await world.ask(world.tg.updates.command(ALICE, "status", typed))
        assert reply.text is not None
        assert reply.text.startswith(f"Delivery {short_ref(first.id)}\n")


async def test_another_customers_delivery_is_answered_like_an_unknown_id(
    world: HandlerWorld,
) -> None:
    alices = await world.order(ALICE)
    elsewhere = await world.order(ALICE, linked=False)  # exists at the service, not ours
    calls = world.api_calls()
    answers = []
    for typed in (alices.id, short_ref(alices.id), elsewhere.id, str(uuid.uuid4())):
        reply = await world.ask(world.tg.updates.command(BOB, "status", typed))
        assert reply.text == UNKNOWN.format(ref=typed)
        answers.append(reply.text.replace(typed, "<id>"))
    assert len(set(answers)) == 1  # indistinguishable, whatever exists
    assert world.api_calls() == calls  # and not even looked up
    assert not any("Track it" in (m.text or "") for m in world.tg.sent_messages(BOB.id))


async def test_status_with_no_deliveries_says_so(world: HandlerWorld) -> None:
    reply = await world.ask(world.tg.updates.command(BOB, "status"))
    assert reply.text == NONE_YET


async def test_status_falls_back_to_the_last_known_view_when_the_service_fails(
    world: HandlerWorld,
) -> None:
    delivery = await world.order(ALICE)
    world.sandbox.inject_fault("get_delivery", "status", count=1, status=500, code="get_failed")
    reply = await world.ask(world.tg.updates.command(ALICE, "status"))
    assert reply.text is not None
    heading = f"Delivery {short_ref(delivery.id)}"
    assert reply.text.startswith(f"{heading}\nLast known status: rider assigned.")
    assert "couldn't reach the delivery service" in reply.text


async def test_customer_commands_are_not_answered_in_groups(world: HandlerWorld) -> None:
    await world.order(ALICE)
    for command in ("status", "deliveries", "cancel_delivery"):
        reply = await world.ask(world.tg.updates.command(ALICE, command, chat=FRIENDS))
        assert reply.text == PRIVATE_ONLY


async def link_fake_deliveries(world: HandlerWorld, user: TgUser, count: int) -> list[str]:
    """Deliveries linked in the store only: the list never asks the service."""
    ids = [str(uuid.uuid4()) for _ in range(count)]
    for minute, delivery_id in enumerate(ids):
        created = 1_800_000_000.0 + 60 * minute
        await world.store.deliveries.add(
            delivery_id, ChatRef("telegram", user.id), user.id, created, None, None
        )
    return ids[::-1]  # newest first, as listed


async def test_deliveries_are_the_customers_own_paged_with_buttons(world: HandlerWorld) -> None:
    newest_first = await link_fake_deliveries(world, ALICE, 7)
    bobs = await link_fake_deliveries(world, BOB, 1)
    calls = world.api_calls()
    first = await world.ask(world.tg.updates.command(ALICE, "deliveries"))
    assert first.text is not None
    assert first.text.splitlines()[0] == "Your deliveries (page 1 of 2):"
    assert [short_ref(i) in first.text for i in newest_first] == [True] * 5 + [False] * 2
    assert short_ref(bobs[0]) not in first.text
    assert first.button_texts == ["Next ›"]
    data = first.callback_data("Next ›")
    assert data.startswith("dl1:") and len(data.encode()) <= 64

    edits = len(world.tg.calls("editMessageText"))
    world.tg.push_update(world.tg.updates.tap(first, "Next ›"))
    await world.tg.wait_for_call("editMessageText", after=edits)
    second = world.tg.message(ALICE.id, first.message_id)
    assert second is not None
    assert second["text"].splitlines()[0] == "Your deliveries (page 2 of 2):"
    assert [short_ref(i) in second["text"] for i in newest_first] == [False] * 5 + [True] * 2
    buttons = second["reply_markup"]["inline_keyboard"][0]
    assert [b["text"] for b in buttons] == ["‹ Prev"]

    world.tg.push_update(world.tg.updates.tap(second, "‹ Prev"))
    await world.tg.wait_for_call("editMessageText", after=edits + 1)
    again = world.tg.message(ALICE.id, first.message_id)
    assert again is not None and again["text"] == first.text
    assert world.api_calls() == calls and world.errors == []


async def test_a_tap_on_someone_elses_list_is_refused(world: HandlerWorld) -> None:
    await link_fake_deliveries(world, ALICE, 6)
    await link_fake_deliveries(world, BOB, 6)
    alices = await world.ask(world.tg.updates.command(ALICE, "deliveries"))
    tap = world.tg.updates.callback_query(BOB, alices, alices.callback_data("Next ›"))
    world.tg.push_update(tap)
    answer = await world.tg.wait_for_call("answerCallbackQuery")
    assert answer.params.get("text") == NOT_YOUR_LIST
    assert world.tg.calls("editMessageText") == []


async def test_no_deliveries_yet(world: HandlerWorld) -> None:
    reply = await world.ask(world.tg.updates.command(ALICE, "deliveries"))
    assert reply.text == NONE_YET and reply.button_texts == []


@pytest.mark.parametrize(("reason", "length"), [("no", 2), ("  x ", 1), ("y" * 501, 501)])
async def test_a_cancel_reason_must_be_3_to_500_characters(
    world: HandlerWorld, reason: str, length: int
) -> None:
    delivery = await world.order(ALICE)
    text = f"/cancel_delivery {delivery.id} {reason}"
    update = world.tg.updates.command(ALICE, "cancel_delivery", f"{delivery.id} {reason}")
    assert update["message"]["text"] == text
    reply = await world.ask(update)
    assert reply.text is not None
    assert reply.text.startswith(
        f"Please give a reason of 3 to 500 characters (yours has {length})."
    )
    assert world.sandbox.delivery(delivery.id)["status"] == "matched"


async def test_cancel_without_arguments_explains_how(world: HandlerWorld) -> None:
    reply = await world.ask(world.tg.updates.command(ALICE, "cancel_delivery"))
    assert reply.text is not None and reply.text.startswith("To cancel, send /cancel_delivery")


async def test_a_customer_cancels_their_own_delivery(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    reason = "I ordered it twice " + "x" * (500 - 19)
    assert len(reason) == 500
    reply = await world.ask(
        world.tg.updates.command(ALICE, "cancel_delivery", f"{short_ref(delivery.id)} {reason}")
    )
    assert reply.text == f"Delivery {short_ref(delivery.id)} is cancelled."
    cancelled = world.sandbox.delivery(delivery.id)
    assert (cancelled["status"], cancelled["cancellation_reason"]) == ("cancelled", reason)


async def test_nobody_cancels_another_customers_delivery(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    calls = world.api_calls()
    reply = await world.ask(
        world.tg.updates.command(BOB, "cancel_delivery", f"{delivery.id} not mine really")
    )
    assert reply.text == UNKNOWN.format(ref=delivery.id)
    assert world.api_calls() == calls
    assert world.sandbox.delivery(delivery.id)["status"] == "matched"


async def test_cancel_after_pickup_is_explained(world: HandlerWorld) -> None:
    delivery = await world.order(ALICE)
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    world.sandbox.advance_status(delivery.id, "picked_up")
    reply = await world.ask(
        world.tg.updates.command(ALICE, "cancel_delivery", f"{delivery.id} changed my mind")
    )
    assert reply.text == (
        f"Delivery {short_ref(delivery.id)} can no longer be cancelled: "
        "the rider already has the package."
    )
    assert world.sandbox.delivery(delivery.id)["status"] == "picked_up"


async def test_a_tap_too_old_to_answer_still_turns_the_page(world: HandlerWorld) -> None:
    await link_fake_deliveries(world, ALICE, 6)
    first = await world.ask(world.tg.updates.command(ALICE, "deliveries"))
    too_old = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    world.tg.fail_next("answerCallbackQuery", error_code=400, description=too_old)
    world.tg.push_update(world.tg.updates.tap(first, "Next ›"))
    await world.tg.wait_for_call("editMessageText")
    await world.app.update_queue.join()
    page = world.tg.message(ALICE.id, first.message_id)
    assert page is not None and page["text"].startswith("Your deliveries (page 2 of 2):")
    assert world.errors == []
