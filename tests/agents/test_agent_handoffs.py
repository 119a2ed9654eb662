"""The ``handoff`` action over the JSON API: an agent hands its customer to staff, polls the
hand-off's state, and reads staff's replies (and the close) as the conversation's events."""

from __future__ import annotations

from bot.handoff.bodies import text_body
from bot.handoff.desk import Filled
from conversations import LocationAnswer
from tests.fakes.handoff_sides import RecordingStaff
from tests.support.words import SHIPPED, said_in, say

from .conftest import TO_SUMMARY, AgentWorld


async def test_without_staff_the_agent_hears_nobody_can_be_reached(world: AgentWorld) -> None:
    started = await world.start_order()
    response = await world.api.post(f"/api/conversations/{started['id']}/handoff", json={})
    assert response.status_code == 503
    assert response.json()["handoff"] is None


async def test_an_agent_hands_over_and_reads_staff_replies_as_events(world: AgentWorld) -> None:
    assert world.core is not None
    staff = RecordingStaff()
    desk = world.core.handoffs
    desk.use_staff(staff)
    started = await world.start_order()
    for answer in TO_SUMMARY[:3]:
        await world.answer(started["id"], answer)
    url = f"/api/conversations/{started['id']}/handoff"

    response = await world.api.post(url, json={"message": "They want a same-day slot"})
    assert response.status_code == 202, response.text
    handed = response.json()["handoff"]
    assert handed["state"] == "open" and handed["owner"] is None
    assert staff.sent == [text_body("They want a same-day slot")]
    assert (await world.api.get(url)).json()["handoff"] == handed
    assert world.other is not None
    assert (await world.other.get(url)).status_code == 404  # another channel's: not found

    handoff = await desk.get(handed["ref"])
    assert handoff is not None
    await desk.reply(handoff, text_body("We can do 4 pm"))
    await desk.close(handoff.ref)
    events = (await world.api.get(f"/api/conversations/{started['id']}/events")).json()
    kinds = [(event["type"], event.get("text")) for event in events["events"]]
    assert kinds[:2] == [("staff_message", "We can do 4 pm"), ("staff_message", kinds[1][1])]
    assert kinds[-1][0] == "handoff_closed"
    assert events["events"][-1]["question"]  # the order goes on at its question
    assert (await world.api.get(url)).json() == {"handoff": None}


async def test_after_staff_fill_an_answer_the_conversation_shows_the_next_question(
    world: AgentWorld,
) -> None:
    assert world.core is not None
    desk = world.core.handoffs
    desk.use_staff(RecordingStaff())
    started = await world.start_order()
    for answer in TO_SUMMARY[:3]:
        await world.answer(started["id"], answer)
    conversation = f"/api/conversations/{started['id']}"
    at_place = (await world.api.get(conversation)).json()["prompt"]
    response = await world.api.post(conversation + "/handoff", json={})
    handoff = await desk.get(response.json()["handoff"]["ref"])
    assert handoff is not None

    filled = await desk.fill(handoff, LocationAnswer(lat=6.5244, lng=3.3792))
    assert isinstance(filled, Filled)
    now = (await world.api.get(conversation)).json()
    assert now["prompt"]["step"] != at_place["step"]  # not the question staff answered
    events = (await world.api.get(conversation + "/events")).json()["events"]
    answered = [e for e in events if e["type"] == "staff_answered"]
    assert [e["question"] for e in answered] == [now["prompt"]["question"]]

    # The agent answers the question now open: it is taken, not refused as a stale one.
    await desk.close(handoff.ref)
    next_answer = await world.answer(started["id"], {"kind": "text", "text": "Jaja Hostel"})
    assert next_answer.status_code == 200, next_answer.text
    assert next_answer.json()["refused"] is None
    assert next_answer.json()["prompt"]["step"] != now["prompt"]["step"]


async def test_staff_read_the_filled_question_in_the_business_language(
    world: AgentWorld,
) -> None:
    """A French customer's question filled by staff: staff are told which question in the
    business's language (as the card names it), the customer in theirs."""
    assert world.core is not None
    desk = world.core.handoffs
    desk.use_staff(RecordingStaff())
    response = await world.api.post(
        "/api/conversations", json={"customer": "cust-fr", "language": "fr"}
    )
    started = response.json()
    for answer in TO_SUMMARY[:3]:
        await world.answer(started["id"], answer)
    conversation = f"/api/conversations/{started['id']}"
    step = (await world.api.get(conversation)).json()["prompt"]["step"]
    response = await world.api.post(conversation + "/handoff", json={"language": "fr"})
    handoff = await desk.get(response.json()["handoff"]["ref"])
    assert handoff is not None and handoff.language == "fr"

    filled = await desk.fill(handoff, LocationAnswer(lat=6.5244, lng=3.3792))

    flow = world.core.chats.engine.registry.get("pickup_delivery")
    assert flow is not None
    assert filled == Filled(flow.step(step).said_title(SHIPPED))
    french = flow.step(step).said_title(said_in("fr"))
    assert french != filled.question
    events = (await world.api.get(conversation + "/events")).json()["events"]
    told = [e["text"] for e in events if e["type"] == "staff_message"]
    assert told == [said_in("fr").say("human.filled", question=french)]


async def test_a_block_ends_the_agent_customers_hand_off(world: AgentWorld) -> None:
    """Blocking an agent channel's customer ends their hand-off as a chat's: the agent reads
    the blocked sentence as the business's last word, no hand-off waits, the card says it
    ended with the block, staff replies are refused with the reason, and asking again is
    refused."""
    assert world.core is not None
    staff = RecordingStaff()
    desk = world.core.handoffs
    desk.use_staff(staff)
    started = await world.start_order()
    conversation = f"/api/conversations/{started['id']}"
    response = await world.api.post(conversation + "/handoff", json={"message": "Call me"})
    handoff = await desk.get(response.json()["handoff"]["ref"])
    assert handoff is not None

    await world.core.chats.blocking.block(handoff.user, by="telegram:1900", reason="fraud")

    events = (await world.api.get(conversation + "/events")).json()["events"]
    assert [(e["type"], e.get("text")) for e in events if e["type"] == "staff_message"] == [
        ("staff_message", say("safety.blocked"))
    ]
    assert (await world.api.get(conversation + "/handoff")).json() == {"handoff": None}
    assert say("staff.card_blocked") in staff.cards[-1]
    assert staff.told == [say("staff.blocked_ended", ref=handoff.ref)]

    assert await desk.reply(handoff, text_body("Calling you now")) is False
    assert staff.told[-1] == say("staff.reply_blocked", ref=handoff.ref)
    after = (await world.api.get(conversation + "/events")).json()["events"]
    assert len(after) == len(events)  # nothing reached the agent

    again = await world.api.post(conversation + "/handoff", json={"message": "Hello?"})
    assert again.status_code == 503 and again.json()["handoff"] is None
    assert again.json()["reply"] == say("safety.blocked")
    assert staff.sent == [text_body("Call me")]
    trail = await world.core.store.audit.since(0)
    assert [(e.actor, e.action, e.outcome) for e in trail if e.action.startswith("handoff")] == [
        ("telegram:1900", "handoff_close", "done; customer blocked"),
        ("bot", "handoff_reply", "refused: customer blocked"),
    ]
