"""A delivery's status moved by a signed Partner webhook, as the service sends one, and the
relay's pass that applies it (what a live list then shows)."""

from __future__ import annotations

import time

import httpx

from bot.bot_core import BotCore
from bot.partner.signing import sign
from tests.support.partner_json import compact, delivery_json, webhook_event

SECRET = "whsec_" + "7" * 32
"""The signing secret a core built for these tests verifies with (``signing_secrets``)."""


async def post_status(
    web: httpx.AsyncClient, delivery_id: str, status: str, *, previous: str, seq: int
) -> None:
    """POST the event moving ``delivery_id`` from ``previous`` to ``status`` (``seq``: the
    event's number, its id and its ``created`` second after any earlier one)."""
    created = 1_800_000_000 + seq
    delivery = delivery_json(id=delivery_id, status=status)
    body = compact(
        webhook_event(
            f"evt_live_{seq:020d}",
            delivery,
            created=created,
            previous_status=previous,
            summary=f"Delivery is {status}.",
        )
    )
    headers = {
        "Content-Type": "application/json",
        "Service-Event": "delivery.status_changed",
        "Service-Signature": sign(body, SECRET, int(time.time())),
    }
    answer = await web.post("/hooks/partner", content=body, headers=headers)
    assert answer.status_code in (200, 202, 204), answer.text


async def relayed(core: BotCore) -> None:
    """The relay's work on the inbox, until done (the runtime's job does it when woken)."""
    await core.relay.process_pending()
