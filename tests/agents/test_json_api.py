"""The JSON API end to end: real HTTP on loopback, the in-process sandbox, a real SQLite file."""

from __future__ import annotations

import httpx

from .conftest import CONFIRM, JPEG, SHOP_KEY, TINY_KEY, TO_SUMMARY, AgentWorld


async def test_a_full_order_over_the_json_api(world: AgentWorld) -> None:
    started = await world.start_order()
    prompt = started["prompt"]
    assert prompt["input"] == "choice"
    assert prompt["answer_schema"]["oneOf"][0]["properties"]["option"]["enum"] == [
        option["id"] for option in prompt["options"]
    ]
    for answer in TO_SUMMARY:
        response = await world.answer(started["id"], answer)
        assert response.status_code == 200, response.text
        said = response.json()
        assert not said["reask"], (answer, said["messages"])
    summary = response.json()["prompt"]
    assert summary["input"] == "confirm"
    response = await world.answer(started["id"], CONFIRM)
    created = response.json()
    assert created["status"] == "created" and created["finished"]
    assert created["delivery"]["status"] in ("pending", "matched")
    assert world.sandbox.call_counts()["create_delivery"] == 1


async def test_a_wrong_answer_is_asked_again_with_the_chats_reason(world: AgentWorld) -> None:
    started = await world.start_order()
    for answer in TO_SUMMARY[:6]:  # up to the receiver's phone
        await world.answer(started["id"], answer)
    asked = (await world.api.get(f"/api/conversations/{started['id']}")).json()["prompt"]

    response = await world.answer(started["id"], {"kind": "text", "text": "call me maybe"})

    said = response.json()
    assert response.status_code == 200
    assert said["reask"] and said["refused"] is None
    assert said["messages"] and "number" in " ".join(said["messages"]).lower()
    assert (said["prompt"]["step"], said["prompt"]["version"]) == (asked["step"], asked["version"])


async def test_an_invented_option_id_is_refused_and_nothing_changes(world: AgentWorld) -> None:
    started = await world.start_order()
    response = await world.answer(started["id"], {"kind": "choice", "option": "drone_delivery"})

    said = response.json()
    assert response.status_code == 422
    assert said["refused"] and "not one of the options" in said["refused"]
    assert said["prompt"] == started["prompt"]
    transcript = (await world.api.get(f"/api/conversations/{started['id']}/transcript")).json()
    assert [entry["answer"] for entry in transcript["entries"]] == [
        None,
        {"kind": "choice", "option": "drone_delivery"},
    ]
    assert world.sandbox.call_counts().get("create_delivery", 0) == 0


async def test_another_channels_key_gets_the_same_answer_as_an_unknown_id(
    world: AgentWorld,
) -> None:
    started = await world.start_order()
    assert world.other is not None
    path = f"/api/conversations/{started['id']}"
    theirs = await world.other.get(path)
    unknown = await world.other.get("/api/conversations/conv_doesnotexist")
    assert theirs.status_code == unknown.status_code == 404
    assert theirs.json() == unknown.json()
    answered = await world.other.post(path + "/answers", json={"answer": TO_SUMMARY[0]})
    assert answered.status_code == 404
    assert (await world.other.get(path + "/events")).status_code == 404
    # The owner still sees it untouched.
    assert (await world.api.get(path)).json()["prompt"] == started["prompt"]


async def test_no_key_or_a_wrong_key_is_unauthorized(world: AgentWorld) -> None:
    assert world.server is not None
    async with world._client("not-a-key-0123456789abcdefgh") as stranger:
        response = await stranger.post("/api/conversations", json={"customer": "x"})
    assert response.status_code == 401
    assert SHOP_KEY not in response.text


async def test_a_key_over_its_budget_is_told_when_to_come_back(world: AgentWorld) -> None:
    async with world._client(TINY_KEY) as tiny:
        answers = [await tiny.get("/api/customers/c1/deliveries") for _ in range(3)]
        other = await world.api.get("/api/customers/c1/deliveries")
    assert [response.status_code for response in answers] == [200, 200, 429]
    assert answers[2].json()["error"] == "rate_limited"
    assert 1 <= int(answers[2].headers["Retry-After"]) <= 30
    assert other.status_code == 200  # another key's budget is its own


async def test_deliveries_status_and_cancel_are_the_customers_own(world: AgentWorld) -> None:
    created = await world.order("cust-9")
    ref = created["delivery"]["ref"]
    listed = (await world.api.get("/api/customers/cust-9/deliveries")).json()
    assert [entry["ref"] for entry in listed["entries"]] == [ref]
    assert (await world.api.get("/api/customers/cust-8/deliveries")).json()["total"] == 0
    assert (await world.api.get(f"/api/customers/cust-8/deliveries/{ref}")).status_code == 404
    assert world.other is not None
    assert (await world.other.get(f"/api/customers/cust-9/deliveries/{ref}")).status_code == 404
    status = await world.api.get(f"/api/customers/cust-9/deliveries/{ref}")
    assert status.status_code == 200 and status.json()["outcome"] == "found"

    short = await world.api.post(
        f"/api/customers/cust-9/deliveries/{ref}/cancel", json={"reason": "no"}
    )
    cancelled = await world.api.post(
        f"/api/customers/cust-9/deliveries/{ref}/cancel", json={"reason": "Ordered by mistake"}
    )

    assert short.status_code == 422 and short.json()["outcome"] == "bad_reason"
    assert cancelled.status_code == 200 and cancelled.json()["outcome"] == "cancelled"


