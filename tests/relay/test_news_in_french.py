"""A customer who orders in French reads every piece of their delivery's news in French, with
the service's hints on (they are in English, ``[texts] service_language``): the bot's own
sentence is said for each fact, and no English sentence reaches them.

The check is a word list: words of the English catalogue that the French one never uses, and
the English words of the sandbox's hints. Real parts throughout, as in
``test_customer_languages``: the order goes through ``ChatService`` to the sandbox, whose
signed webhooks reach the relay.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import TELEGRAM, ChatRef
from bot.ordering import ChatService, build_engine
from bot.partner.capabilities import CapabilityCache
from bot.partner.models import Delivery
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Texts, shipped_messages
from tests.ordering.conftest import CONFIRM_ANSWER, TO_SUMMARY

from .support import CUSTOMER_CHAT, CUSTOMER_USER, MakeRelay, RecordingChannel
from .world import MakeWorld, World

_WORD = re.compile(r"[^\W\d_]{4,}")


def _words(texts: Iterator[str] | list[str]) -> set[str]:
    return {word.casefold() for text in texts for word in _WORD.findall(text)}


# Words only English says: the English catalogue's (the channels' words too), less every word
# the French one uses too (names, "code", "photo"...), and the sandbox hints' own ("Good news",
# "Thank you").
_CHANNELS = shipped_channel_texts()
ENGLISH = (
    _words(iter(shipped_messages("en", _CHANNELS).values()))
    | {"good", "news", "thank", "received", "heading"}
) - _words(iter(shipped_messages("fr", _CHANNELS).values()))


def approval_and_manual_dispatch(data: dict[str, object]) -> None:
    """Staff price every order (``awaiting_price``), and assign riders by hand."""
    request = data["capabilities"]["publicRequest"]  # type: ignore[index]
    request["autoDispatch"] = False
    request["requireApproval"] = True


async def order_in_french(world: World) -> tuple[Delivery, list[str]]:
    cache = CapabilityCache.for_client(world.client, clock=world.clock)
    engine = build_engine(world.client, cache)
    # The business speaks English; the service writes English.
    texts = BusinessTexts(Texts(locale="en_NG"))
    chats = ChatService(engine, world.store, clock=world.clock, texts=texts)
    chat = ChatRef(TELEGRAM, CUSTOMER_CHAT)
    await chats.start(chat, chat.user(CUSTOMER_USER), language="fr")
    for answer in [*TO_SUMMARY, CONFIRM_ANSWER]:
        turn = await chats.handle(chat, chat.user(CUSTOMER_USER), answer, language="fr")
    assert turn.delivery is not None, turn.messages
    return turn.delivery, list(turn.messages)


def english_in(text: str) -> set[str]:
    """The English-only words of ``text``, its links left out (``/track/...``)."""
    return _words([re.sub(r"\S+://\S+", "", text)]) & ENGLISH


def test_the_word_list_catches_english_and_passes_french() -> None:
    assert english_in("Good news: Tunde is your rider and is heading to the pickup.")
    assert english_in("We have received your payment of NGN 3,650. Thank you!")
    assert not english_in("Un livreur (Tunde, moto) est attribué et se rend au lieu d'enlèvement.")


async def test_every_event_of_a_french_order_is_told_in_french(
    make_world: MakeWorld, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    world = await make_world(approval_and_manual_dispatch)
    delivery, created = await order_in_french(world)
    assert delivery.status == "awaiting_price"
    ref = delivery.id
    steps = [
        lambda: None,  # delivery.created
        lambda: world.sandbox.set_fee(ref, 2600),  # status_changed: priced
        lambda: world.sandbox.set_fee(ref, 2800),  # delivery.updated: repriced
    ]
    for step in steps:
        step()
        await world.settle()
    await world.client.assign_rider(ref, "rdr_tunde")  # status_changed: matched
    await world.settle()
    await world.client.unassign_rider(ref)  # status_changed: pending again
    await world.settle()
    await world.client.assign_rider(ref, "rdr_tunde")
    await world.settle()
    world.sandbox.mark_paid(ref)  # delivery.updated (paid), delivery.otp_issued
    await world.settle()
    for moved in ("picked_up", "in_transit", "delivered"):  # ... and delivery.completed
        world.sandbox.advance_status(ref)
        await world.settle()
        if moved == "in_transit":
            world.sandbox.resend_otp(ref)  # delivery.otp_issued again
            await world.settle()

    second, _ = await order_in_french(world)
    await world.client.cancel_delivery(second.id, "Commande en double")  # delivery.cancelled
    await world.settle()

    news = channel.texts(CUSTOMER_CHAT)
    types = {attempt.event_type for attempt in world.sandbox.webhook_log()}
    assert types >= {
        "delivery.created",
        "delivery.status_changed",
        "delivery.updated",
        "delivery.otp_issued",
        "delivery.completed",
        "delivery.cancelled",
    }
    assert len(news) >= 8, news
    for text in [*created, *news]:
        assert not english_in(text), f"English reached a French customer: {text!r}"
    said = "\n".join(news)
    assert "2\u202f600" in said and "2\u202f800" in said  # each fee, in French
    assert "Nous avons bien reçu votre paiement" in said
