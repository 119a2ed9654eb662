"""``store.rider_positions`` (schema step 28), on both backends: which deliveries the tracking
job follows, the one row it keeps for each (the last fix only, dropped at the end), the route
kept from what the service showed, and a look at the tracked deliveries that reads no
delivered row, however many there are."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.chat_ref import ChatRef
from bot.store import (
    Fix,
    ListedDetails,
    Point,
    Store,
    TrackedDelivery,
    UnknownDeliveryError,
    rider_positions,
)
from bot.store.schema_steps import step_28_rider_positions
from tests.store.conftest import START

LAGOS_SHOP = Point(6.4281, 3.4219)
IKEJA = Point(6.6018, 3.3515)
YABA = Point(6.5095, 3.3711)
TUNDE = ListedDetails(rider_id="rdr_tunde", rider_name="Tunde", pickup=LAGOS_SHOP, dropoff=IKEJA)


async def _add(
    store: Store, delivery_id: str, n: int, status: str, details: ListedDetails = TUNDE
) -> None:
    chat = ChatRef("telegram", 100 + n)
    await store.deliveries.add(
        delivery_id, chat, chat.id, START + n, None, None, status, language="fr", details=details
    )


async def _move(store: Store, delivery_id: str, status: str, details: ListedDetails) -> None:
    """An event moves the delivery to ``status`` with ``details`` (its rider, its route)."""
    created = int(START) + len(status) + 100
    assert await store.deliveries.update_view(delivery_id, status, created, details=details)


async def _tracked(store: Store) -> dict[str, TrackedDelivery]:
    return {tracked.delivery_id: tracked for tracked in await store.rider_positions.tracked()}


async def _rows(store: Store) -> int:
    row = await store._db.fetch_one("SELECT count(*) FROM rider_positions")
    assert row is not None
    return int(row[0])


async def test_tracked_is_each_active_delivery_and_each_ended_one_still_kept(
    store: Store,
) -> None:
    await _add(store, "picked", 2, "picked_up")
    await _add(store, "matched", 1, "matched")
    await _add(store, "waiting", 3, "pending", ListedDetails())
    await _add(store, "riderless", 4, "in_transit", ListedDetails())
    await _add(store, "done", 5, "picked_up")
    await _add(store, "unassigned", 6, "matched")
    await _add(store, "done-untracked", 7, "delivered")
    for delivery_id in ("picked", "done", "unassigned"):
        await store.rider_positions.keep(delivery_id, "rdr_tunde", None, "live:1")
    await _move(store, "done", "delivered", TUNDE)
    await _move(store, "unassigned", "matched", ListedDetails())  # the rider taken off

    tracked = await store.rider_positions.tracked()

    assert [(t.delivery_id, t.active) for t in tracked] == [
        ("matched", True),
        ("picked", True),
        ("done", False),
        ("unassigned", False),
    ]
    matched, picked, done, unassigned = tracked
    assert matched == TrackedDelivery(
        delivery_id="matched",
        chat=ChatRef("telegram", 101),
        language="fr",
        status="matched",
        rider_id="rdr_tunde",
        rider_name="Tunde",
        pickup=LAGOS_SHOP,
        dropoff=IKEJA,
        kept=None,
    )
    assert picked.kept is not None and picked.kept.shown == "live:1"
    assert done.status == "delivered" and done.kept is not None
    assert unassigned.rider_id is None and unassigned.kept is not None
    assert unassigned.kept.rider_id == "rdr_tunde"


async def test_keep_holds_one_row_with_the_last_fix_only(
    store: Store, advance: Callable[[float], None]
) -> None:
    await _add(store, "d1", 1, "matched")
    first, last = Fix(LAGOS_SHOP, START + 5), Fix(YABA, START + 25)

    await store.rider_positions.keep("d1", "rdr_tunde", first, "")
    advance(20)
    await store.rider_positions.keep("d1", "rdr_tunde", last, "live:42")

    kept = (await _tracked(store))["d1"].kept
    assert kept is not None
    assert (kept.fix, kept.shown, kept.started_at) == (last, "live:42", START)
    assert await _rows(store) == 1
    row = await store._db.fetch_one("SELECT latitude, longitude, fix_at FROM rider_positions")
    assert row == (YABA.latitude, YABA.longitude, START + 25)

    # None is kept as given: the fix goes, the row (and when tracking began) stays.
    advance(20)
    await store.rider_positions.keep("d1", "rdr_bisi", None, "live:42")
    kept = (await _tracked(store))["d1"].kept
    assert kept is not None
    assert (kept.rider_id, kept.fix, kept.started_at) == ("rdr_bisi", None, START)
    assert await store._db.fetch_all("SELECT latitude, longitude, fix_at FROM rider_positions") == [
        (None, None, None)
    ]


async def test_drop_forgets_the_row_and_its_fix(store: Store) -> None:
    await _add(store, "d1", 1, "in_transit")
    await store.rider_positions.keep("d1", "rdr_tunde", Fix(YABA, START), "live:7")
    await _move(store, "d1", "delivered", TUNDE)

    assert await store.rider_positions.drop("d1") is True

    assert await _tracked(store) == {}
    assert await _rows(store) == 0
    assert await store.rider_positions.drop("d1") is False


async def test_a_row_is_kept_only_for_a_linked_delivery(store: Store) -> None:
    with pytest.raises(UnknownDeliveryError):
        await store.rider_positions.keep("nobody's", "rdr_tunde", Fix(YABA, START), "")
    assert await _rows(store) == 0


async def test_the_route_is_kept_and_an_event_without_it_keeps_it(store: Store) -> None:
    await _add(store, "d1", 1, "matched")
    bare = ListedDetails(rider_id="rdr_tunde", rider_name="Tunde")

    await _move(store, "d1", "picked_up", bare)
    after_bare = (await _tracked(store))["d1"]
    await _move(store, "d1", "in_transit", ListedDetails(rider_id="rdr_tunde", dropoff=YABA))
    moved = (await _tracked(store))["d1"]

    assert (after_bare.pickup, after_bare.dropoff) == (LAGOS_SHOP, IKEJA)
    assert (moved.pickup, moved.dropoff) == (LAGOS_SHOP, YABA)


async def test_the_map_shows_each_active_rider_with_their_own_last_fix(store: Store) -> None:
    await _add(store, "moving", 1, "in_transit")
    await _add(store, "reassigned", 2, "matched")
    await _add(store, "new", 3, "matched", ListedDetails(rider_id="rdr_ada"))
    await _add(store, "ended", 4, "picked_up")
    fix = Fix(YABA, START + 3)
    for delivery_id in ("moving", "reassigned", "ended"):
        await store.rider_positions.keep(delivery_id, "rdr_tunde", fix, "")
    await _move(store, "reassigned", "matched", ListedDetails(rider_id="rdr_bisi"))
    await _move(store, "ended", "cancelled", TUNDE)

    on_map = await store.rider_positions.on_map()

    assert [(r.delivery_id, r.rider_id, r.fix) for r in on_map] == [
        ("moving", "rdr_tunde", fix),
        # The row still holds the rider taken off: never shown as the new one's position.
        ("reassigned", "rdr_bisi", None),
        ("new", "rdr_ada", None),
    ]
    assert (on_map[0].status, on_map[0].rider_name, on_map[0].dropoff) == (
        "in_transit",
        "Tunde",
        IKEJA,
    )


# Ten thousand delivered deliveries in one statement (both databases run it as written).
_MANY_DELIVERED = """WITH RECURSIVE n (i) AS (
        SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000
    )
    INSERT INTO deliveries (delivery_id, channel, chat_id, user_id, created_at, status,
        updated_at, rider_id)
    SELECT 'done-' || i, 'telegram', i, i, i, 'delivered', i, 'rdr_tunde' FROM n"""


@pytest.mark.parametrize("query", ["_TRACKED", "_ON_MAP"])
async def test_nothing_tracked_among_many_delivered_reads_no_delivered_row(
    store: Store, store_backend: str, query: str
) -> None:
    await store._db.execute(_MANY_DELIVERED)
    sql: str = getattr(rider_positions, query)
    if store_backend == "sqlite":
        # Before the planner's statistics and after them (``PRAGMA optimize`` at close): they
        # say every row is delivered.
        for statistics in ("SELECT 1", "ANALYZE"):
            await store._db.execute(statistics)
            steps = [str(row[3]) for row in await store._db.fetch_all(f"EXPLAIN QUERY PLAN {sql}")]
            # Found by an index's key, or read off the index of the active ones: never scanned.
            scans = [step for step in steps if step.startswith("SCAN d")]
            assert scans in ([], ["SCAN d USING INDEX deliveries_tracked"]), steps
    else:
        # The deliveries as autovacuum leaves them, the new table as the migration does (the
        # fixture's TRUNCATE forgot that).
        for statistics in ("ANALYZE deliveries", *step_28_rider_positions.STEP.shared_only):
            await store._db.execute(statistics)
        steps = [str(row[0]) for row in await store._db.fetch_all(f"EXPLAIN {sql}")]
        assert not [step for step in steps if "Seq Scan on deliveries" in step], steps
        assert any("deliveries_tracked" in step for step in steps), steps
    assert await store.rider_positions.tracked() == []
