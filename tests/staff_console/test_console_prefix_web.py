"""The console of a business served under ``/b/acme`` (a host of many businesses), over real
HTTP: every page an admin reaches by its links names only paths under ``/b/acme/console``, the
redirects go there, and the session cookie is scoped to it. The browser test
(``test_console_prefix_browser``) shows two businesses side by side; this one walks every page.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from bot.bot_core import build_core
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.staff_console.console_pages import TEMPLATES
from bot.store import Store
from tests.staff_console.conftest import START
from tests.staff_console.console_seed import WITH_HISTORY, seed
from tests.staff_console.console_site import CONSOLE, KEY, NOWHERE, PUBLIC, TRIED_ONCE
from tests.staff_console.prefixed import PrefixedApps, links_in, paths_in
from tests.support.clock import FakeClock

ROOT = "/b/acme"
CONSOLE_ROOT = f"{ROOT}/console"
PAGES_AT_MOST = 40
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_NAMED = re.compile(r'(?:href|action|src|data-live)="([^"]*)"')


@pytest.fixture
def store_backend() -> str:
    """SQLite: where the console's paths point does not depend on the store."""
    return "sqlite"


@pytest.fixture
async def admin(store: Store, fake_clock: FakeClock) -> AsyncIterator[httpx.AsyncClient]:
    """A client signed in as an admin of business ``acme``, its web app under ``/b/acme``."""
    public = PUBLIC + ROOT  # as the host derives each business's public_base_url
    settings = CoreSettings(
        partner_base_url=NOWHERE,
        partner_api_key=KEY,
        client_options=TRIED_ONCE,
        public_base_url=public,
        console=CONSOLE,
    )
    core = build_core(settings, store)
    await seed(store, START)
    door = StaffDoor(store, CONSOLE, public, clock=fake_clock)
    transport = httpx.ASGITransport(app=PrefixedApps({"acme": core.web_app}))
    try:
        async with httpx.AsyncClient(transport=transport, base_url=PUBLIC) as client:
            link = await door.invite("Ada", "admin")
            assert link.startswith(f"{PUBLIC}{CONSOLE_ROOT}/signin/")
            signin = await client.get(link)
            assert [p for p in paths_in(signin.text) if not p.startswith(CONSOLE_ROOT)] == []
            signed = await client.post(link)
            assert signed.status_code == 303
            assert signed.headers["location"] == f"{CONSOLE_ROOT}/deliveries"
            cookie = signed.headers["set-cookie"]
            assert f"Path={CONSOLE_ROOT};" in cookie, cookie
            yield client
    finally:
        await core.aclose()


async def test_every_page_reached_by_its_links_stays_under_the_prefix(
    admin: httpx.AsyncClient,
) -> None:
    home = await admin.get(CONSOLE_ROOT)
    assert home.headers["location"] == f"{CONSOLE_ROOT}/deliveries"
    seen: set[str] = set()
    waiting = deque(
        [
            f"{CONSOLE_ROOT}/deliveries",
            f"{CONSOLE_ROOT}/deliveries/{WITH_HISTORY}",
            f"{CONSOLE_ROOT}/customers?q=Ada",  # the search's answer: rows to follow
        ]
    )
    while waiting and len(seen) < PAGES_AT_MOST:
        path = waiting.popleft()
        if path in seen:
            continue
        seen.add(path)
        page = await admin.get(path)
        assert page.status_code == 200, (path, page.status_code)
        named = paths_in(page.text)
        outside = [p for p in named if not p.startswith(CONSOLE_ROOT + "/")]
        assert outside == [], (path, outside)
        waiting.extend(links_in(page.text))
    visited = {urlsplit(path).path.removeprefix(CONSOLE_ROOT) for path in seen}
    sections = {"/deliveries", "/handoffs", "/customers", "/funnel", "/audit", "/health"}
    assert sections <= visited
    assert any(p.startswith("/customers/") for p in visited)  # a customer's page, from a row
    assert any(p.startswith("/deliveries/") for p in visited)

    csrf = _CSRF.search((await admin.get(f"{CONSOLE_ROOT}/deliveries")).text)
    assert csrf is not None
    fields = {"csrf": csrf.group(1), "language": "fr"}
    chosen = await admin.post(f"{CONSOLE_ROOT}/language", data=fields)
    assert chosen.headers["location"] == CONSOLE_ROOT
    unknown = await admin.get(f"{CONSOLE_ROOT}/nowhere")
    assert unknown.status_code == 404
    assert all(p.startswith(CONSOLE_ROOT + "/static/") for p in paths_in(unknown.text))

    out = await admin.post(f"{CONSOLE_ROOT}/signout", data={"csrf": csrf.group(1)})
    assert out.headers["location"] == f"{CONSOLE_ROOT}/signed-out"
    gone = await admin.get(f"{CONSOLE_ROOT}/signed-out")
    assert f"Path={CONSOLE_ROOT};" in gone.headers["set-cookie"]  # the cookie deleted there
    again = await admin.get(f"{CONSOLE_ROOT}/deliveries")
    assert again.headers["location"] == f"{CONSOLE_ROOT}/signed-out"


def test_every_path_a_template_names_starts_at_its_root() -> None:
    """The pages above show what a walk reaches; this holds every template, forms drawn only
    for some states included, to the rule: a path starts with ``{{ root }}`` (the sign-in
    page's form posts to its own URL, ``action``, as the request named it)."""
    named = {
        (template.name, value)
        for template in sorted(Path(TEMPLATES).glob("*.html"))
        for value in _NAMED.findall(template.read_text(encoding="utf-8"))
    }
    assert named, "no template names a path"
    outside = {(name, value) for name, value in named if not value.startswith("{{ root }}")}
    assert outside == {("signin.html", "{{ action }}")}
