"""WhatsApp's "my data" and "forget me" over a real core and SQLite store (``world``): the export
as a document with the photo after it, or the sentence when nothing is kept; the erasure asked
first, kept on "no", and on "yes" nothing of the customer left in the database but the finished
delivery without them; the words in French, from the menu, with an order open and while a
person is awaited."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.chat_ref import WHATSAPP, UserRef
from bot.demo.transports import AppSwitch
from bot.sandbox import Sandbox
from bot.whatsapp.inbound import Image, Location, SharedContact
from bot.whatsapp.outgoing import (
    MAX_BUTTON_TITLE,
    MAX_CAPTION,
    ButtonsMessage,
    DocumentMessage,
    ImageMessage,
    ListMessage,
    Outgoing,
    TextMessage,
)
from tests.ordering.conftest import JPEG
from tests.store.test_customer_data import Person, _findings
from tests.support.words import said_in, say
from tests.whatsapp.talk.world import WA_ID, Talk, running, talk_config, tap, text_of

USER = UserRef(WHATSAPP, int(WA_ID))
ADA = Person(
    USER,
    "Ada Obi",
    f"+{WA_ID}",
    "+2348022223333",
    "Ozone Cinema",
    "UNILAG Main Gate",
    "A pair of shoes",
)


async def _ordered(talk: Talk) -> str:
    """Ada orders a pickup from Ozone Cinema to UNILAG Main Gate, a photo with it; the
    delivery's id."""
    talk.media.files["media-1"] = JPEG
    shown = await talk.says("new")
    shown = await talk.taps(shown, "✓ Pickup & delivery")
    shown = await talk.says(Location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos"))
    shown = await talk.taps(shown, "UNILAG Main Gate")
    shown = await talk.taps(shown, "Use +")
    await talk.says(SharedContact("Bola Ahmed", ["+2348022223333"]))
    shown = await talk.says("A pair of shoes")
    await talk.taps(shown, "Small")
    shown = await talk.says(Image("media-1", "image/jpeg"))
    assert "Your order reference is" in text_of(await talk.taps(shown, "Confirm and send"))
    [link] = await talk.core.store.deliveries.for_user(USER, limit=5)
    return link.delivery_id


async def test_my_data_is_a_document_with_the_photo_after_it(talk: Talk) -> None:
    assert await talk.says("my data") == [TextMessage(say("privacy.export_nothing"))]
    await _ordered(talk)

    document, photo = await talk.says("My Data")

    assert isinstance(document, DocumentMessage) and isinstance(photo, ImageMessage)
    assert (document.mime_type, document.caption) == ("text/plain", say("privacy.export_intro"))
    assert document.filename.startswith("my-data-") and document.filename.endswith(".json")
    kept = json.dumps(json.loads(document.content), ensure_ascii=False)
    for needle in ADA.needles:
        assert needle in kept, needle
    assert (photo.content, photo.mime_type) == (JPEG, "image/jpeg")
    actions = [entry.action for entry in await talk.core.store.audit.since(0.0)]
    assert actions.count("customer_export") == 2  # each request audited, without the data


async def test_forget_me_is_asked_first_and_yes_leaves_only_the_anonymous_delivery(
    talk: Talk,
) -> None:
    delivery_id = await _ordered(talk)
    (question,) = await talk.says("forget me")
    assert isinstance(question, ButtonsMessage)
    assert question.body == say("privacy.forget_question")
    assert await talk.taps([question], say("privacy.forget_no")) == [
        TextMessage(say("privacy.forget_kept"))
    ]
    assert (await talk.core.store.customer_data.export(USER)).document["deliveries"]
    await talk.core.store.deliveries.note_status(delivery_id, "delivered")  # the relay's note

    (answer,) = await talk.taps([question], say("privacy.forget_yes"))  # the older question

    assert answer == TextMessage(f"{say('privacy.forget_done')} {say('privacy.forget_books_one')}")
    assert await _findings(talk.core.store, "sqlite", ADA) == set()
    assert list(talk.core.store.media_dir.iterdir()) == []
    kept = await talk.core.store.deliveries.get(delivery_id)
    assert kept is not None and kept.status == "delivered"
    # Tapped again: erased again, which finds nothing more to erase.
    assert await talk.taps([question], say("privacy.forget_yes")) == [
        TextMessage(say("privacy.forget_done"))
    ]


async def test_with_an_order_open_the_order_waits_and_after_forget_starts_afresh(
    talk: Talk,
) -> None:
    first = await talk.says("new")
    await talk.taps(first, "✓ Pickup & delivery")
    (menu,) = await talk.says("menu")
    assert isinstance(menu, ListMessage)
    shown = await talk.taps([menu], say("whatsapp.menu.my_data"))
    assert [type(message) for message in shown] == [DocumentMessage]  # the draft, no photo
    session = await talk.core.chats.session(talk.chat())
    assert session is not None and session.step == "pickup_place"  # untouched

    (question,) = await talk.taps([menu], say("whatsapp.menu.forget_me"))
    await talk.taps([question], say("privacy.forget_yes"))

    assert await talk.core.chats.session(talk.chat()) is None
    assert text_of(await talk.says("new")) == text_of(first)  # the first question, afresh


async def test_an_open_delivery_is_named_and_waits(talk: Talk) -> None:
    delivery_id = await _ordered(talk)
    await talk.says("/forgetme")

    answer = text_of(await talk.says(tap(talk.out.sent[talk.chat()], say("privacy.forget_yes"))))

    ref = delivery_id[:8].upper()
    assert answer == f"{say('privacy.forget_done')} {say('privacy.forget_open', refs=ref)}"
    assert await talk.core.store.customer_data.pending_for(USER)


async def test_while_a_person_is_awaited_the_requests_are_answered_not_passed_on(
    talk: Talk,
) -> None:
    await talk.says("human")
    assert await talk.core.handoffs.waiting_for(talk.chat()) is not None

    (document,) = await talk.says("my data")
    assert isinstance(document, DocumentMessage)
    assert json.loads(document.content)["handoffs"]  # the hand-off itself is kept about her
    (question,) = await talk.says("forget me")
    await talk.taps([question], say("privacy.forget_yes"))

    assert talk.staff.bodies == []  # staff saw none of it
    assert await talk.core.handoffs.waiting_for(talk.chat()) is None  # erased with the rest


@pytest.mark.parametrize("locale", ["fr_FR"])
async def test_in_french(talk: Talk, locale: str) -> None:
    french = said_in("fr")
    assert await talk.says("Mes données") == [TextMessage(french.say("privacy.export_nothing"))]
    (question,) = await talk.says("oubliez-moi")
    assert isinstance(question, ButtonsMessage)
    assert [button.title for button in question.buttons] == ["Effacer mes données", "Les garder"]
    kept: list[Outgoing] = await talk.taps([question], "Les garder")
    assert kept == [TextMessage(french.say("privacy.forget_kept"))]


LONG_YES = "Yes, erase all of it right now please"  # past Meta's 20 characters for a button


@pytest.fixture
async def reworded(tmp_path: Path, sandbox: tuple[Sandbox, AppSwitch]) -> AsyncIterator[Talk]:
    """A business whose own words for the question's button and the file's caption run past
    Meta's limits."""
    partner, switch = sandbox
    own = {"privacy.forget_yes": LONG_YES, "privacy.export_intro": "Here. " * 300}
    config = talk_config(tmp_path, partner, texts={"locale": "en_NG", "en": own})
    async with running(config, partner, switch) as runtime:
        world = runtime.started["whatsapp"]
        assert isinstance(world, Talk)
        yield world


async def test_a_businesss_long_words_are_cut_to_metas_limits_never_refused(
    reworded: Talk,
) -> None:
    (question,) = await reworded.says("forget me")
    assert isinstance(question, ButtonsMessage)
    yes = question.buttons[0].title
    assert len(yes) == MAX_BUTTON_TITLE and LONG_YES.startswith(yes.rstrip("…"))
    await _ordered(reworded)
    (document, _photo) = await reworded.says("my data")
    assert isinstance(document, DocumentMessage) and len(document.caption) == MAX_CAPTION
