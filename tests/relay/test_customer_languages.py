"""Relayed news reaches each customer in the language they ordered in; operators read the
business's default language, whoever's delivery it is.

Real parts throughout: orders go through ``ChatService`` to the in-process sandbox, whose signed
webhooks reach the bot's web app and inbox, and the real relay sends to a recording channel.
The store runs on a SQLite file and on the session's throwaway PostgreSQL server.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.chat_ref import AGENTS, TELEGRAM, ChatRef, UserRef
from bot.config import RelayConfig
from bot.ordering import ChatService, build_engine
from bot.partner.capabilities import CapabilityCache
from bot.partner.models import Delivery
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Texts
from tests.ordering.conftest import CONFIRM_ANSWER, TO_SUMMARY
from tests.support.clock import FakeClock

from .support import (
    BOT_LINK,
    CUSTOMER_CHAT,
    CUSTOMER_USER,
    OPERATOR,
    MakeRelay,
    OpenStore,
    RecordingChannel,
)
from .world import MakeWorld, World

# The service's own customer_message_hint is its wording, not the bot's: left out here, each
# change of status is said in the bot's words alone.
BOT_WORDS_ONLY = RelayConfig.model_validate({"customer": {"customer_message_hint": False}})
RECEIVER = "+2348022223333"  # TO_SUMMARY's receiver, "0802 222 3333"
CUSTOMER = ChatRef(TELEGRAM, CUSTOMER_CHAT)


@pytest.fixture(params=["sqlite", "postgres"])
async def open_store(
    request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock
) -> AsyncIterator[OpenStore]:
    """The relay fixtures' ``open_store``, on each backend."""
    opened: list[Store] = []
    dsn = None
    if request.param == "postgres":
        # A database of its own: the store tests' shared one is theirs to break and mend.
        server: LocalPostgres = request.getfixturevalue("postgres_server")
        dsn = await server.create_database("relay_languages")

    async def open_() -> Store:
        if dsn is None:
            store = await Store.connect(tmp_path / "bot.db", clock=clock, synchronous="NORMAL")
        else:
            store = await Store.connect_postgres(
                dsn, media_dir=tmp_path / "media", clock=clock, channels=SHIPPED_CHANNEL_KINDS
            )
        opened.append(store)
        return store

    yield open_
    for store in opened:
        await store.close()


def manual_dispatch(data: dict[str, Any]) -> None:
    data["capabilities"]["publicRequest"]["autoDispatch"] = False


async def bot_world(
    make_world: MakeWorld, make_relay: MakeRelay, *, locale: str
) -> tuple[World, BusinessTexts]:
    """A world whose business speaks ``locale``, and that business's texts (its relay's; the
    chat service a customer orders through is given them too, by ``order``)."""
    texts = BusinessTexts(Texts(locale=locale))
    world = await make_world(manual_dispatch)
    world.relay = make_relay(world.store, settings=BOT_WORDS_ONLY, texts=texts)
    return world, texts


async def order(world: World, texts: BusinessTexts, *, language: str | None) -> Delivery:
    """A pickup & delivery ordered through ``ChatService`` (the business's ``texts``) by the
    customer whose client says ``language``, passed on every call as every channel does."""
    cache = CapabilityCache.for_client(world.client, clock=world.clock)
    engine = build_engine(world.client, cache)
    chats = ChatService(engine, world.store, clock=world.clock, texts=texts)
    await chats.start(CUSTOMER, CUSTOMER.user(CUSTOMER_USER), language=language)
    for answer in [*TO_SUMMARY, CONFIRM_ANSWER]:
        turn = await chats.handle(CUSTOMER, CUSTOMER.user(CUSTOMER_USER), answer, language=language)
    assert turn.delivery is not None, turn.messages
    return turn.delivery


async def rider_and_code(world: World, delivery: Delivery) -> None:
    """The first events after the create: the rider assigned, then the fee paid (the drop-off
    code is issued)."""
    assert await world.settle() == 1  # delivery.created: the chat's own answer said it
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    assert await world.settle() == 1
    world.sandbox.mark_paid(delivery.id)
    assert await world.settle() == 2  # delivery.updated, delivery.otp_issued


def ref(delivery: Delivery) -> str:
    return delivery.id.split("-")[0].upper()


