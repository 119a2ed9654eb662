"""``store.customers``: one row of remembered details per user, replaced, never shared."""

from __future__ import annotations

from bot.store import Store


async def test_details_are_kept_per_user_and_replaced(store: Store) -> None:
    assert await store.customers.get(7) is None
    await store.customers.put(7, '{"name": "Ada"}')
    await store.customers.put(8, '{"name": "Bola"}')
    await store.customers.put(7, '{"name": "Ada Obi"}')
    assert await store.customers.get(7) == '{"name": "Ada Obi"}'
    assert await store.customers.get(8) == '{"name": "Bola"}'
    assert await store.customers.forget(7) is True
    assert await store.customers.forget(7) is False
    assert await store.customers.get(7) is None
