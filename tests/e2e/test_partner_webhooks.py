"""Partner webhooks at the running bot's web app: only genuine, fresh events get in."""

from __future__ import annotations

import json
import time

import httpx

from bot.partner.signing import SIGNATURE_HEADER, sign
from tests.e2e.conftest import ADA, BotStack


async def _post(stack: BotStack, body: bytes, signature: str | None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if signature is not None:
        headers[SIGNATURE_HEADER] = signature
    transport = httpx.ASGITransport(app=stack.bot.web_app)
    async with httpx.AsyncClient(transport=transport, base_url="https://localhost") as web:
        return await web.post(stack.config.webhooks.path, content=body, headers=headers)


async def test_forged_and_stale_signatures_are_refused_and_nothing_is_relayed(
    stack: BotStack,
) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    delivery = stack.sandbox.delivery(delivery_id)
    event = {
        "id": "evt_forged_1",
        "type": "delivery.status_changed",
        "created": int(time.time()),
        "data": {"object": {**delivery, "status": "delivered"}, "previous_status": "matched"},
        "summary": "Delivered (forged).",
        "customer_message_hint": "Your package has been delivered.",
        "docs_url": None,
        "agent_notes": [],
    }
    body = json.dumps(event).encode()
    secret, now = stack.sandbox.signing_secret, int(time.time())
    before = len(stack.tg.sent_messages(ADA.id))

    forged = await _post(stack, body, sign(body, "whsec_NotTheEndpointsSecret000000", now))
    stale = await _post(stack, body, sign(body, secret, now - 3600))
    unsigned = await _post(stack, body, None)
    tampered = await _post(stack, body.replace(b"forged", b"genuine"), sign(body, secret, now))

    for refused in (forged, stale, unsigned, tampered):
        assert refused.status_code == 400
        assert refused.text == "Bad Request"  # no detail for whoever is probing
    assert (await stack.bot.store.inbox.counts()).pending == 0
    assert await stack.deliver_events() == 0
    assert stack.tg.sent_messages(ADA.id)[before:] == []
    link = await stack.bot.store.deliveries.get(delivery_id)
    assert link is not None and link.status != "delivered"

    genuine = await _post(stack, body, sign(body, secret, now))
    assert genuine.status_code == 200
    assert (await _post(stack, body, sign(body, secret, now))).status_code == 200  # redelivery
    await stack.tg.wait_for_message(ADA.id, after=before)
    assert await stack.deliver_events() == 0
    assert len(stack.tg.sent_messages(ADA.id)[before:]) == 1
