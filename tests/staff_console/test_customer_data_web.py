"""A customer's data from their console page over real HTTP, on both backends: an admin
exports it (a JSON attachment) and forgets them (asked first; then their finished delivery
kept anonymous, the open one left until it ends, the outcome shown), each audited as
``staff:<id>``; a dispatcher's or a viewer's attempt, one without its CSRF token and one on
an unknown customer do nothing."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import httpx
import markupsafe
import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.privacy.customer_requests import EXPORT_ACTION, FORGET_ACTION
from bot.store import ListedDetails, Store
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

ADA = UserRef(TELEGRAM, 1900)
ADA_CHAT = ChatRef(TELEGRAM, 1900)
ADA_PAGE = "/console/customers/telegram/1900"
ADA_NAME = "Ada Okafor"
ADA_PHONE = "+2348021234567"
DELIVERED = "3f2a9c1e-0000-4000-8000-000000000001"
ON_ITS_WAY = "4b7d0e21-0000-4000-8000-000000000002"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        details = ListedDetails(
            fee=2500.0, currency="NGN", customer_name=ADA_NAME, sender_phone=ADA_PHONE
        )
        for n, delivery_id in enumerate((DELIVERED, ON_ITS_WAY)):
            at = fake_clock() - 3600 + n
            await store.deliveries.add(
                delivery_id, ADA_CHAT, ADA.id, at, None, None, details=details
            )
        assert await store.deliveries.update_view(DELIVERED, "delivered", int(fake_clock()))
        await store.customers.put(ADA, json.dumps({"name": ADA_NAME, "phone": ADA_PHONE}))
        yield opened


def _shown(key: str, **values: object) -> str:
    return str(markupsafe.escape(SHIPPED.say(key, **values)))


async def _csrf(client: httpx.AsyncClient) -> str:
    page = await client.get(ADA_PAGE)
    assert page.status_code == 200, page.text
    found = _CSRF.search(page.text)
    assert found is not None
    return found.group(1)


async def _trail(store: Store, *actions: str) -> list[tuple[str, str, str]]:
    entries = await store.audit.since(0)
    return [(e.actor, e.action, e.outcome) for e in entries if e.action in actions]


async def test_an_admin_exports_a_customers_data_as_a_file(site: ConsoleSite, store: Store) -> None:
    admin = await site.signed_in("Ada", "admin")
    member = (await store.staff.named("Ada"))[0]
    page = await admin.get(ADA_PAGE)
    assert f'action="{ADA_PAGE}/export"' in page.text
    assert _shown("console_web.customer_data.export_button") in page.text

    exported = await admin.post(f"{ADA_PAGE}/export", data={"csrf": await _csrf(admin)})

    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/json")
    assert exported.headers["content-disposition"] == (
        'attachment; filename="customer-telegram-1900.json"'
    )
    assert "no-store" in exported.headers["cache-control"]
    document = exported.json()
    assert document["details"]["value"]["name"] == ADA_NAME
    assert [d["delivery_id"] for d in document["deliveries"]] == [DELIVERED, ON_ITS_WAY]
    assert await _trail(store, EXPORT_ACTION) == [(f"staff:{member.id}", EXPORT_ACTION, "done")]


async def test_an_admin_forgets_a_customer_after_the_question(
    site: ConsoleSite, store: Store
) -> None:
    admin = await site.signed_in("Ada", "admin")
    member = (await store.staff.named("Ada"))[0]
    csrf = await _csrf(admin)

    asked = await admin.post(f"{ADA_PAGE}/forget", data={"csrf": csrf})
    assert asked.status_code == 200
    assert _shown("console_web.customer_data.confirm_text", customer="telegram:1900") in asked.text
    assert 'name="confirm" value="yes"' in asked.text
    assert await store.customers.get(ADA) is not None  # asked, nothing erased
    assert await _trail(store, FORGET_ACTION) == []

    done = await admin.post(f"{ADA_PAGE}/forget", data={"csrf": csrf, "confirm": "yes"})

    assert done.status_code == 200
    assert _shown("console_web.customer_data.books", count=1) in done.text
    assert _shown("console_web.customer_data.open", refs="4B7D0E21") in done.text
    assert "<code>customer_details</code>" in done.text
    assert await store.customers.get(ADA) is None
    assert await store.deliveries.get(ON_ITS_WAY) is not None  # on its way: left as it is
    kept = await store.deliveries.get(DELIVERED)
    assert kept is not None and kept.chat.id != ADA.id  # anonymised: a stand-in's
    assert await _trail(store, FORGET_ACTION) == [
        (f"staff:{member.id}", FORGET_ACTION, "requested")
    ]


@pytest.mark.parametrize("role", ["dispatcher", "viewer"])
async def test_only_an_admin_exports_or_forgets(site: ConsoleSite, store: Store, role: str) -> None:
    client = await site.signed_in("Sam", role)  # type: ignore[arg-type]
    page = await client.get(ADA_PAGE)
    assert f'action="{ADA_PAGE}/forget"' not in page.text
    assert _shown("console_web.customer_data.admins_only") in page.text
    csrf = await _csrf(client)
    for action in ("export", "forget"):
        refused = await client.post(f"{ADA_PAGE}/{action}", data={"csrf": csrf, "confirm": "yes"})
        assert refused.status_code == 403
        assert ADA_NAME not in refused.text
    assert await store.customers.get(ADA) is not None
    assert await _trail(store, EXPORT_ACTION, FORGET_ACTION) == []


async def test_without_its_csrf_token_or_on_an_unknown_customer_nothing_is_done(
    site: ConsoleSite, store: Store
) -> None:
    admin = await site.signed_in("Ada", "admin")
    member = (await store.staff.named("Ada"))[0]
    for action in ("export", "forget"):
        missing = await admin.post(f"{ADA_PAGE}/{action}", data={"confirm": "yes"})
        assert missing.status_code == 403 and ADA_NAME not in missing.text
    csrf = await _csrf(admin)
    unknown = await admin.post(
        "/console/customers/telegram/777/forget", data={"csrf": csrf, "confirm": "yes"}
    )
    assert unknown.status_code == 404
    assert _shown("console_web.customers.not_found", customer="telegram:777") in unknown.text
    assert await store.customers.get(ADA) is not None
    assert await _trail(store, EXPORT_ACTION, FORGET_ACTION) == [
        (f"staff:{member.id}", FORGET_ACTION, "refused: unknown customer")
    ]
