"""Partner webhooks at the running bot's web app: only genuine, fresh events get in, and an
older one never moves a chat back."""

from __future__ import annotations

import json
import time

import httpx

from bot.partner.signing import SIGNATURE_HEADER, sign
from tests.e2e.conftest import ADA, BotStack, MakeStack
from tests.support.partner_json import webhook_event


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
    event = webhook_event(
        "evt_forged_1",
        {**delivery, "status": "delivered"},
        created=time.time(),
        previous_status="matched",
        summary="Delivered (forged).",
        hint="Your package has been delivered.",
    )
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


async def test_a_reversed_same_second_pair_never_moves_the_chat_back(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(workers=False)
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    delivery = stack.sandbox.delivery(delivery_id)
    second = int(time.time())

    def status_event(event_id: str, status: str, previous: str) -> bytes:
        event = webhook_event(
            event_id,
            {**delivery, "status": status},
            created=second,
            previous_status=previous,
            summary=f"Now {status}.",
        )
        return json.dumps(event).encode()

    picked_up = status_event("evt_same_second_1", "picked_up", "matched")
    in_transit = status_event("evt_same_second_2", "in_transit", "picked_up")
    secret = stack.sandbox.signing_secret
    before = len(stack.tg.sent_messages(ADA.id))

    # The later move arrives first and is relayed; then the earlier one, of the same second.
    for body in (in_transit, picked_up):
        assert (await _post(stack, body, sign(body, secret, int(time.time())))).status_code == 200
        assert await stack.deliver_events() == 1

    told = [message.text for message in stack.tg.sent_messages(ADA.id)[before:]]
    assert len(told) == 1 and "on its way" in told[0].lower()
    link = await stack.bot.store.deliveries.get(delivery_id)
    assert link is not None and (link.status, link.status_created) == ("in_transit", second)
