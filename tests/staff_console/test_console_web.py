"""The console over real HTTP on the core's web app, its store on both backends: signing in by
link (a GET uses nothing up), the session guard, signing out (here and everywhere), CSRF, the
role guard, the form size limit, the sign-in flood, and the headers on every answer."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import markupsafe
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.config import ConsoleConfig
from bot.staff_console.console_headers import CONTENT_SECURITY_POLICY
from bot.staff_console.console_kit import FORM_LIMIT
from bot.store import StaffSession, Store
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

SIGNED_OUT = "/console/signed-out"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        yield opened


async def _csrf(client: httpx.AsyncClient) -> str:
    page = await client.get("/console/deliveries")
    assert page.status_code == 200, page.text
    found = _CSRF.search(page.text)
    assert found is not None
    return found.group(1)


def _shown(key: str, **values: object) -> str:
    """What the page shows of message ``key``: escaped as the templates escape it."""
    return str(markupsafe.escape(SHIPPED.say(key, **values)))


async def _audit(store: Store, action: str) -> list[tuple[str, str | None]]:
    return [(e.outcome, e.detail) for e in await store.audit.since(0) if e.action == action]


def _assert_console_headers(answer: httpx.Response) -> None:
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    # Scripts only as files of the console's own (no inline script, no other host).
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["referrer-policy"] == "no-referrer"


async def test_a_get_of_the_link_uses_nothing_and_the_post_signs_in(site: ConsoleSite) -> None:
    link = await site.link("Bob", "dispatcher")
    client = site.client()
    for _ in range(2):  # a preview fetch, then the person's own
        page = await client.get(link)
        assert page.status_code == 200
        assert f'method="post" action="{link}"' in page.text
        assert _shown("console_web.signin_button") in page.text
        assert "set-cookie" not in page.headers

    signed = await client.post(link)
    assert signed.status_code == 303
    assert signed.headers["location"] == "/console/deliveries"
    cookie = signed.headers["set-cookie"]
    assert cookie.startswith("console_session=")
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "secure", "samesite=strict", "path=/console"} <= attributes
    assert link.rsplit("/", 1)[1] not in cookie  # the session's token is not the link's

    listed = await client.get("/console/deliveries")
    assert listed.status_code == 200
    assert "Bob" in listed.text and _shown("console_web.role.dispatcher") in listed.text
    assert (await client.get("/console")).headers["location"] == "/console/deliveries"


async def test_a_link_works_once_and_not_when_expired_or_unknown(
    site: ConsoleSite, store: Store
) -> None:
    link = await site.link()
    assert (await site.client().post(link)).status_code == 303
    again = await site.client().post(link)
    assert again.status_code == 410
    assert _shown("console_web.link_used") in again.text
    assert "set-cookie" not in again.headers

    late = await site.link("Cleo")
    site.clock.advance(5 * 60 + 1)
    expired = await site.client().post(late)
    assert expired.status_code == 410
    assert _shown("console_web.link_expired") in expired.text

    unknown = await site.client().post("/console/signin/" + "x" * 43)
    assert unknown.status_code == 404
    assert _shown("console_web.link_unknown") in unknown.text
    assert "set-cookie" not in unknown.headers
    refused = await _audit(store, "console_signin")
    assert ("refused: used link", None) in refused and ("refused: unknown link", None) in refused


async def test_a_sign_in_from_another_sites_form_is_refused_and_uses_nothing(
    site: ConsoleSite,
) -> None:
    link = await site.link()
    client = site.client()
    for forged in (
        {"Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "null"},
        {"Sec-Fetch-Site": "same-site"},
    ):
        refused = await client.post(link, headers=forged)
        assert refused.status_code == 403 and "set-cookie" not in refused.headers
    # What Chromium sends from the sign-in page (no-referrer makes its Origin "null").
    own = await client.post(link, headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 303


async def test_every_page_without_a_live_session_goes_to_the_signed_out_page(
    site: ConsoleSite,
) -> None:
    client = site.client()
    for path in ("/console/deliveries", "/console/deliveries?status=pending"):
        answer = await client.get(path)
        assert (answer.status_code, answer.headers["location"]) == (303, SIGNED_OUT)
    for path in ("/console/signout", "/console/signout-everywhere"):
        answer = await client.post(path, data={"csrf": "anything"})
        assert (answer.status_code, answer.headers["location"]) == (303, SIGNED_OUT)
    client.cookies.set("console_session", "forged", domain="bot.example.com", path="/console")
    answer = await client.get("/console/deliveries")
    assert (answer.status_code, answer.headers["location"]) == (303, SIGNED_OUT)
    page = await client.get(SIGNED_OUT)
    assert page.status_code == 200 and _shown("console_web.signed_out") in page.text


async def test_an_idle_session_is_over(site: ConsoleSite) -> None:
    client = await site.signed_in()
    site.clock.advance(19 * 60)
    assert (await client.get("/console/deliveries")).status_code == 200
    site.clock.advance(21 * 60)
    answer = await client.get("/console/deliveries")
    assert (answer.status_code, answer.headers["location"]) == (303, SIGNED_OUT)


async def test_sign_out_ends_this_session_only(site: ConsoleSite) -> None:
    here, there = await site.signed_in(), await site.signed_in()
    answer = await here.post("/console/signout", data={"csrf": await _csrf(here)})
    assert (answer.status_code, answer.headers["location"]) == (303, SIGNED_OUT)
    assert (await here.get("/console/deliveries")).status_code == 303
    assert (await there.get("/console/deliveries")).status_code == 200


async def test_sign_out_everywhere_ends_every_session_of_the_member(
    site: ConsoleSite, store: Store
) -> None:
    here, there = await site.signed_in("Bob"), await site.signed_in("Bob")
    other = await site.signed_in("Cleo")
    answer = await here.post("/console/signout-everywhere", data={"csrf": await _csrf(here)})
    assert (answer.status_code, answer.headers["location"]) == (303, SIGNED_OUT)
    assert (await here.get("/console/deliveries")).status_code == 303
    assert (await there.get("/console/deliveries")).status_code == 303
    assert (await other.get("/console/deliveries")).status_code == 200
    assert await _audit(store, "console_signout") == [("done", "everywhere")]


@pytest.mark.parametrize("sent", [None, "wrong", ""])
async def test_a_post_without_its_csrf_token_is_refused_audited_and_does_nothing(
    site: ConsoleSite, store: Store, sent: str | None
) -> None:
    client = await site.signed_in()
    csrf = await _csrf(client)
    data = {} if sent is None else {"csrf": sent if sent else ""}
    for path in ("/console/signout", "/console/signout-everywhere"):
        answer = await client.post(path, data=data)
        assert answer.status_code == 403
        assert _shown("console_web.refused_csrf") in answer.text
        assert csrf not in answer.text
    assert (await client.get("/console/deliveries")).status_code == 200  # still signed in
    refused = await _audit(store, "console_csrf")
    why = "wrong" if sent == "wrong" else "missing"
    assert refused == [
        ("refused", f"POST /console/signout: CSRF token {why}"),
        ("refused", f"POST /console/signout-everywhere: CSRF token {why}"),
    ]
    assert all(csrf not in str(entry) for entry in await store.audit.since(0))


async def test_a_viewer_is_refused_an_admins_action_and_it_is_audited(
    site: ConsoleSite, store: Store
) -> None:
    console = site.core.console
    assert console is not None
    kit = console.kit
    done: list[int] = []

    async def admins_only(request: Request) -> Response:  # built as a real action would be
        form = dict(await request.form())
        found = await kit.guard.form_allowed(
            request, {k: [str(v)] for k, v in form.items()}, "admin"
        )
        if not isinstance(found, StaffSession):
            return kit.refused(request, found)
        done.append(found.member.id)
        return PlainTextResponse("done")

    app = Starlette(routes=[Route("/console/test-admin", admins_only, methods=["POST"])])
    app.router.routes.extend(console.routes())
    viewer = await site.signed_in("Vic", "viewer")
    admin = await site.signed_in("Ada", "admin")
    for client in (viewer, admin):
        client._transport = httpx.ASGITransport(app=app)  # the same cookies, the test's app

    refused = await viewer.post("/console/test-admin", data={"csrf": await _csrf(viewer)})
    assert refused.status_code == 403
    assert (
        _shown(
            "console_web.refused_role",
            role=SHIPPED.say("console_web.role.viewer"),
            needed=SHIPPED.say("console_web.role.admin"),
        )
        in refused.text
    )
    assert done == []
    assert await _audit(store, "console_denied") == [
        ("refused", "POST /console/test-admin: viewer < admin")
    ]
    accepted = await admin.post("/console/test-admin", data={"csrf": await _csrf(admin)})
    assert accepted.status_code == 200 and len(done) == 1


async def test_an_oversized_form_is_refused_before_it_is_read(site: ConsoleSite) -> None:
    client = await site.signed_in()
    csrf = await _csrf(client)
    big = {"csrf": csrf, "padding": "x" * FORM_LIMIT}
    answer = await client.post("/console/signout", data=big)
    assert answer.status_code == 413
    assert _shown("console_web.refused_too_large") in answer.text
    assert (await client.get("/console/deliveries")).status_code == 200  # nothing done

    link = await site.link("Cleo")
    fresh = site.client()
    assert (await fresh.post(link, data={"padding": "x" * FORM_LIMIT})).status_code == 413
    assert (await fresh.post(link)).status_code == 303  # the link was not used up


async def test_a_sign_in_flood_from_one_address_is_held_back(site: ConsoleSite) -> None:
    client = site.client()
    unknown = "/console/signin/" + "y" * 43
    for _ in range(10):
        assert (await client.post(unknown)).status_code == 404
    held = await client.post(unknown)
    assert held.status_code == 429
    assert held.headers["retry-after"] == "60"
    assert _shown("console_web.refused_flood") in held.text
    link = await site.link()
    assert (await client.post(link)).status_code == 429  # even a good link waits
    site.clock.advance(60)
    assert (await client.post(link)).status_code == 303


async def test_every_console_answer_carries_the_protective_headers(site: ConsoleSite) -> None:
    client = await site.signed_in()
    link = await site.link("Cleo")
    answers = [
        await client.get("/console"),
        await client.get("/console/"),
        await client.get("/console/deliveries"),
        await client.get("/console/deliveries?day=someday"),
        await client.get("/console/static/console.css"),
        await client.get("/console/nowhere"),
        await client.put("/console/deliveries"),
        await client.post("/console/signout", data={}),
        await site.client().get(link),
        await site.client().post("/console/signin/unknown"),
        await site.client().get("/console/deliveries"),
        await site.client().get(SIGNED_OUT),
    ]
    statuses = [answer.status_code for answer in answers]
    assert statuses == [303, 303, 200, 400, 200, 404, 405, 403, 200, 404, 303, 200]
    for answer in answers:
        _assert_console_headers(answer)
    assert answers[4].headers["content-type"].startswith("text/css")
    assert _shown("console_web.not_found") in answers[5].text


async def test_the_console_is_not_served_while_it_is_off(
    store: Store, fake_clock: FakeClock
) -> None:
    async with console_site(store, fake_clock, ConsoleConfig()) as off:
        client = off.client()
        assert (await client.post(await off.link())).status_code == 404
        assert (await client.get("/console/deliveries")).status_code == 404
