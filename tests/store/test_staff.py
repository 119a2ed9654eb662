"""``store.staff`` on both backends: members by account or invited by name, one-time sign-in
links (single use under concurrency, on one store and on two instances), sessions (idle and
absolute expiry, touched at most once a minute, signed out one by one or everywhere), and the
housekeeping pass that deletes what expired."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.chat_ref import UserRef
from bot.runtime import housekeep
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import LinkRefusal, StaffMember, Store
from bot.store.pg_local_server import LocalPostgres
from bot.store.staff import TOUCH_SECONDS, token_hash
from tests.store.conftest import START
from tests.support.clock import FakeClock
from tests.support.store_fixture import empty_postgres_database

ADA = UserRef("telegram", 1900)
IDLE = 30 * 60.0
LIFE = 12 * 3600.0
LINK = 10 * 60.0


async def _signed_in(store: Store, member: StaffMember) -> str:
    opened = await store.staff.open_session(member, idle_seconds=IDLE, life_seconds=LIFE)
    return opened.token


async def _rows(store: Store, table: str) -> int:
    # What the tables hold, as the housekeeping sees them (a test reads its own store's rows).
    row = await store._db.fetch_one(f"SELECT count(*) FROM {table}")  # noqa: S608
    assert row is not None
    return int(row[0])


async def test_an_operator_is_one_member_whose_name_and_role_follow_the_config(
    store: Store,
) -> None:
    first = await store.staff.operator(ADA, "Ada", "viewer")
    again = await store.staff.operator(ADA, "Ada L.", "admin")

    assert again.id == first.id
    assert (again.name, again.role, again.account, again.created_at) == (
        "Ada L.",
        "admin",
        ADA,
        START,
    )
    other = await store.staff.operator(UserRef("telegram", 1901), "Ada", "dispatcher")
    assert other.id != first.id
    assert [m.name for m in await store.staff.members()] == ["Ada", "Ada L."]


async def test_an_invited_member_has_no_account_and_is_found_again_by_name(
    store: Store,
) -> None:
    bob = await store.staff.invited("Bob", "dispatcher")
    again = await store.staff.invited("Bob", "admin")

    assert (again.id, again.account, again.role) == (bob.id, None, "admin")
    assert [m.id for m in await store.staff.named("bob")] == [bob.id]
    assert await store.staff.named("Carol") == []


async def test_a_members_language_is_theirs_and_their_clients_only_starts_it(
    store: Store,
) -> None:
    ada = await store.staff.operator(ADA, "Ada", "viewer", "fr")
    assert ada.language == "fr"
    await store.staff.set_language(ada, "en")
    # A later link from a client in another language keeps the member's own choice.
    again = await store.staff.operator(ADA, "Ada", "viewer", "fr")
    assert again.language == "en"
    token = await _signed_in(store, again)
    session = await store.staff.session(token, START)
    assert session is not None and session.member.language == "en"

    bob = await store.staff.invited("Bob", "viewer")
    assert bob.language is None
    await store.staff.set_language(bob, "fr")
    found = await store.staff.member(bob.id)
    assert found is not None and found.language == "fr"
    # One who never chose (a member from before step 24) takes their client's once.
    olu = await store.staff.operator(UserRef("telegram", 1902), "Olu", "viewer")
    assert olu.language is None
    olu = await store.staff.operator(UserRef("telegram", 1902), "Olu", "viewer", "fr")
    assert olu.language == "fr"


async def test_a_link_signs_in_once_and_only_its_hash_is_kept(store: Store) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    token = await store.staff.issue_link(ada, lifetime_seconds=LINK)

    row = await store._db.fetch_one("SELECT token_hash FROM staff_links")
    assert row is not None and row[0] == token_hash(token) and token not in row[0]

    redeemed = await store.staff.redeem(token, START + 1)
    assert isinstance(redeemed, StaffMember) and redeemed.id == ada.id
    assert await store.staff.redeem(token, START + 2) is LinkRefusal.USED
    assert await store.staff.redeem("not-a-link", START + 2) is LinkRefusal.UNKNOWN


async def test_a_link_is_refused_once_it_expired(store: Store, fake_clock: FakeClock) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    token = await store.staff.issue_link(ada, lifetime_seconds=LINK)

    assert await store.staff.redeem(token, START + LINK) is LinkRefusal.EXPIRED
    fake_clock.advance(LINK - 1)
    late = await store.staff.issue_link(ada, lifetime_seconds=LINK)
    assert isinstance(await store.staff.redeem(late, START + 2 * LINK - 2), StaffMember)


async def test_of_many_redeems_of_one_link_at_once_one_wins(store: Store) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    token = await store.staff.issue_link(ada, lifetime_seconds=LINK)

    outcomes = await asyncio.gather(*(store.staff.redeem(token, START + 1) for _ in range(8)))

    assert sum(isinstance(outcome, StaffMember) for outcome in outcomes) == 1
    assert outcomes.count(LinkRefusal.USED) == 7


async def test_of_two_instances_redeeming_one_link_at_once_one_wins(
    postgres_server: LocalPostgres, tmp_path: Path, fake_clock: FakeClock
) -> None:
    dsn = await empty_postgres_database(postgres_server)
    media = tmp_path / "shared-media"
    stores = [
        await Store.connect_postgres(
            dsn, media_dir=media, clock=fake_clock, channels=SHIPPED_CHANNEL_KINDS
        )
        for _ in range(2)
    ]
    try:
        ada = await stores[0].staff.operator(ADA, "Ada", "admin")
        tokens = [await stores[0].staff.issue_link(ada, lifetime_seconds=LINK) for _ in range(5)]
        for token in tokens:
            redeems = [store.staff.redeem(token, START + 1) for store in stores * 3]
            outcomes = await asyncio.gather(*redeems)
            assert sum(isinstance(outcome, StaffMember) for outcome in outcomes) == 1
    finally:
        for store in stores:
            await store.close()


async def test_a_session_lives_while_used_and_ends_when_idle_too_long(
    store: Store, fake_clock: FakeClock
) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    opened = await store.staff.open_session(ada, idle_seconds=IDLE, life_seconds=LIFE)

    live = await store.staff.session(opened.token, START + 30)
    assert live is not None
    assert (live.member.id, live.csrf_token, live.last_seen_at) == (
        ada.id,
        opened.csrf_token,
        START,  # seen 30 s later: not written again within the minute
    )
    live = await store.staff.session(opened.token, START + IDLE - 1)
    assert live is not None and live.last_seen_at == START + IDLE - 1
    member = await store.staff.member(ada.id)
    assert member is not None and member.last_seen_at == START + IDLE - 1

    assert await store.staff.session(opened.token, START + 2 * IDLE - 1) is None
    assert await store.staff.session("not-a-session", START) is None


async def test_a_check_that_does_not_touch_lets_the_session_idle_out(store: Store) -> None:
    """An open live page checks its session without counting as the member's activity."""
    ada = await store.staff.operator(ADA, "Ada", "admin")
    opened = await store.staff.open_session(ada, idle_seconds=IDLE, life_seconds=LIFE)

    checked = await store.staff.session(opened.token, START + IDLE - 1, touch=False)
    assert checked is not None and checked.last_seen_at == START  # not written
    member = await store.staff.member(ada.id)
    assert member is not None and member.last_seen_at != START + IDLE - 1
    assert await store.staff.session(opened.token, START + IDLE + 1, touch=False) is None


