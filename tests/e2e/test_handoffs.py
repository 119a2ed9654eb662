"""Talking to a person, end to end: a customer stuck at the drop-off place asks for one, an
operator takes the hand-off in the operators' group, answers, fills the place by sharing a
location (through the same guarded step), closes it, and the customer confirms the order."""

from __future__ import annotations

from typing import Any

from bot.chat_ref import ChatRef, UserRef
from bot.funnel.recorder import day_of
from bot.funnel.report import funnel_report, render_short, render_table
from tests.e2e.conftest import (
    ADA,
    ADA_PHONE,
    FORUM,
    OLU,
    OPERATORS,
    RECEIVER_PHONE,
    BotStack,
    MakeStack,
    tiny_png,
)
from tests.fakes import SentMessage, TgUser
from tests.support.words import SHIPPED, say

ADE = TgUser(1901, "Ade")  # a second operator in the group
LAGOS = (6.5244, 3.3792)
LONDON = (51.5072, -0.1276)  # far outside the service area


def as_reply(update: dict[str, Any], to: SentMessage) -> dict[str, Any]:
    """``update``'s message, made a Telegram reply to the bot's message ``to``."""
    update["message"]["reply_to_message"] = to.message
    return update


def card(stack: BotStack) -> SentMessage:
    """The hand-off card in the operators' group (the last one posted)."""
    cards = [m for m in stack.tg.sent_messages(OPERATORS.id) if "I'll answer" in m.button_texts]
    assert cards, "no hand-off card in the operators' group"
    return cards[-1]


def current_text(stack: BotStack, message: SentMessage) -> str:
    found = stack.tg.message(message.chat_id, message.message_id)
    assert found is not None
    return str(found.get("text", ""))


async def staff_says(stack: BotStack, user: TgUser, text: str, to: SentMessage) -> None:
    update = as_reply(stack.tg.updates.text(user, text, chat=OPERATORS), to)
    await stack.send(update)


async def at_the_dropoff_place(stack: BotStack) -> SentMessage:
    """Ada's order, answered up to the drop-off place; its question."""
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    await stack.location(ADA, 6.5095, 3.3711)
    await stack.text(ADA, "12 Herbert Macaulay Way, Yaba")
    prompt = stack.prompt(ADA.id)
    assert "UNILAG Main Gate" in prompt.button_texts
    return prompt


