"""``deliveries.note_first`` and ``forget_told``: a fact claimed once among many writers (the
quote question's answer), and given back when the work it stood for failed; on each backend."""

from __future__ import annotations

import asyncio

from bot.chat_ref import ChatRef
from bot.store import Store

ANSWERED = "quote_answer:"


async def linked(store: Store, delivery_id: str = "d1") -> str:
    await store.deliveries.add(
        delivery_id,
        chat=ChatRef("telegram", 7),
        user_id=7,
        created_at=100.0,
        receiver_phone=None,
        tracking_url=None,
        status="pending",
        told=frozenset({"quote:2600", "fee:2600"}),
    )
    return delivery_id


async def told(store: Store, delivery_id: str) -> frozenset[str]:
    link = await store.deliveries.get(delivery_id)
    assert link is not None
    return link.told


async def test_the_first_claim_wins_and_keeps_the_other_facts(store: Store) -> None:
    delivery = await linked(store)
    assert await store.deliveries.note_first(delivery, ANSWERED + "keep", unless=ANSWERED)
    assert not await store.deliveries.note_first(delivery, ANSWERED + "cancel", unless=ANSWERED)
    assert await told(store, delivery) == {"quote:2600", "fee:2600", "quote_answer:keep"}


async def test_concurrent_claims_have_exactly_one_winner(store: Store) -> None:
    delivery = await linked(store)
    claims = [
        store.deliveries.note_first(delivery, ANSWERED + choice, unless=ANSWERED)
        for choice in ("keep", "cancel") * 4
    ]
    won = await asyncio.gather(*claims)
    assert won.count(True) == 1
    answers = [fact for fact in await told(store, delivery) if fact.startswith(ANSWERED)]
    assert len(answers) == 1


async def test_a_forgotten_claim_can_be_made_again(store: Store) -> None:
    delivery = await linked(store)
    assert await store.deliveries.note_first(delivery, ANSWERED + "cancel", unless=ANSWERED)
    await store.deliveries.forget_told(delivery, ANSWERED + "cancel")
    assert await told(store, delivery) == {"quote:2600", "fee:2600"}
    await store.deliveries.forget_told(delivery, ANSWERED + "cancel")  # nothing left: no-op
    assert await store.deliveries.note_first(delivery, ANSWERED + "keep", unless=ANSWERED)


async def test_an_unknown_delivery_is_never_claimed(store: Store) -> None:
    assert not await store.deliveries.note_first("nope", ANSWERED + "keep", unless=ANSWERED)
    await store.deliveries.forget_told("nope", ANSWERED + "keep")
