"""WhatsApp's conversation over a real core: an order from "new" to the created delivery, the
81 rooms paged and typed, a stale tap, the words in English and French, the desk's answers, an
unsupported message, a photo, a blocked customer and a person (``world``)."""

from __future__ import annotations

import pytest

from bot.chat_ref import WHATSAPP, UserRef
from bot.handoff.bodies import text_body
from bot.whatsapp.inbound import ButtonReply, Image, Location, SharedContact, Unsupported
from bot.whatsapp.outgoing import ButtonsMessage, ListMessage, LocationRequest, TextMessage
from bot.whatsapp.whatsapp_conversation import WHATSAPP_WORDS, WhatsAppConversation
from tests.ordering.conftest import JPEG
from tests.support.words import said_in, say
from tests.whatsapp.talk.world import WA_ID, Talk, text_of

FRENCH = said_in("fr")


async def _to_the_rooms(talk: Talk) -> list:  # type: ignore[type-arg]
    shown = await talk.says("new")
    shown = await talk.taps(shown, "✓ Pickup")
    shown = await talk.says(Location(6.5095, 3.3711))
    shown = await talk.says("12 Herbert Macaulay Way, Yaba")
    return await talk.taps(shown, "Moremi Hall")


async def test_an_order_from_new_to_created_then_its_status_list_and_cancel(talk: Talk) -> None:
    talk.media.files["media-1"] = JPEG
    shown = await talk.says("new")
    (kinds,) = shown
    assert isinstance(kinds, ListMessage) and kinds.body == "What would you like to order?"
    shown = await talk.taps(shown, "✓ Pickup & delivery")  # the pre-selected one, one tap
    places, pin = shown
    assert isinstance(places, ListMessage) and isinstance(pin, LocationRequest)
    shown = await talk.says(Location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos"))
    shown = await talk.taps(shown, "UNILAG Main Gate")
    (name,) = shown  # the customer's own number, WhatsApp's, one tap
    assert isinstance(name, ButtonsMessage)
    assert [b.title for b in name.buttons] == ["Use +2348031234567", "Back"]
    shown = await talk.taps(shown, "Use +")
    shown = await talk.says(SharedContact("Bola Ahmed", ["+2348022223333"]))  # the receiver's
    shown = await talk.says("A pair of shoes")
    (size,) = shown
    assert isinstance(size, ListMessage)  # three sizes and "Back": four, a list
    assert next((r.title, r.description) for r in size.sections[0].rows) == (
        "Small",
        "fits in a bag",
    )
    shown = await talk.taps(shown, "Small")
    assert "photos" in text_of(shown)
    shown = await talk.says(Image("media-1", "image/jpeg"))  # downloaded, re-hosted
    (summary,) = shown
    assert isinstance(summary, ListMessage)
    assert "• Your phone: +2348031234567" in summary.body
    assert "• Receiver's phone: +2348022223333" in summary.body
    assert "NGN" in summary.body  # the fee with its currency
    shown = await talk.taps(shown, "Confirm and send")
    done = text_of(shown)
    assert "Your order reference is" in done

    session = await talk.core.chats.session(talk.chat())
    assert session is None  # the order ended: created
    user = UserRef(WHATSAPP, int(WA_ID))
    links = await talk.core.store.deliveries.for_user(user, limit=5)
    assert len(links) == 1
    ref = links[0].delivery_id[:8].upper()
    assert ref in done

    status = text_of(await talk.says("status"))
    assert ref in status
    listed = text_of(await talk.says("deliveries"))
    assert ref in listed
    cancelled = text_of(await talk.says(f"cancel_delivery {ref} changed my mind"))
    assert ref in cancelled and cancelled != status


async def test_81_rooms_turn_pages_and_a_room_may_be_typed(talk: Talk) -> None:
    shown = await _to_the_rooms(talk)
    (rooms,) = shown
    assert isinstance(rooms, ListMessage) and "Page 1 of 12" in rooms.body
    page_two = await talk.taps(shown, "More…")
    assert isinstance(page_two[0], ListMessage) and "Page 2 of 12" in page_two[0].body
    back_to_one = await talk.taps(page_two, "‹ Previous")
    assert "Page 1 of 12" in text_of(back_to_one)
    await talk.taps(page_two, "A010")  # the page shown before still answers
    session = await talk.core.chats.session(talk.chat())
    assert session is not None and session.answers["dropoff_unit"] == "A010"

    await talk.says("back")
    await talk.says("B012")  # typed, as it is written
    session = await talk.core.chats.session(talk.chat())
    assert session is not None and session.answers["dropoff_unit"] == "B012"


async def test_a_tap_on_an_earlier_question_is_refused_kindly(talk: Talk) -> None:
    first = await talk.says("new")
    await talk.taps(first, "✓ Pickup")
    again = await talk.taps(first, "Return a parcel")  # the first question's list, once more
    assert text_of(again).startswith(say("dialogue.stale"))
    session = await talk.core.chats.session(talk.chat())
    assert session is not None and session.step == "pickup_place"
    nowhere = await talk.says(ButtonReply("w1:o:AAAAAAAA:1:99", "Gone"))
    assert text_of(nowhere).startswith(say("dialogue.stale"))


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en_NG", ["new", "back", "help", "status", "deliveries", "cancel", "cancel_delivery"]),
        (
            "fr_FR",
            ["nouveau", "retour", "aide", "statut", "livraisons", "annuler", "annuler_livraison"],
        ),
    ],
)
async def test_the_words_in_english_and_french(talk: Talk, locale: str, words: list[str]) -> None:
    catalogue = said_in(locale[:2])
    new, back, help_, status, deliveries, cancel, cancel_delivery = words
    asked = await talk.says(new)
    await talk.taps(asked, "✓ ")
    went_back = await talk.says(back)
    assert text_of(went_back) == text_of(asked)  # the first question again
    helped = await talk.says(help_)
    assert isinstance(helped[-1], ListMessage)  # the question's help, then the menu
    assert helped[-1].body == catalogue.say("whatsapp.menu")
    (menu,) = await talk.says("menu")
    assert isinstance(menu, ListMessage)
    assert [r.title for r in menu.sections[0].rows] == [
        catalogue.say(f"whatsapp.menu.{word}")
        for word in (
            "new",
            "repeat",
            "status",
            "deliveries",
            "cancel_delivery",
            "human",
            "my_data",
            "forget_me",
        )
    ]
    none_yet = [TextMessage(catalogue.say("desk.none_yet", new=new))]
    assert await talk.says(status) == none_yet
    assert await talk.says(deliveries) == none_yet
    assert await talk.taps([menu], catalogue.say("whatsapp.menu.status")) == none_yet
    unknown = await talk.says("quote keep 3F2A9C1E")  # the relay's fee question, typed
    assert "3F2A9C1E" in text_of(unknown)
    assert await talk.says(ButtonReply("quote keep 3F2A9C1E", "Keep the order")) == unknown
    how = await talk.says(cancel_delivery)
    assert how == [TextMessage(catalogue.say("desk.cancel_usage", command=cancel_delivery))]
    (sure,) = await talk.says(cancel)  # answers would be lost: asked first, with buttons
    assert isinstance(sure, ButtonsMessage) and len(sure.buttons) == 2
    await talk.taps([sure], sure.buttons[0].title)
    assert await talk.core.chats.session(talk.chat()) is None


