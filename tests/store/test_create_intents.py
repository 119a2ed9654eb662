"""``store.create_intents``: a create recorded before it is sent, leased to its sender, settled
with its link in one commit, and handed to ``store.unconfirmed`` once its lease ran out."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import asyncpg
import pytest

from bot.chat_ref import ChatRef
from bot.store import CreatedLink, CreateIntent, Store, create_intents

from .conftest import START

CHAT = ChatRef("telegram", 42)
LEASE = 15.0


def intent(key: str = "key-00000001") -> CreateIntent:
    return CreateIntent(
        idempotency_key=key,
        chat=CHAT,
        user_id=7,
        request=json.dumps({"idempotencyKey": key}),
        saved_order='{"flow":"pickup_delivery","flow_version":1,"answers":{}}',
        fingerprint="fp",
        language="fr",
        created_at=START,
    )


async def test_a_settled_create_is_linked_and_its_intent_gone(store: Store) -> None:
    await store.create_intents.record(intent(), "me", START + LEASE)
    assert await store.create_intents.count() == 1

    link = CreatedLink("d-1", START + 1, "+2348022223333", "https://t.example/d-1", "pending")
    assert await store.create_intents.settle_created(intent(), link)

    assert await store.create_intents.count() == 0
    linked = await store.deliveries.get("d-1")
    assert linked is not None and (linked.chat, linked.user_id) == (CHAT, 7)
    assert linked.language == "fr"
    # Linked once: a second settle (the turn's own link) keeps the first.
    assert not await store.create_intents.settle_created(intent(), link)


async def test_only_its_owner_renews_a_lease(store: Store) -> None:
    await store.create_intents.record(intent(), "me", START + LEASE)
    assert await store.create_intents.renew(intent().idempotency_key, "me", START + 2 * LEASE)
    assert not await store.create_intents.renew(intent().idempotency_key, "other", START)
    assert await store.create_intents.next_expiry() == START + 2 * LEASE


async def test_an_expired_intent_is_handed_to_the_unconfirmed_creates_once(
    store: Store, advance: Callable[[float], None]
) -> None:
    await store.create_intents.record(intent("key-live-0001"), "me", START + 2 * LEASE)
    await store.create_intents.record(intent("key-dead-0001"), "dead", START + LEASE)

    assert await store.create_intents.hand_over_expired(START + LEASE - 1) == 0
    assert await store.create_intents.hand_over_expired(START + LEASE) == 1
    assert await store.create_intents.hand_over_expired(START + LEASE) == 0

    (due,) = await store.unconfirmed.due(START + LEASE)
    assert due.idempotency_key == "key-dead-0001"
    assert (due.chat, due.user_id, due.language, due.attempts) == (CHAT, 7, "fr", 0)
    assert due.request == intent("key-dead-0001").request
    assert due.saved_order == intent().saved_order and due.created_at == START
    assert await store.create_intents.count() == 1  # the live one stays
    assert await store.create_intents.next_expiry() == START + 2 * LEASE


async def test_a_key_already_unconfirmed_is_not_kept_twice(store: Store) -> None:
    await store.create_intents.record(intent(), "dead", START)
    await store.unconfirmed.add(
        intent().idempotency_key,
        CHAT,
        7,
        request=intent().request,
        saved_order=intent().saved_order,
        fingerprint="fp",
        created_at=START,
        next_attempt_at=START + 99,
    )

    assert await store.create_intents.hand_over_expired(START) == 1

    assert await store.create_intents.count() == 0
    assert await store.unconfirmed.count_open() == 1
    assert await store.unconfirmed.next_due() == START + 99  # the row kept first is kept


# --- the intent and the session's move to "creating": one commit --------------------------------

SUMMARY = '{"step": "summary", "idempotency_key": null}'
CREATING = '{"step": "summary", "idempotency_key": "key-00000001"}'


async def test_the_intent_and_the_session_of_its_new_key_are_one_commit(store: Store) -> None:
    await store.sessions.save(CHAT, 7, SUMMARY)

    await store.create_intents.record(intent(), "me", START + LEASE, session=CREATING)

    saved = await store.sessions.get(CHAT)
    assert saved is not None and saved.data == CREATING
    assert await store.create_intents.count() == 1


async def test_a_failure_between_the_session_and_the_intent_keeps_neither(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session is written first; the intent's statement then fails (as a full disk or a
    lost connection would): the session's write is rolled back with it."""
    await store.sessions.save(CHAT, 7, SUMMARY)
    monkeypatch.setattr(create_intents, "_RECORD", "INSERT INTO no_such_table VALUES (1)")

    with pytest.raises((sqlite3.Error, asyncpg.PostgresError)):
        await store.create_intents.record(intent(), "me", START + LEASE, session=CREATING)

    assert await store.create_intents.count() == 0
    saved = await store.sessions.get(CHAT)
    assert saved is not None and saved.data == SUMMARY  # the move to "creating" is not kept


# --- answered: linked, its customer still to be told --------------------------------------------


async def test_an_answered_intent_stays_until_its_customer_is_told(store: Store) -> None:
    await store.create_intents.record(intent(), "me", START + LEASE)
    link = CreatedLink("d-1", START + 1, None, "https://t.example/d-1", "pending")

    assert await store.create_intents.settle_created(intent(), link, notice="Good news: d-1")

    assert await store.deliveries.get("d-1") is not None  # linked in the answer's commit
    assert await store.create_intents.count() == 1
    assert await store.create_intents.unanswered_requests() == []  # nothing left to link
    assert await store.create_intents.told(intent().idempotency_key)
    assert await store.create_intents.count() == 0
    assert not await store.create_intents.told(intent().idempotency_key)


async def test_an_unanswered_intent_is_not_told_away(store: Store) -> None:
    await store.create_intents.record(intent(), "me", START + LEASE)
    assert not await store.create_intents.told(intent().idempotency_key)
    assert await store.create_intents.unanswered_requests() == [(intent().request, START)]


async def test_an_answered_intent_whose_sender_died_is_handed_over_settled(store: Store) -> None:
    await store.create_intents.record(intent(), "dead", START + LEASE)
    link = CreatedLink("d-1", START + 1, None, None, "pending")
    await store.create_intents.settle_created(intent(), link, notice="Good news: d-1")

    assert await store.create_intents.hand_over_expired(START + LEASE) == 1

    (due,) = await store.unconfirmed.due(START + LEASE)
    assert due.settled and (due.delivery_id, due.notice) == ("d-1", "Good news: d-1")
    assert await store.unconfirmed.count_open() == 0  # nothing to read back or hold
    assert await store.create_intents.count() == 0
