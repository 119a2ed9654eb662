"""WhatsApp's flows on real ``deliverybot run`` processes (harness: ``whatsapp_instances``).

On each backend: a whole order from "new" to the created delivery (places from the list and
from a shared location, the customer's own number in one tap, the receiver from a shared
contact, a photo downloaded from the fake's media URL), the drop-off code's link (a ``wa.me``
chat, though Telegram is the messenger) claimed by the receiver's own number, news as the rider
moves, status, my deliveries, a person (the operators' Telegram chat answers on WhatsApp, as
the reply template once the window has closed), and news outside the window as the news
template. On PostgreSQL the customer's messages go to two instances in turn; on SQLite the one
instance is restarted half-way through the order.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.partner.client import PartnerClient
from bot.store import Store
from tests.e2e.conftest import OLU, OPERATORS
from tests.e2e.real_instances import push
from tests.e2e.test_handoffs_on_real_instances import staff_reply
from tests.e2e.whatsapp_instances import (
    ADA,
    BOLA,
    WITHIN,
    Spread,
    has,
    latest_delivery,
    order_a_delivery,
    received_until,
    whatsapp_deployment,
)

DAY = 86_400.0
WA_ME = re.compile(r"https://wa\.me/\S+")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_every_flow_on_real_instances(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    operators = f"chat_ids = [{OPERATORS.id}]"
    async with whatsapp_deployment(
        backend, tmp_path, request, monkeypatch, operators=operators
    ) as world:
        tg, sandbox = world.deployment.tg, world.deployment.partner.sandbox
        for chat in (OLU, OPERATORS):
            tg.add_chat(chat)
        await world.deployment.backing.hand_to_instances()
        first = await world.start()
        instances = [first] + ([await world.start()] if backend == "postgres" else [])
        spread = Spread(world, instances)
        ada = world.customer(ADA, "Ada")

        done = await order_a_delivery(
            world, ada, spread, restart=first if backend == "sqlite" else None
        )
        store = await world.deployment.backing.reopen()  # beside the instances
        delivery_id = await latest_delivery(store)
        ref = delivery_id[:8].upper()
        assert ref in done

        # The fee paid: the drop-off code is issued for Bola, whose number is not Ada's. Ada
        # gets a wa.me link to pass on (Telegram is the messenger: the link is WhatsApp's all
        # the same), and Bola's own number claims the code there.
        sandbox.mark_paid(delivery_id)
        told = await received_until(ada, lambda m: WA_ME.search(m.text) is not None)
        link = WA_ME.search(told[-1].text)
        assert link is not None
        claim = parse_qs(urlsplit(link.group()).query)["text"][0]
        bola = world.customer(BOLA, "Bola")
        spread.next()
        await bola.says(claim)
        code = sandbox.otp_code(delivery_id)
        assert code and code in (await received_until(bola, has(code)))[-1].text

        # News as the rider moves; status and my deliveries.
        async with PartnerClient(sandbox.base_url, sandbox.api_key) as partner:
            await partner.assign_rider(delivery_id, "rdr_tunde")
        sandbox.advance_status(delivery_id)  # picked up
        news = await received_until(ada, has("picked up"))
        assert all(ref in message.text for message in news[-1:])
        spread.next()
        await ada.says("status")
        assert ref in (await received_until(ada, has(ref)))[-1].text
        spread.next()
        await ada.says("deliveries")
        (listed,) = await ada.receives(1, timeout=WITHIN)
        assert ref in listed.text or any(ref in title for title in listed.titles())

        # A person: the card in the operators' Telegram chat, the answer on WhatsApp.
        spread.next()
        await ada.says("human")
        await ada.receives(1, timeout=WITHIN)
        card = await tg.wait_for_message(
            OPERATORS.id, lambda m: "I'll answer" in m.button_texts, timeout=WITHIN
        )
        client = world.deployment.client
        await push(client, instances[-1], staff_reply(tg, OLU, "It is on its way.", card))
        assert (await ada.receives(1, timeout=WITHIN))[0].text.startswith("It is on its way.")

        # A day later the window has closed: the answer and the news go as templates.
        world.clock.seconds = DAY + 3600
        await _close_window(store, ADA)
        await push(client, instances[0], staff_reply(tg, OLU, "Still there?", card))
        (answer,) = await ada.receives(1, timeout=WITHIN)
        assert answer.kind == "template" and answer.template == "support_reply"
        sandbox.advance_status(delivery_id)  # in transit
        (later,) = await ada.receives(1, timeout=WITHIN)
        assert later.kind == "template" and later.template == "delivery_update"
        assert later.parameters[0] == ref
        assert world.fake.refusals.total() == 0


async def _close_window(store: Store, wa_id: str) -> None:
    """The bot's record of the customer's last message a day earlier, as the fake's clock
    now has it (the instances keep real time)."""
    await store._db.execute(
        "UPDATE whatsapp_windows SET last_message_at = last_message_at - ? WHERE wa_id = ?",
        (DAY + 3600, int(wa_id)),
    )
