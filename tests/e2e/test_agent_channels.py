"""``deliverybot run`` with an agent channel: the JSON API on the same web app as Telegram, an
order with an uploaded photo, and the relay's events for the agent's delivery kept for the
channel (with the receiver's Telegram hand-off link, never the code), not sent to Telegram."""

from __future__ import annotations

from typing import Any

import httpx

from bot.config import AgentsConfig

from .conftest import OPERATORS, MakeStack, tiny_png

KEY = "e2e-agent-key-0123456789abcdef"
ANSWERS: list[dict[str, Any]] = [
    {"kind": "choice", "option": "pickup_delivery"},
    {"kind": "location", "lat": 6.5095, "lng": 3.3711},
    {"kind": "text", "text": "12 Herbert Macaulay Way, Yaba"},
    {"kind": "choice", "option": "saved:loc_unilag_gate"},
    {"kind": "contact", "phone": "08031234567", "first_name": "Ada", "last_name": "Obi"},
    {"kind": "text", "text": "Bola Ahmed"},
    {"kind": "text", "text": "0802 222 3333"},
    {"kind": "text", "text": "A pair of shoes in a box"},
    {"kind": "choice", "option": "small"},
    {"kind": "photos", "urls": ["<uploaded>"]},
    {"kind": "choice", "option": "confirm", "total": {"amount": 1500, "currency": "NGN"}},
]


async def test_the_running_bot_takes_an_agent_order_and_keeps_its_events(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(workers=False)
    agents = AgentsConfig.model_validate({"channels": [{"name": "shop", "key": KEY}]})
    stack.config = stack.config.model_copy(update={"agents": agents})
    await stack.restart()
    assert stack.bot.serves_web
    transport = httpx.ASGITransport(app=stack.switch)
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(
        transport=transport, base_url="https://localhost", headers=headers
    ) as api:
        started = (await api.post("/api/conversations", json={"customer": "c-1"})).json()
        path = f"/api/conversations/{started['id']}"
        photo = await api.post(path + "/photos", content=tiny_png())
        assert photo.status_code == 201, photo.text
        url = photo.json()["url"]
        for answer in ANSWERS:
            if answer["kind"] == "photos":
                answer = {"kind": "photos", "urls": [url]}
            response = await api.post(path + "/answers", json={"answer": answer})
            assert response.status_code == 200 and not response.json()["reask"], response.text
        created = response.json()
        assert created["status"] == "created"
        delivery_id = created["delivery"]["id"]
        sent_before = len(stack.tg.sent_messages())

        await stack.deliver_events()
        stack.sandbox.mark_paid(delivery_id)
        await stack.deliver_events()

        events = (await api.get(path + "/events")).json()["events"]
    code = stack.sandbox.otp_code(delivery_id)
    assert code is not None
    otp = next(event for event in events if event["type"] == "delivery.otp_issued")
    assert "?start=otp_" in otp["drop_off_code"] and code not in otp["drop_off_code"]
    new = stack.tg.sent_messages()[sent_before:]
    assert new and {message.chat_id for message in new} == {OPERATORS.id}
    assert all(code not in (message.text or "") for message in new)