async def test_a_person_fills_the_place_and_the_order_goes_on(stack: BotStack) -> None:
    await at_the_dropoff_place(stack)

    (told,) = await stack.command(ADA, "human")
    assert told.text is not None and told.text.startswith("A person from our team will answer")
    (posted,) = stack.tg.sent_messages(OPERATORS.id)
    assert posted.text is not None and posted.text.startswith("#")
    ref = posted.text[1:7]
    assert "Who: Ada Obi" in posted.text and ADA_PHONE not in posted.text
    assert "Ordering: Pickup & delivery" in posted.text
    assert "Answers so far:" in posted.text and "12 Herbert Macaulay Way" in posted.text

    # Asking again while waiting opens no second hand-off.
    (again,) = await stack.command(ADA, "human")
    assert again.text == say("human.waiting")
    assert len(stack.tg.sent_messages(OPERATORS.id)) == 1

    # What Ada writes now goes to staff, not to the order.
    assert await stack.text(ADA, "I can't find my hostel in the list") == []
    relayed = stack.tg.sent_messages(OPERATORS.id)[-1]
    assert relayed.text == f"#{ref} customer: I can't find my hostel in the list"

    # Two operators press "I'll answer" at once: one owner, the other is told who has it.
    olu_tap = stack.tg.updates.tap(card(stack), "I'll answer", user=OLU)
    ade_tap = stack.tg.updates.tap(card(stack), "I'll answer", user=ADE)
    stack.tg.push_update(olu_tap)
    stack.tg.push_update(ade_tap)
    assert stack.processor is not None
    await stack.processor.processed(olu_tap["update_id"])
    await stack.processor.processed(ade_tap["update_id"])
    answers = {
        stack.tg.callback_answer(tap["callback_query"]["id"])["text"]  # type: ignore[index]
        for tap in (olu_tap, ade_tap)
    }
    handoff = await stack.bot.store.handoffs.get(ref)
    assert handoff is not None and handoff.state == "taken"
    owner = handoff.owner_name
    assert owner in ("Olu", "Ade")
    assert answers == {f"{owner} took #{ref}.", f"{owner} is already answering #{ref}."}
    assert f"{owner} is answering." in current_text(stack, posted)
    operator = OLU if owner == "Olu" else ADE

    # The owner's reply reaches Ada as the business's (no staff name).
    before = len(stack.tg.sent_messages(ADA.id))
    await staff_says(stack, operator, "Hello! Which hostel is it?", posted)
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[before:]] == [
        "Hello! Which hostel is it?"
    ]

    # A place outside the service area is refused, and only staff hear it.
    before = len(stack.tg.sent_messages(ADA.id))
    far = as_reply(stack.tg.updates.location(operator, *LONDON, chat=OPERATORS), posted)
    await stack.send(far)
    refused = stack.tg.sent_messages(OPERATORS.id)[-1]
    assert refused.text is not None and refused.text.startswith(f"#{ref}: not accepted for")
    assert stack.tg.sent_messages(ADA.id)[before:] == []

    # A place in the area answers the question for her.
    pin = as_reply(stack.tg.updates.location(operator, *LAGOS, chat=OPERATORS), posted)
    await stack.send(pin)
    filled = stack.tg.sent_messages(OPERATORS.id)[-1]
    assert filled.text is not None and filled.text.startswith(f"#{ref}: filled in")
    (note,) = stack.tg.sent_messages(ADA.id)[before:]
    assert note.text is not None and note.text.startswith("Our team filled in")

    # Done: Ada is told, and her order goes on from the question after the place.
    before = len(stack.tg.sent_messages(ADA.id))
    await stack.tap(card(stack), "Done", user=operator)
    closing = stack.tg.sent_messages(ADA.id)[before:]
    assert closing[0].text == say("human.closed")
    assert closing[-1].text is not None and "address at this pin" in closing[-1].text
    assert "Closed." in current_text(stack, posted)
    assert (await stack.bot.store.handoffs.waiting_for(handoff.chat)) is None

    # She answers the rest herself, and confirms: one delivery.
    await finish_order(stack)
    links = await stack.bot.store.deliveries.for_user(UserRef("telegram", ADA.id), 5)
    assert len(links) == 1
    assert stack.partner is not None and len(stack.partner.creates) == 1
    (create,) = stack.partner.creates
    # The place staff shared, and the address Ada gave for it afterwards.
    assert create["deliveryCoords"] == {"lat": LAGOS[0], "lng": LAGOS[1]}
    assert create["deliveryAddress"] == "Jaja Hostel, UNILAG"
    # Nothing staff-side reached Ada: no operator's name, no tag.
    for message in stack.tg.sent_messages(ADA.id):
        text = message.text or ""
        assert "Olu" not in text and "Ade" not in text and f"#{ref}" not in text


async def finish_order(stack: BotStack) -> None:
    """From the question after the drop-off place to the confirmed order."""
    chat = ADA.id
    await stack.text(ADA, "Jaja Hostel, UNILAG")  # the address at the pin staff shared
    await stack.contact(ADA, ADA_PHONE)
    await stack.text(ADA, "Bola Ahmed")
    await stack.text(ADA, RECEIVER_PHONE)
    await stack.text(ADA, "A pair of shoes in a box")
    await stack.tap(stack.prompt(chat), "Small")
    await stack.photo(ADA, tiny_png())
    await stack.tap(stack.prompt(chat), "Confirm and send")


async def test_a_person_is_offered_after_the_second_wrong_answer(stack: BotStack) -> None:
    await at_the_dropoff_place(stack)
    await stack.tap(stack.prompt(ADA.id), "UNILAG Main Gate")
    await stack.contact(ADA, ADA_PHONE)
    await stack.text(ADA, "Bola Ahmed")
    first = await stack.text(ADA, "not a phone")
    assert all(m.text != say("human.offer") for m in first)
    second = await stack.text(ADA, "still not a phone")
    assert second[-1].text == say("human.offer")  # after the question asked again
    (told,) = await stack.command(ADA, "human")
    assert told.text is not None and told.text.startswith("A person from our team")
    assert await stack.bot.store.handoffs.waiting_for(ChatRef("telegram", ADA.id)) is not None


