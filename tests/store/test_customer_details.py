"""``store.customers``: one row of remembered details per user, replaced, never shared."""

from __future__ import annotations

from bot.chat_ref import UserRef
from bot.store import Store


async def test_details_are_kept_per_user_and_replaced(store: Store) -> None:
    assert await store.customers.get(UserRef("telegram", 7)) is None
    await store.customers.put(UserRef("telegram", 7), '{"name": "Ada"}')
    await store.customers.put(UserRef("telegram", 8), '{"name": "Bola"}')
    await store.customers.put(UserRef("telegram", 7), '{"name": "Ada Obi"}')
    assert await store.customers.get(UserRef("telegram", 7)) == '{"name": "Ada Obi"}'
    assert await store.customers.get(UserRef("telegram", 8)) == '{"name": "Bola"}'
    assert await store.customers.forget(UserRef("telegram", 7)) is True
    assert await store.customers.forget(UserRef("telegram", 7)) is False
    assert await store.customers.get(UserRef("telegram", 7)) is None
