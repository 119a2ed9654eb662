"""A customer's requests ("my data", "forget me") are in the audit trail once, without the data
itself, and the forget's entry keeps no real id of the customer once they are erased."""

from __future__ import annotations

import json

from bot.chat_ref import ChatRef
from bot.privacy.customer_requests import (
    CUSTOMER_ACTOR,
    EXPORT_ACTION,
    FORGET_ACTION,
    export_customer,
    forget_customer,
)
from bot.store import Store
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue
from conversations.texts.privacy_texts import forget_answer

CHAT = ChatRef("whatsapp", 2348031234567)  # on WhatsApp the id is the phone number
USER = CHAT.user(2348031234567)
NAME = "Ngozi Eze"


async def test_my_data_is_audited_without_the_data(store: Store) -> None:
    await store.customers.put(USER, json.dumps({"name": NAME}))

    exported = await export_customer(store, USER, actor=CUSTOMER_ACTOR)

    assert NAME in json.dumps(exported.document)
    [entry] = await store.audit.since(0)
    assert (entry.actor, entry.action, entry.outcome) == (CUSTOMER_ACTOR, EXPORT_ACTION, "done")
    assert NAME not in repr(entry)


async def test_forget_me_erases_and_its_entry_names_only_the_stand_in(store: Store) -> None:
    await store.customers.put(USER, json.dumps({"name": NAME}))
    await store.deliveries.add("done-1", CHAT, USER.id, store.clock(), "+2348022223333", None)
    assert await store.deliveries.update_view("done-1", "delivered", int(store.clock()) + 1)

    outcome = await forget_customer(store, USER, actor=CUSTOMER_ACTOR)

    assert outcome.anonymised_deliveries == 1 and not outcome.pending
    assert await store.customers.get(USER) is None
    [entry] = await store.audit.since(0)
    assert entry.action == FORGET_ACTION
    assert "2348031234567" not in repr(entry)


def test_the_answer_says_what_was_kept_and_what_waits() -> None:
    catalogue = DEFAULT_TEXTS.business_catalogue()
    said = forget_answer(catalogue, anonymised=2, open_deliveries=["3f2a9c1e-5b7d"])
    assert said.startswith("Done: what this bot kept about you is erased.")
    assert "keeps 2 past deliveries" in said and "3F2A9C1E is still on its way" in said


def test_one_kept_delivery_is_said_in_the_singular_or_in_the_businesss_own_words() -> None:
    shipped = DEFAULT_TEXTS.business_catalogue()
    assert "keeps your past delivery for its books" in forget_answer(
        shipped, anonymised=1, open_deliveries=()
    )
    french = DEFAULT_TEXTS.catalogue_for("fr")
    many = forget_answer(french, anonymised=1234, open_deliveries=())
    assert f"garde {french.number(1234)} livraisons" in many and "1234" not in many
    # A business that reworded the sentence before the singular was shipped keeps its words.
    own = "We keep {count} orders, nameless."
    reworded = Catalogue.build("en", "en", {**shipped.messages, "privacy.forget_books": own})
    assert forget_answer(reworded, anonymised=1, open_deliveries=()).endswith(
        "We keep 1 orders, nameless."
    )
