"""The rest of the console's attack table over real HTTP, on both backends (the CSRF, role,
oversized-form and one-address flood cases are in ``test_console_web``): malformed delivery
references, two staff signed in at once, a link reused from another browser, an expired
link, and a sign-in flood from many tokens. Each is a plain page or a 4xx with no traceback,
nothing changes, and what was an attempt is in the audit trail."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import markupsafe
import pytest

from bot.store import Store
from tests.staff_console.console_seed import WITH_HISTORY, seed
from tests.staff_console.console_site import PUBLIC, ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
MALFORMED = (
    "%00",
    "a" * 5000,
    "%2e%2e",
    "..%2f..%2fetc%2fpasswd",
    "../signout",
    "%ff%fe",
    "%E2%80%AE3F2A",
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "3F2A%0d%0aSet-Cookie:%20x=1",
    "3F2A9C1E/../../signin",
    "'%20OR%201=1--",
)


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        yield opened


def _from(site: ConsoleSite, address: str) -> httpx.AsyncClient:
    """A browser at another network address."""
    transport = httpx.ASGITransport(app=site.core.web_app, client=(address, 50000))
    return httpx.AsyncClient(transport=transport, base_url=PUBLIC)


def _plain(answer: httpx.Response, status: int | tuple[int, ...]) -> None:
    """A refusal as the console answers one: its status, and no trace of the code's insides."""
    statuses = (status,) if isinstance(status, int) else status
    assert answer.status_code in statuses, (answer.status_code, answer.text[:200])
    for inside in ("Traceback", 'File "', "Error:", "sqlite", "asyncpg"):
        assert inside not in answer.text, inside


async def _state(store: Store) -> tuple[object, ...]:
    """What an attack must leave as it was: the members, the sessions, the deliveries."""
    db = store._db  # what the tables hold, as the test's own store reads them
    sessions = await db.fetch_all("SELECT token_hash, member_id FROM staff_sessions ORDER BY 1")
    deliveries = await db.fetch_all("SELECT delivery_id, status FROM deliveries ORDER BY 1")
    return (tuple(await store.staff.members()), tuple(sessions), tuple(deliveries))


async def _audit(store: Store, action: str) -> list[tuple[str, str, str | None]]:
    return [
        (e.actor, e.outcome, e.detail) for e in await store.audit.since(0) if e.action == action
    ]


async def _csrf(client: httpx.AsyncClient) -> str:
    found = _CSRF.search((await client.get("/console/deliveries")).text)
    assert found is not None
    return found.group(1)


async def test_a_malformed_reference_is_a_plain_refusal_that_changes_nothing(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    await seed(store, fake_clock())
    client = await site.signed_in("Bob", "admin")
    before = await _state(store)
    audited = len(await store.audit.since(0))
    for ref in MALFORMED:
        answer = await client.get(f"/console/deliveries/{ref}")
        _plain(answer, (400, 404, 405))
        assert "<script>" not in answer.text and "set-cookie" not in answer.headers
    # The page still works for a reference that is one, and the session is still good.
    assert (await client.get(f"/console/deliveries/{WITH_HISTORY}")).status_code == 200
    assert await _state(store) == before
    assert len(await store.audit.since(0)) == audited  # reading is not an attempt at anything


async def test_two_staff_signed_in_at_once_act_independently(
    site: ConsoleSite, store: Store
) -> None:
    bob = await site.signed_in("Bob", "dispatcher")
    vic = await site.signed_in("Vic", "viewer")
    bob_token, vic_token = await _csrf(bob), await _csrf(vic)
    assert bob_token != vic_token

    # Each one's choice is theirs alone.
    await bob.post("/console/language", data={"csrf": bob_token, "language": "fr"})
    assert '<html lang="fr">' in (await bob.get("/console/deliveries")).text
    assert '<html lang="en">' in (await vic.get("/console/deliveries")).text
    # One's form token does nothing in the other's session: refused, audited, nothing done.
    stolen = await vic.post("/console/language", data={"csrf": bob_token, "language": "fr"})
    _plain(stolen, 403)
    [(actor, outcome, detail)] = await _audit(store, "console_csrf")
    [vic_member] = await store.staff.named("Vic")
    assert (actor, outcome) == (f"staff:{vic_member.id}", "refused")
    assert detail == "POST /console/language: CSRF token wrong" and bob_token not in str(detail)
    assert vic_member.language is None
    # One signing out leaves the other signed in.
    await bob.post("/console/signout", data={"csrf": bob_token})
    assert (await bob.get("/console/deliveries")).status_code == 303
    assert (await vic.get("/console/deliveries")).status_code == 200


async def test_a_link_reused_on_another_browser_opens_nothing_there(
    site: ConsoleSite, store: Store
) -> None:
    link = await site.link("Bob")
    first = site.client()
    assert (await first.post(link)).status_code == 303
    before = await _state(store)

    other = _from(site, "198.51.100.9")
    reused = await other.post(link)
    _plain(reused, 410)
    assert str(markupsafe.escape(SHIPPED.say("console_web.link_used"))) in reused.text
    assert "set-cookie" not in reused.headers
    assert (await other.get("/console/deliveries")).headers["location"] == "/console/signed-out"
    assert (await first.get("/console/deliveries")).status_code == 200
    assert await _state(store) == before
    assert ("console", "refused: used link", None) in await _audit(store, "console_signin")


async def test_an_expired_link_opens_nothing_and_the_member_is_told_how_to_get_another(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    link = await site.link("Bob")
    fake_clock.advance(5 * 60)  # [console] link_minutes = 5: the last second it works is gone
    before = await _state(store)
    client = site.client()
    expired = await client.post(link)
    _plain(expired, 410)
    assert str(markupsafe.escape(SHIPPED.say("console_web.link_expired"))) in expired.text
    assert "set-cookie" not in expired.headers and await _state(store) == before
    assert await _audit(store, "console_signin") == [("console", "refused: expired link", None)]


async def test_a_sign_in_flood_opens_nothing_and_holds_back_only_its_address(
    site: ConsoleSite, store: Store
) -> None:
    flood = _from(site, "192.0.2.66")
    before = await _state(store)
    answers = [(await flood.post(f"/console/signin/{n:043d}")).status_code for n in range(30)]
    assert answers == [404] * 10 + [429] * 20
    held = await flood.post(await site.link("Bob"))
    _plain(held, 429)
    assert "set-cookie" not in held.headers
    # Only the ten attempts that reached the door were tried, each audited without its token.
    tried = await _audit(store, "console_signin")
    assert tried == [("console", "refused: unknown link", None)] * 10
    # Someone at another address is not held back by the flood.
    assert (await site.client().post(await site.link("Vic"))).status_code == 303
    _, sessions, deliveries = await _state(store)
    assert isinstance(sessions, tuple) and len(sessions) == 1 and deliveries == before[2]
