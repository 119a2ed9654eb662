"""A create settled with its delivery keeps, in the settling commit, the facts its customer's
message tells (``CreatedLink.told``): the follow-up's ``settle`` and the turn's
``settle_created`` alike, and a delivery some other way linked first learns them all the same;
on each backend."""

from __future__ import annotations

import json

from bot.chat_ref import ChatRef
from bot.store import CreatedLink, CreateIntent, Store

from .conftest import START

CHAT = ChatRef("telegram", 42)
RIDER = frozenset({"rider:rdr_tunde"})


def created(told: frozenset[str] = RIDER) -> CreatedLink:
    return CreatedLink("d-1", START + 1, None, "https://t.example/d-1", "matched", told)


async def told(store: Store, delivery_id: str = "d-1") -> frozenset[str]:
    link = await store.deliveries.get(delivery_id)
    assert link is not None
    return link.told


async def lost_create(store: Store) -> None:
    await store.unconfirmed.add(
        "key-lost",
        CHAT,
        7,
        request="{}",
        saved_order="{}",
        fingerprint="fp",
        created_at=START,
        next_attempt_at=START,
    )


async def test_the_follow_ups_settle_keeps_what_its_notice_tells(store: Store) -> None:
    await lost_create(store)
    entry = await store.unconfirmed.get("key-lost")
    assert entry is not None

    assert await store.unconfirmed.settle(entry, "Good news: it went through.", created())

    assert await told(store) == RIDER


async def test_a_delivery_linked_before_the_follow_up_settled_learns_its_facts(
    store: Store,
) -> None:
    await store.deliveries.add(
        "d-1", CHAT, 7, START, None, None, "matched", told=frozenset({"fee:2600"})
    )
    await lost_create(store)
    entry = await store.unconfirmed.get("key-lost")
    assert entry is not None

    assert await store.unconfirmed.settle(entry, "Good news: it went through.", created())

    assert await told(store) == RIDER | {"fee:2600"}


async def test_the_turns_settle_keeps_what_its_reply_tells_even_when_linked_again(
    store: Store,
) -> None:
    intent = CreateIntent(
        idempotency_key="key-turn",
        chat=CHAT,
        user_id=7,
        request=json.dumps({"idempotencyKey": "key-turn"}),
        saved_order="{}",
        fingerprint="fp",
        language=None,
        created_at=START,
    )
    await store.create_intents.record(intent, "me", START + 15)

    assert await store.create_intents.settle_created(intent, created(), notice="went through")
    assert await told(store) == RIDER

    # Linked once; the facts of a second answer (the same key sent again) are added to it.
    assert not await store.create_intents.settle_created(intent, created(frozenset({"paid"})))
    assert await told(store) == RIDER | {"paid"}