async def test_back_edit_and_cancel_of_an_order(world: AgentWorld) -> None:
    started = await world.start_order()
    conversation = f"/api/conversations/{started['id']}"
    for answer in TO_SUMMARY:
        await world.answer(started["id"], answer)
    summary = (await world.api.get(conversation)).json()["prompt"]
    # A few choices (Confirm and the groups of fields); every field's edit id is an answer too.
    offered = [option["id"] for option in summary["options"]]
    assert "change:people" in offered and len(offered) <= 8
    allowed = summary["answer_schema"]["oneOf"][0]["properties"]["option"]["enum"]
    assert "edit:receiver_phone" in allowed
    group = (
        await world.answer(started["id"], {"kind": "choice", "option": "change:people"})
    ).json()
    assert "edit:receiver_phone" in [option["id"] for option in group["prompt"]["options"]]

    edited = (await world.api.post(conversation + "/edit", json={"step": "receiver_phone"})).json()
    assert edited["prompt"]["step"] == "receiver_phone"
    back_at_summary = await world.answer(started["id"], {"kind": "text", "text": "08099998888"})
    assert back_at_summary.json()["prompt"]["input"] == "confirm"
    unknown = await world.api.post(conversation + "/edit", json={"step": "price"})
    assert unknown.status_code == 422

    went_back = (await world.api.post(conversation + "/back")).json()
    assert went_back["prompt"]["step"] != "summary"
    cancelling = (await world.api.post(conversation + "/cancel")).json()
    if not cancelling["finished"]:  # answers would be lost: the flow asks first
        yes = cancelling["prompt"]["options"][0]["id"]
        cancelling = (await world.answer(started["id"], {"kind": "choice", "option": yes})).json()
    assert cancelling["status"] == "cancelled"
    after = await world.answer(started["id"], {"kind": "text", "text": "hello"})
    assert after.status_code == 422 and "has ended" in after.json()["refused"]
    assert world.sandbox.call_counts().get("create_delivery", 0) == 0


async def test_an_uploaded_photo_answers_the_photo_question(world: AgentWorld) -> None:
    started = await world.start_order()
    photos = f"/api/conversations/{started['id']}/photos"
    not_an_image = await world.api.post(
        photos, content=b"hello", headers={"Content-Type": "text/plain"}
    )
    assert not_an_image.status_code == 415
    assert not_an_image.json()["error"] == "unsupported_media_type"
    jpeg_said = await world.api.post(
        photos, content=b"hello", headers={"Content-Type": "image/jpeg"}
    )
    assert jpeg_said.status_code == 422 and jpeg_said.json()["error"] == "photo_refused"
    assert world.other is not None
    assert (await world.other.post(photos, content=JPEG)).status_code == 404

    uploaded = await world.api.post(photos, content=JPEG, headers={"Content-Type": "image/jpeg"})

    assert uploaded.status_code == 201, uploaded.text
    url = uploaded.json()["url"]
    assert world.server is not None and url.startswith(world.server.url + "/media/")
    async with httpx.AsyncClient() as anyone:  # the service fetches it without a key
        fetched = await anyone.get(url)
    assert fetched.content == JPEG
    answers = [
        {"kind": "photos", "urls": [url]} if answer["kind"] == "photos" else answer
        for answer in [*TO_SUMMARY, CONFIRM]
    ]
    for answer in answers:
        response = await world.answer(started["id"], answer)
        assert response.status_code == 200 and not response.json()["reask"], response.text
    assert response.json()["status"] == "created"


async def test_a_conversation_started_in_french_is_said_in_french_events_too(
    world: AgentWorld,
) -> None:
    response = await world.api.post(
        "/api/conversations", json={"customer": "cust-fr", "language": "fr"}
    )
    assert response.status_code == 201, response.text
    started = response.json()
    assert started["prompt"]["question"].startswith("Que ")  # "Que souhaitez-vous ..."
    for answer in [*TO_SUMMARY, CONFIRM]:
        created = (await world.answer(started["id"], answer)).json()
    delivery_id = created["delivery"]["id"]
    await world.settle()
    world.sandbox.mark_paid(delivery_id)
    await world.settle()
    world.sandbox.advance_status(delivery_id)
    await world.settle()

    path = f"/api/conversations/{started['id']}/events"
    events = (await world.api.get(path)).json()["events"]
    picked = next(event for event in events if event["status"] == "picked_up")
    assert picked["status_text"] == "récupéré"
    assert picked["message"] == "Le livreur a récupéré votre colis."
    paid = next(event for event in events if event["type"] == "delivery.updated")
    assert paid["message"].startswith("Nous avons bien reçu votre paiement")


async def test_a_start_with_a_language_that_is_not_a_code_is_refused(world: AgentWorld) -> None:
    response = await world.api.post("/api/conversations", json={"customer": "x", "language": 7})
    assert response.status_code == 400
