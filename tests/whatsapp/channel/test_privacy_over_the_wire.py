"""WhatsApp's "my data" and "forget me" as ``deliverybot run`` builds the channel, over the wire:
the export uploaded to the (simulated) Cloud API and sent as a document, whose bytes downloaded
from Meta's media are the customer's data; after "forget me", the database holds nothing of
her, her window's row included, and the answer still reaches her (the window is Meta's, open
since she just wrote); her next message opens it again."""

from __future__ import annotations

import json
from pathlib import Path

from bot.chat_ref import WHATSAPP, UserRef
from bot.privacy.my_data_file import export_file_name
from bot.whatsapp_fake.media_shelf import StoredMedia
from bot.whatsapp_fake.sent_messages import SentMessage
from tests.ordering.conftest import JPEG
from tests.store.test_customer_data import Person, _findings
from tests.support.words import say
from tests.whatsapp.channel.test_whatsapp_channel import CUSTOMER, World, tap, world

ADA = Person(
    UserRef(WHATSAPP, int(CUSTOMER)),
    "Ada",
    f"+{CUSTOMER}",
    "+2348022223333",
    "Ozone Cinema",
    "UNILAG Main Gate",
    "A pair of shoes",
)


async def _ordered(w: World) -> str:
    """Ada's order, from "new" to its creation; the delivery's id."""
    customer = w.customer
    await customer.says("new")
    await w.answered()
    await customer.taps("✓ Pickup & delivery")
    await w.answered()
    await customer.shares_location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos")
    dropoff, _pin = await w.answered()
    await tap(customer, dropoff, "UNILAG Main Gate")
    await w.answered()
    await customer.taps(f"Use +{CUSTOMER}")
    await w.answered()
    await customer.shares_contact("Bola Ahmed", ["+2348022223333"])
    await w.answered()
    await customer.says("A pair of shoes")
    await w.answered()
    await customer.taps("Small")
    await w.answered()
    await customer.sends_photo(JPEG)
    await w.answered()
    await customer.taps("Confirm and send")
    await w.answered()
    [link] = await w.runtime.store.deliveries.for_user(ADA.user, limit=1)
    return link.delivery_id


def _uploaded(w: World, message: SentMessage) -> StoredMedia:
    """The file ``message`` names, as Meta keeps it."""
    media = w.fake.media.get(message.media_id)
    assert media is not None
    return media


async def test_my_data_is_downloaded_from_meta_and_forget_me_leaves_nothing(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        delivery_id = await _ordered(w)
        store = w.runtime.store

        await w.customer.says("my data")
        document, photo = await w.answered()

        assert (document.kind, photo.kind) == ("document", "image")
        assert document.filename == export_file_name(w.clock())
        assert document.text == say("privacy.export_intro")
        assert _uploaded(w, document).mime_type == "text/plain"
        kept = json.dumps(json.loads(_uploaded(w, document).content), ensure_ascii=False)
        for needle in ADA.needles:
            assert needle in kept, needle
        assert _uploaded(w, photo).content == JPEG

        await store.deliveries.note_status(delivery_id, "delivered")  # the relay's note
        await w.customer.says("forget me")
        (question,) = await w.answered()
        await tap(w.customer, question, say("privacy.forget_yes"))
        (answer,) = await w.answered()

        assert answer.text.startswith(say("privacy.forget_done"))
        assert w.fake.refusals.total() == 0 and w.fake.undelivered() == []
        assert await _findings(store, "sqlite", ADA) == set()
        assert await store.whatsapp_windows.last_message_at(int(CUSTOMER)) is None
        await w.customer.says("hi")  # her next message: the window is hers again
        await w.answered()
        assert await store.whatsapp_windows.last_message_at(int(CUSTOMER)) == w.clock()