async def test_help_offers_a_person_and_staff_commands_stay_in_operator_chats(
    stack: BotStack,
) -> None:
    (helped,) = await stack.command(ADA, "help")
    assert helped.text is not None and helped.text.endswith(say("human.help_line"))
    assert helped.button_texts == ["Talk to a person"]
    await stack.command(ADA, "human")
    ref = card(stack).text[1:7]  # type: ignore[index]
    # /done in the customer's own chat is not a staff command: the hand-off stays open.
    await stack.command(ADA, "done", ref)
    assert await stack.bot.store.handoffs.waiting_for(ChatRef("telegram", ADA.id)) is not None
    # In the operators' group it closes it, and the customer is told.
    (closed,) = await stack.command(OLU, "done", ref, chat=OPERATORS)
    assert closed.text == say("staff.closed", ref=ref)
    assert stack.tg.sent_messages(ADA.id)[-1].text == say("human.closed_no_order")


async def test_photos_pass_both_ways(stack: BotStack) -> None:
    await stack.command(ADA, "human")
    posted = card(stack)
    ref = posted.text[1:7]  # type: ignore[index]
    await stack.send(stack.tg.updates.photo(ADA, tiny_png(), caption="this gate?"))
    relayed = stack.tg.sent_messages(OPERATORS.id)[-1]
    assert relayed.method == "sendPhoto"
    assert relayed.text == f"#{ref} customer sent this: this gate?"
    photo = stack.tg.updates.photo(OLU, tiny_png(90), caption="No, this one", chat=OPERATORS)
    await stack.send(as_reply(photo, relayed))
    sent = stack.tg.sent_messages(ADA.id)[-1]
    assert sent.method == "sendPhoto" and sent.text == "No, this one"


async def test_order_commands_wait_while_a_person_answers(stack: BotStack) -> None:
    await at_the_dropoff_place(stack)
    chat = ChatRef("telegram", ADA.id)
    draft = await stack.bot.store.sessions.get(chat)
    assert draft is not None
    await stack.command(ADA, "human")
    ref = card(stack).text[1:7]  # type: ignore[index]

    # Each order command leaves the draft exactly as it was: staff see it, Ada is told why.
    for command in ("cancel", "new", "repeat", "start"):
        (told,) = await stack.command(ADA, command)
        assert told.text == say("human.order_waits", command=f"/{command}")
        assert stack.tg.sent_messages(OPERATORS.id)[-1].text == f"#{ref} customer: /{command}"
        kept = await stack.bot.store.sessions.get(chat)
        assert kept is not None and kept.data == draft.data

    # /help still answers, and leaves the draft as it was too.
    await stack.command(ADA, "help")
    kept = await stack.bot.store.sessions.get(chat)
    assert kept is not None and kept.data == draft.data

    # Once staff close it, /cancel reaches the order again.
    await stack.command(OLU, "done", ref, chat=OPERATORS)
    cancelled = await stack.command(ADA, "cancel")
    assert all(m.text != say("human.order_waits", command="/cancel") for m in cancelled)
    after = await stack.bot.store.sessions.get(chat)
    assert after is None or after.data != draft.data  # dropped, or asked whether to drop it


async def test_the_funnel_counts_hand_offs_at_the_step_they_were_opened(
    stack: BotStack,
) -> None:
    await at_the_dropoff_place(stack)
    await stack.command(ADA, "human")
    await stack.command(ADA, "human")  # the same hand-off: counted once
    await stack.command(OLU, "done", card(stack).text[1:7], chat=OPERATORS)  # type: ignore[index]
    await stack.command(ADA, "human")  # a second one, at the same question
    await stack.command(OLU, "human")  # no order open: nothing to count at a step

    await stack.bot.core.chats.funnel.flush()
    store = stack.bot.store
    rows = await funnel_report(store.funnel, since_day=day_of(store.clock()))
    handoffs = {(row.flow, row.step): row.handoffs for row in rows if row.handoffs}
    assert handoffs == {("pickup_delivery", "dropoff_place"): 2}

    lines = render_table(rows, period="1d").splitlines()
    assert lines[1].split()[-5:] == ["created", "hand-offs", "top", "re-ask", "reasons"]
    (dropoff,) = [line for line in lines if line.split()[:1] == ["dropoff_place"]]
    assert dropoff.split()[-3:] == ["0", "2", "-"]  # created, hand-offs, no re-ask reasons
    short = render_short(SHIPPED, rows, period="1d")
    assert say("ops.report.handoffs", steps="dropoff_place 2") in short.splitlines()
    (reply,) = await stack.command(OLU, "report", "1d", chat=OPERATORS)
    assert reply.text == short


