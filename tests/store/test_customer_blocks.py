"""``store.customer_blocks`` and ``store.audit`` on both backends: a block per customer (the
first kept), the deliveries and drafts that name whom to block, and the trail by time."""

from __future__ import annotations

from collections.abc import Callable

from bot.chat_ref import ChatRef, UserRef
from bot.store import Store
from tests.store.conftest import START

ADA = UserRef("telegram", 1001)
AGENT_CUSTOMER = UserRef("agents", 7)


async def test_a_customer_is_blocked_once_and_unblocked(
    store: Store, advance: Callable[[float], None]
) -> None:
    blocks = store.customer_blocks
    assert await blocks.get(ADA) is None

    assert await blocks.block(ADA, by="telegram:1900", reason="fifty orders") is True
    advance(60)
    assert await blocks.block(ADA, by="shell") is False  # the first block is kept
    assert await blocks.block(AGENT_CUSTOMER, by="shell") is True

    found = await blocks.get(ADA)
    assert found is not None
    assert (found.reason, found.blocked_by, found.blocked_at) == (
        "fifty orders",
        "telegram:1900",
        START,
    )
    assert [b.user for b in await blocks.all()] == [ADA, AGENT_CUSTOMER]
    assert await blocks.get(UserRef("console", 1001)) is None  # another channel's customer
    assert await blocks.unblock(ADA) is True
    assert await blocks.unblock(ADA) is False
    assert await blocks.get(ADA) is None


async def test_deliveries_and_drafts_name_their_customer(store: Store) -> None:
    await store.deliveries.add(
        "3f2a9c1e-0000-4000-8000-000000000001",
        ChatRef("telegram", 1001),
        1001,
        START,
        None,
        None,
        "pending",
    )
    await store.deliveries.add(
        "3f2b0000-0000-4000-8000-000000000002",
        ChatRef("agents", 5),
        7,
        START,
        None,
        None,
        "pending",
    )
    await store.sessions.save(ChatRef("agents", 5), 7, "{}")
    await store.sessions.save(ChatRef("agents", 6), 7, "{}")
    await store.sessions.save(ChatRef("telegram", 1001), 1001, "{}")

    blocks = store.customer_blocks
    assert await blocks.customers_of("3F2A9C") == [("3f2a9c1e-0000-4000-8000-000000000001", ADA)]
    assert [user for _, user in await blocks.customers_of("3f2")] == [ADA, AGENT_CUSTOMER]
    assert await blocks.customers_of("3f2_") == []  # a LIKE wildcard is no reference
    assert sorted(await blocks.drafts_of(AGENT_CUSTOMER)) == [
        ChatRef("agents", 5),
        ChatRef("agents", 6),
    ]


async def test_the_audit_trail_lists_events_since_a_moment_and_prunes_old_ones(
    store: Store, advance: Callable[[float], None]
) -> None:
    audit = store.audit
    await audit.record("telegram:1900", "block", "telegram:1001", "done", "spam")
    advance(3600)
    await audit.record("shell", "unblock", "telegram:1001", "done")

    assert [(e.action, e.detail) for e in await audit.since(START)] == [
        ("block", "spam"),
        ("unblock", None),
    ]
    assert [e.actor for e in await audit.since(START + 1)] == ["shell"]
    assert await audit.prune(START + 1) == 1
    assert [e.action for e in await audit.since(0)] == ["unblock"]