async def test_a_session_ends_at_its_absolute_life_however_busy(store: Store) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    token = await _signed_in(store, ada)

    moment = START
    while moment + TOUCH_SECONDS * 20 < START + LIFE:
        moment += TOUCH_SECONDS * 20  # every twenty minutes: never idle
        assert await store.staff.session(token, moment) is not None
    assert await store.staff.session(token, START + LIFE) is None


async def test_signing_out_ends_one_session_and_everywhere_ends_them_all(store: Store) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    bob = await store.staff.invited("Bob", "viewer")
    phone, laptop, tablet = [await _signed_in(store, ada) for _ in range(3)]
    bobs = await _signed_in(store, bob)
    unused = await store.staff.issue_link(ada, lifetime_seconds=LINK)

    assert await store.staff.sign_out(phone) is True
    assert await store.staff.sign_out(phone) is False
    assert await store.staff.session(phone, START) is None
    assert await store.staff.session(laptop, START) is not None

    await store.staff.sign_out_everywhere(ada)
    assert await store.staff.session(laptop, START) is None
    assert await store.staff.session(tablet, START) is None
    assert await store.staff.redeem(unused, START) is LinkRefusal.UNKNOWN
    assert await store.staff.session(bobs, START) is not None  # another member's: untouched


async def test_a_session_opened_before_a_sign_out_everywhere_is_dead_even_if_left_behind(
    store: Store,
) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    token = await _signed_in(store, ada)
    # Only the generation moved (as if the rows' delete had not reached this session).
    await store._db.execute("UPDATE staff_members SET generation = generation + 1")

    assert await store.staff.session(token, START) is None
    await housekeep(store)
    assert await _rows(store, "staff_sessions") == 0


async def test_housekeeping_deletes_expired_links_and_dead_sessions_and_keeps_the_rest(
    store: Store, fake_clock: FakeClock
) -> None:
    ada = await store.staff.operator(ADA, "Ada", "admin")
    await store.staff.issue_link(ada, lifetime_seconds=LINK)
    used = await store.staff.issue_link(ada, lifetime_seconds=LINK)
    assert isinstance(await store.staff.redeem(used, START), StaffMember)
    idle = await _signed_in(store, ada)
    fake_clock.advance(IDLE / 2)
    busy = await _signed_in(store, ada)

    fake_clock.advance(IDLE / 2)  # the first session idle for IDLE; both first links expired
    fresh = await store.staff.issue_link(ada, lifetime_seconds=LINK)
    await housekeep(store)

    assert await _rows(store, "staff_links") == 1
    assert await _rows(store, "staff_sessions") == 1
    assert await store.staff.session(idle, fake_clock()) is None
    assert await store.staff.session(busy, fake_clock()) is not None
    assert isinstance(await store.staff.redeem(fresh, fake_clock()), StaffMember)

    fake_clock.advance(LIFE)
    await housekeep(store)
    assert await _rows(store, "staff_links") == 0
    assert await _rows(store, "staff_sessions") == 0
    assert [m.id for m in await store.staff.members()] == [ada.id]  # members are kept