async def test_in_a_forum_group_each_hand_off_has_its_own_topic(make_stack: MakeStack) -> None:
    stack = await make_stack(operators=[FORUM.id])
    await at_the_dropoff_place(stack)
    await stack.command(ADA, "human")
    (created,) = stack.tg.calls("createForumTopic")
    thread = created.result["message_thread_id"]
    (posted,) = stack.tg.sent_messages(FORUM.id)
    assert posted.text is not None and posted.message["message_thread_id"] == thread
    assert posted.text.endswith(say("staff.card_how_topic"))  # no reply needed in a topic
    ref = posted.text[1:7]
    assert created.params["name"] == f"#{ref} Ada Obi"
    handoff = await stack.bot.store.handoffs.get(ref)
    assert handoff is not None and handoff.post is not None
    assert handoff.post.thread_id == thread

    # Ada's words arrive in the topic.
    await stack.text(ADA, "Which gate is closest?")
    relayed = stack.tg.sent_messages(FORUM.id)[-1]
    assert relayed.text == f"#{ref} customer: Which gate is closest?"
    assert relayed.message["message_thread_id"] == thread

    # Staff write in the topic, replying to nothing: it reaches Ada, and takes the hand-off.
    written = stack.tg.updates.text(OLU, "The main gate, by the bank", chat=FORUM)
    await stack.send(stack.tg.updates.in_topic(written, thread))
    assert stack.tg.sent_messages(ADA.id)[-1].text == "The main gate, by the bank"
    taken = await stack.bot.store.handoffs.get(ref)
    assert taken is not None and taken.owner_name == "Olu"

    # A location shared in the topic fills the place; staff are told in the topic.
    pin = stack.tg.updates.location(OLU, *LAGOS, chat=FORUM)
    (filled,) = await stack.send(stack.tg.updates.in_topic(pin, thread))
    assert filled.text is not None and filled.text.startswith(f"#{ref}: filled in")
    assert filled.message["message_thread_id"] == thread

    # Words in the general chat reach nobody.
    before = len(stack.tg.sent_messages(ADA.id))
    assert await stack.send(stack.tg.updates.text(OLU, "lunch?", chat=FORUM)) == []
    assert len(stack.tg.sent_messages(ADA.id)) == before

    # /done in the topic closes the hand-off and its topic; Ada's order goes on.
    done = stack.tg.updates.command(OLU, "done", chat=FORUM, mention_bot=True)
    (closed,) = await stack.send(stack.tg.updates.in_topic(done, thread))
    assert closed.text == say("staff.closed", ref=ref)
    assert stack.tg.topic_closed(FORUM.id, thread) is True
    assert stack.tg.sent_messages(ADA.id)[before].text == say("human.closed")
    assert "address at this pin" in (stack.tg.sent_messages(ADA.id)[-1].text or "")

    # Another hand-off gets a topic of its own.
    await stack.command(ADA, "human")
    topics = [call.result["message_thread_id"] for call in stack.tg.calls("createForumTopic")]
    assert len(topics) == 2 and topics[1] != thread


async def test_without_the_right_to_make_topics_the_card_is_one_message(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(operators=[FORUM.id])
    stack.tg.fail_next(
        "createForumTopic", error_code=400, description="Bad Request: not enough rights"
    )
    (told,) = await stack.command(ADA, "human")
    assert told.text is not None and told.text.startswith("A person from our team")
    (posted,) = stack.tg.sent_messages(FORUM.id)
    assert posted.text is not None and posted.text.startswith("#")
    assert posted.text.endswith(say("staff.card_how"))
    assert "message_thread_id" not in posted.message
    handoff = await stack.bot.store.handoffs.get(posted.text[1:7])
    assert handoff is not None and handoff.post is not None and handoff.post.thread_id is None
    # Replies to the card work as in any group, and closing closes no topic.
    reply = as_reply(stack.tg.updates.text(OLU, "Hello from the team", chat=FORUM), posted)
    await stack.send(reply)
    assert stack.tg.sent_messages(ADA.id)[-1].text == "Hello from the team"
    await stack.command(OLU, "done", handoff.ref, chat=FORUM)
    assert stack.tg.calls("closeForumTopic") == []
