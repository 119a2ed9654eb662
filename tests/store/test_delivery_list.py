"""``store.delivery_list``: the console's list of deliveries, on both backends.

Each filter, the search by reference and by phone, keyset pages that neither skip nor repeat
a row while deliveries are added, the kinds of attention, and what the relay and the create
keep for the list (``ListedDetails``).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat_ref import AGENTS, ChatRef
from bot.store import ListedDetails, Store, ViewChange
from bot.store.delivery_list import Attention, ListCursor, ListedDelivery, ListQuery
from tests.store.conftest import START

TELEGRAM = "telegram"


def _id(n: int) -> str:
    return f"{n:08x}-aaaa-4bbb-8ccc-{n:012x}"


async def _add(
    store: Store,
    n: int,
    *,
    status: str = "pending",
    chat: ChatRef | None = None,
    user_id: int | None = None,
    created_at: float | None = None,
    receiver_phone: str | None = None,
    details: ListedDetails | None = None,
) -> str:
    delivery_id = _id(n)
    chat = chat or ChatRef(TELEGRAM, 1000 + n)
    await store.deliveries.add(
        delivery_id,
        chat,
        user_id if user_id is not None else chat.id,
        START + n * 60 if created_at is None else created_at,
        receiver_phone,
        None,
        status,
        details=details or ListedDetails(fee=1500.0, currency="NGN", customer_name=f"C{n}"),
    )
    return delivery_id


async def _ids(store: Store, query: ListQuery | None = None) -> list[str]:
    rows = await store.delivery_list.page(query or ListQuery())
    return [row.delivery_id for row in rows]


async def test_newest_first_with_what_the_list_shows(store: Store) -> None:
    details = ListedDetails(
        fee=2600.0,
        currency="NGN",
        rider_id="rdr_tunde",
        rider_name="Tunde",
        customer_name="Ada Obi",
        sender_phone="+2348031234567",
    )
    first = await _add(store, 1, status="matched", details=details)
    second = await _add(store, 2)
    rows = await store.delivery_list.page(ListQuery())
    assert [row.delivery_id for row in rows] == [second, first]
    row = rows[1]
    assert (row.customer_name, row.status, row.fee, row.currency) == (
        "Ada Obi",
        "matched",
        2600.0,
        "NGN",
    )
    assert (row.rider_id, row.rider_name, row.paid) == ("rdr_tunde", "Tunde", False)
    assert row.chat == ChatRef(TELEGRAM, 1001)
    assert row.created_at == START + 60
    assert row.attention == frozenset()


async def test_keyset_pages_neither_skip_nor_repeat_while_deliveries_are_added(
    store: Store,
) -> None:
    # Ties on created_at too: the id breaks them.
    for n in range(1, 26):
        await _add(store, n, created_at=START + (n // 3) * 60)
    seen: list[str] = []
    after: ListCursor | None = None
    added = 100
    while True:
        page = await store.delivery_list.page(ListQuery(), after=after, limit=4)
        if not page:
            break
        seen += [row.delivery_id for row in page]
        after = page[-1].cursor
        # Newer deliveries arrive between pages: they belong before page 1, not in later ones.
        added += 1
        await _add(store, added, created_at=START + 10_000 + added)
    assert len(seen) == len(set(seen)) == 25
    assert seen == sorted(seen, key=lambda i: (START + (int(i[:8], 16) // 3) * 60, i), reverse=True)


async def test_filters_by_statuses_channel_and_creation_span(store: Store) -> None:
    pending = await _add(store, 1, status="pending")
    matched = await _add(store, 2, status="matched")
    await _add(store, 3, status="delivered")
    agent = await _add(store, 4, status="pending", chat=ChatRef(AGENTS, 7))
    by_status = await _ids(store, ListQuery(statuses=("pending", "matched")))
    assert by_status == [agent, matched, pending]
    assert await _ids(store, ListQuery(channel=AGENTS)) == [agent]
    assert await _ids(store, ListQuery(channel=TELEGRAM, statuses=("pending",))) == [pending]
    span = ListQuery(created_from=START + 120, created_before=START + 240)
    assert await _ids(store, span) == [_id(3), matched]


async def test_search_by_reference_prefix_in_either_case(store: Store) -> None:
    wanted = await _add(store, 0xABC123)
    await _add(store, 0xABD000)
    assert await _ids(store, ListQuery(ref_prefix="00abc1")) == [wanted]
    assert await _ids(store, ListQuery(ref_prefix="00ABC12")) == [wanted]
    assert await _ids(store, ListQuery(ref_prefix=wanted.upper())) == [wanted]
    assert await _ids(store, ListQuery(ref_prefix="00ab")) == [_id(0xABD000), wanted]
    assert await _ids(store, ListQuery(ref_prefix="ff")) == []


async def test_search_by_receiver_sender_or_proven_phone(store: Store) -> None:
    phone = "+2348031234567"
    by_receiver = await _add(store, 1, receiver_phone=phone)
    by_sender = await _add(
        store, 2, details=ListedDetails(customer_name="Bisi", sender_phone=phone)
    )
    proven_chat = ChatRef(TELEGRAM, 555)
    by_contact = await _add(store, 3, chat=proven_chat)
    await store.contacts.record(proven_chat.user(555), phone, contact_user_id=555)
    await _add(store, 4, receiver_phone="+2348039999999")
    found = await _ids(store, ListQuery(phone=phone))
    assert found == [by_contact, by_sender, by_receiver]
    either = await _ids(store, ListQuery(phone="+2348039999999", ref_prefix=_id(2)[:8]))
    assert either == [_id(4), by_sender]


async def test_attention_kinds_each_and_together(store: Store) -> None:
    unpriced = await _add(store, 1, status="awaiting_price", details=ListedDetails())
    # Finished without a fee: nothing to do about it any more.
    await _add(store, 2, status="cancelled", details=ListedDetails())
    matched = await _add(store, 3, status="matched")
    failed = await _add(store, 4, status="delivered")
    blocked_chat = ChatRef(TELEGRAM, 9004)
    unreachable = await _add(store, 5, status="delivered", chat=blocked_chat)
    handoff_chat = ChatRef(TELEGRAM, 9006)
    handed = await _add(store, 6, status="delivered", chat=handoff_chat)

    await store.inbox.add("evt_4", failed, "delivery.updated", 1, b"{}")
    await store.relayed.finish_event("evt_4", failed, gave_up=True)
    await store.blocked.mark(blocked_chat)
    await store.handoffs.open(
        handoff_chat, handoff_chat.user(9006), name="Ada", flow=None, step=None, language=None
    )

    def query(*kinds: Attention) -> ListQuery:
        return ListQuery(attention=frozenset(kinds))

    assert await _ids(store, query(Attention.UNPRICED)) == [unpriced]
    assert await _ids(store, query(Attention.UNASSIGNED)) == [unpriced]
    assert await _ids(store, query(Attention.FAILED_NEWS)) == [unreachable, failed]
    assert await _ids(store, query(Attention.WAITING_HANDOFF)) == [handed]
    together = await _ids(store, query(Attention.UNPRICED, Attention.WAITING_HANDOFF))
    assert together == [handed, unpriced]
    flags = {row.delivery_id: row.attention for row in await store.delivery_list.page(ListQuery())}
    assert flags[unpriced] == {Attention.UNPRICED, Attention.UNASSIGNED}
    assert flags[matched] == frozenset()
    assert flags[handed] == {Attention.WAITING_HANDOFF}


async def test_an_event_moves_the_listed_details_and_an_older_one_does_not(
    store: Store, advance: Callable[[float], None]
) -> None:
    delivery = await _add(
        store, 1, status="awaiting_price", details=ListedDetails(customer_name="Ada")
    )
    matched = ListedDetails(fee=2600.0, currency="NGN", rider_id="rdr_1", rider_name="Tunde")
    await store.inbox.add("evt_1", delivery, "delivery.status_changed", 200, b"{}")
    advance(5)
    await store.relayed.finish_event(
        "evt_1", delivery, view=ViewChange("matched", 200, details=matched), paid=True
    )
    older = ListedDetails(fee=9999.0, currency="XOF")
    await store.inbox.add("evt_0", delivery, "delivery.updated", 100, b"{}")
    await store.relayed.finish_event(
        "evt_0", delivery, view=ViewChange("pending", 100, details=older)
    )
    [row] = await store.delivery_list.page(ListQuery())
    assert (row.status, row.fee, row.currency, row.paid) == ("matched", 2600.0, "NGN", True)
    assert (row.rider_name, row.customer_name) == ("Tunde", "Ada")  # the name is kept
    assert row.updated_at == START + 5
    # Unassigned: the rider is taken off, the fee stays.
    await store.inbox.add("evt_2", delivery, "delivery.status_changed", 300, b"{}")
    unassigned = ListedDetails(fee=None, currency=None)
    await store.relayed.finish_event(
        "evt_2", delivery, view=ViewChange("pending", 300, "", "matched", details=unassigned)
    )
    [row] = await store.delivery_list.page(ListQuery())
    assert (row.status, row.rider_id, row.fee) == ("pending", None, 2600.0)


async def test_an_agent_channels_customer_is_named_by_its_reference(store: Store) -> None:
    user = await store.agents.user("shopapp", "cust-42", create=True)
    assert user is not None
    await _add(store, 1, chat=ChatRef(AGENTS, 1), user_id=user.id, details=ListedDetails())
    [row] = await store.delivery_list.page(ListQuery())
    assert row.customer_name == "cust-42"
    assert isinstance(row, ListedDelivery)