async def test_a_sticker_gets_a_polite_sentence_and_changes_nothing(talk: Talk) -> None:
    await talk.says("new")
    before = await talk.core.chats.session(talk.chat())
    (sorry,) = await talk.says(Unsupported("sticker"))
    assert sorry == TextMessage(say("whatsapp.unsupported"))
    after = await talk.core.chats.session(talk.chat())
    assert before is not None and after is not None and after.step == before.step


async def test_a_photo_that_cannot_be_downloaded_is_asked_again(talk: Talk) -> None:
    (sorry,) = await talk.says(Image("media-expired", "image/jpeg"))
    assert sorry.body == say("whatsapp.no_order")  # no order: nothing downloaded
    shown = await _to_the_rooms(talk)
    assert shown
    refused = await talk.says(Image("media-expired", "image/jpeg"))
    assert refused == [TextMessage(say("whatsapp.photo.download_failed"))]
    talk.media.files["not-a-picture"] = b"GIF89a not one of ours"
    refused = await talk.says(Image("not-a-picture", "image/jpeg"))
    assert refused == [TextMessage(say("whatsapp.photo.not_an_image"))]


async def test_a_blocked_customer_is_told_once_politely(talk: Talk) -> None:
    await talk.says("new")
    user = UserRef(WHATSAPP, int(WA_ID))
    await talk.core.chats.blocking.block(user, by="test")
    shown = await talk.says("back")
    assert text_of(shown) == say("safety.blocked")
    assert await talk.core.chats.session(talk.chat()) is None


async def test_human_reaches_staff_and_their_answer_reaches_the_customer(talk: Talk) -> None:
    await talk.says("new")
    assert not any(isinstance(m, ButtonsMessage) for m in await talk.says("a spaceship"))
    stuck = await talk.says("a spaceship")  # wrong twice in a row: a person is offered
    offer = stuck[-1]
    assert isinstance(offer, ButtonsMessage) and offer.body == say("human.offer")
    opened = text_of(await talk.taps([offer], say("whatsapp.human_button")))
    assert "our team" in opened and len(talk.staff.cards) == 1
    assert "Ada Obi" in talk.staff.cards[0]
    held = await talk.says("new")  # the order waits as staff see it
    assert "new" in text_of(held)
    assert await talk.says("Where is the rider?") == []
    assert [body.get("text") for body in talk.staff.bodies] == ["new", "Where is the rider?"]

    handoff = await talk.core.handoffs.waiting_for(talk.chat())
    assert handoff is not None
    assert await talk.core.handoffs.reply(handoff, text_body("On the way, 10 minutes."))
    assert talk.out.sent[talk.chat()][-1] == TextMessage("On the way, 10 minutes.")
    await talk.core.handoffs.close(handoff.ref)
    shown_again = talk.out.sent[talk.chat()][-2:]
    assert any(isinstance(m, ListMessage) for m in shown_again)  # the order's question again


async def test_another_process_reads_a_tap_on_the_list_this_one_drew(talk: Talk) -> None:
    shown = await talk.says("new")
    assert talk.conversation is not None
    # The next message is handled by a process that drew nothing: it reads the question back.
    talk.conversation = WhatsAppConversation(
        talk.core.chats,
        talk.core.desk(WHATSAPP_WORDS),
        talk.out,
        talk.conversation.media,
        talk.windows,
    )
    await talk.taps(shown, "✓ Pickup")
    session = await talk.core.chats.session(talk.chat())
    assert session is not None and session.step == "pickup_place"


@pytest.mark.parametrize("locale", ["fr_FR"])
async def test_in_french_the_own_number_fits_its_button(talk: Talk, locale: str) -> None:
    shown = await talk.says("nouveau")
    shown = await talk.taps(shown, "✓ ")
    shown = await talk.says(Location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos"))
    (name,) = await talk.taps(shown, "UNILAG Main Gate")
    assert isinstance(name, ButtonsMessage)
    assert [b.title for b in name.buttons] == ["Mon numéro", "Retour"]  # "Mon n° +234…" is 21