async def test_a_french_order_gets_its_news_in_french_and_operators_stay_in_english(
    make_world: MakeWorld, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    world, texts = await bot_world(make_world, make_relay, locale="en_NG")
    delivery = await order(world, texts, language="fr")
    link = await world.store.deliveries.get(delivery.id)
    assert link is not None and link.language == "fr"

    await rider_and_code(world, delivery)
    handoff = await world.store.otp.get(delivery.id)
    assert handoff is not None
    short = ref(delivery)
    assert channel.texts(CUSTOMER_CHAT) == [
        f"Livraison {short}\n"
        "Un livreur (Tunde, moto) est attribué et se rend au lieu d'enlèvement.",
        f"Livraison {short}\nNous avons bien reçu votre paiement de 1\u202f500\u00a0NGN. "
        "Merci\u00a0!",
        f"Le code de remise de la livraison {short} est prêt. Seul le destinataire peut le "
        f"voir\u00a0: transférez-lui ce lien\u00a0:\n{BOT_LINK}{handoff.token}\n"
        "Il l'ouvre et partage son propre numéro de téléphone pour obtenir le code.",
    ]
    operator = channel.texts(OPERATOR)
    # The service's summaries as it wrote them, and the bot's own words in the business's.
    assert operator[1].startswith(f"Delivery {short} to ")
    assert operator[-1] == (
        f"The drop-off code for delivery {short} is waiting for the receiver to verify their "
        "phone number."
    )

    world.sandbox.advance_status(delivery.id)
    assert await world.settle() == 1
    assert channel.texts(CUSTOMER_CHAT)[-1] == (
        f"Livraison {short}\nLe livreur a récupéré votre colis."
    )


async def test_an_english_customer_of_a_french_business_gets_english(
    make_world: MakeWorld, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    world, texts = await bot_world(make_world, make_relay, locale="fr_FR")
    delivery = await order(world, texts, language="en-GB")  # as the Telegram adapter passes it
    link = await world.store.deliveries.get(delivery.id)
    assert link is not None and link.language == "en"

    await rider_and_code(world, delivery)
    short = ref(delivery)
    customer = channel.texts(CUSTOMER_CHAT)
    assert customer[0] == (
        f"Delivery {short}\nA rider (Tunde, motorbike) is assigned and heading to pickup."
    )
    # Money as the business's region (France) writes it, in the customer's words.
    assert customer[1].startswith(f"Delivery {short}\nWe have received your payment of 1")
    assert customer[2].startswith(f"The drop-off code for delivery {short} is ready.")
    assert channel.texts(OPERATOR)[-1] == (
        f"Le code de remise de la livraison {short} attend que le destinataire vérifie son "
        "numéro de téléphone."
    )


async def test_a_link_without_a_language_gets_the_business_default(
    make_world: MakeWorld, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    """A link kept before languages were (NULL), or ordered outside any turn's language."""
    world, _ = await bot_world(make_world, make_relay, locale="fr_FR")
    delivery = await world.order()  # linked as a row from an older release: no language
    link = await world.store.deliveries.get(delivery.id)
    assert link is not None and link.language is None

    assert await world.settle() == 1
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    assert await world.settle() == 1
    assert channel.texts(CUSTOMER_CHAT) == [
        f"Livraison {ref(delivery)}\n"
        "Un livreur (Tunde, moto) est attribué et se rend au lieu d'enlèvement."
    ]


async def test_the_drop_off_code_itself_is_said_in_the_customers_language(
    make_world: MakeWorld, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    world, texts = await bot_world(make_world, make_relay, locale="en_NG")
    # The customer's own verified phone is the receiver's: the code comes to their chat.
    await world.store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), RECEIVER, contact_user_id=CUSTOMER_USER
    )
    delivery = await order(world, texts, language="fr-CA")

    await rider_and_code(world, delivery)
    code = world.sandbox.otp_code(delivery.id)
    assert channel.texts(CUSTOMER_CHAT)[-1] == (
        f"Votre code de remise pour la livraison {ref(delivery)} est {code}. Ne le donnez au "
        "livreur qu'une fois le colis entre vos mains."
    )
    assert code not in "".join(channel.texts(OPERATOR))


async def test_an_agent_conversations_event_words_its_status_in_the_conversations_language(
    make_world: MakeWorld, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    world, _ = await bot_world(make_world, make_relay, locale="en_NG")
    conversation = 1  # the agents' first conversation, of their first customer
    delivery = await world.order(
        chat_id=conversation, user_id=conversation, channel=AGENTS, language="fr"
    )
    assert await world.settle() == 1
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    assert await world.settle() == 1

    created, assigned = (json.loads(body) for body in channel.texts(conversation))
    assert (created["status_text"], assigned["status_text"]) == (
        "en attente d'un livreur",
        "livreur attribué",
    )
    assert assigned["status"] == "matched"  # the service's value, as it is
    assert channel.texts(OPERATOR)[-1].startswith(f"Delivery {ref(delivery)} to ")
