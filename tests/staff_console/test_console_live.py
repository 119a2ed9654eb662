"""The deliveries list, live, over real HTTP (uvicorn on loopback), on both backends: a create
and a signed webhook (once relayed) reach an open stream, also from a second instance on the
same store; the page's filters are kept; a signed-out session's stream ends; the streams one
process holds are capped; the server stopping ends them; no token is ever in an event."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.staff_console.console_guard import SESSION_COOKIE
from bot.store import ListedDetails, Store
from bot.store.pg_local_server import LocalPostgres
from tests.staff_console.conftest import START
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.staff_console.live_client import WAIT, Served, served
from tests.staff_console.live_webhook import SECRET, post_status, relayed
from tests.support.clock import FakeClock
from tests.support.store_fixture import STORE_FILE
from tests.support.words import SHIPPED

ADA = "3f2a9c1e-1111-4bbb-8ccc-000000000001"
CHIDI = "7b00c0de-2222-4bbb-8ccc-000000000002"
CHAT = ChatRef("telegram", 42)


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[Served]:
    secrets = (SECRET,)
    async with (
        console_site(store, fake_clock, signing_secrets=secrets) as opened,
        served(opened) as on_loopback,
    ):
        on_loopback.live.live.interval = 0.05
        yield on_loopback


async def _add(store: Store, delivery_id: str, *, status: str = "pending") -> None:
    listed = ListedDetails(customer_name="Ada <b>Obi</b>", sender_phone="+2348031234567")
    await store.deliveries.add(
        delivery_id, CHAT, 42, START, "+2348031234567", None, status, details=listed
    )


async def _csrf(site: ConsoleSite, client: httpx.AsyncClient) -> str:
    """The CSRF token of the live session ``client`` holds."""
    token = client.cookies[SESSION_COOKIE]
    session = await site.door.session(token)
    assert session is not None
    return session.csrf_token


async def test_a_create_and_an_event_reach_an_open_stream(site: Served, store: Store) -> None:
    client = await site.site.signed_in()
    async with site.stream(client) as stream:
        await _add(store, ADA)
        kind, data = await stream.for_delivery(ADA)
        assert kind == "row"
        assert data["html"].startswith(f'<tr data-delivery="{ADA}">')
        assert "3F2A9C1E" in data["html"]
        assert "Ada &lt;b&gt;Obi&lt;/b&gt;" in data["html"]  # escaped, as the page is
        assert SHIPPED.say("console_web.no_rider") in data["html"]

        async with httpx.AsyncClient(base_url=site.base) as partner:
            await post_status(partner, ADA, "matched", previous="pending", seq=1)
        await relayed(site.site.core)
        # The relay's writes (the status, the news it could not send) may come as two events.
        matched = SHIPPED.say("status.matched")
        while matched not in data["html"]:
            kind, data = await stream.for_delivery(ADA)
            assert kind == "row"

        csrf = await _csrf(site.site, client)
        token = client.cookies.get(SESSION_COOKIE)
        assert token and csrf
        assert not any(token in line or csrf in line for line in stream.raw)


async def test_a_change_on_a_second_instance_reaches_a_stream_on_the_first(
    site: Served,
    store: Store,
    store_backend: str,
    fake_clock: FakeClock,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    if store_backend == "postgres":
        server: LocalPostgres = request.getfixturevalue("postgres_server")
        other = await Store.connect_postgres(
            server.dsn("store_tests"),
            media_dir=tmp_path / "media2",
            clock=fake_clock,
            channels=SHIPPED_CHANNEL_KINDS,
        )
    else:
        other = await Store.connect(tmp_path / STORE_FILE, clock=fake_clock)
    try:
        client = await site.site.signed_in()
        async with site.stream(client) as stream:
            await _add(other, CHIDI)
            kind, data = await stream.for_delivery(CHIDI)
            assert kind == "row" and "7B00C0DE" in data["html"]
            assert await other.deliveries.note_paid(CHIDI)
            kind, data = await stream.for_delivery(CHIDI)
            assert kind == "row"
            assert SHIPPED.say("payment.paid") in data["html"]
    finally:
        await other.close()


async def test_a_stream_keeps_to_its_filters(site: Served, store: Store) -> None:
    client = await site.site.signed_in()
    async with site.stream(client, "?status=pending") as stream:
        await _add(store, ADA, status="assigned")  # not pending: not for this page
        await _add(store, CHIDI)
        told = dict((data["id"], kind) for kind, data in [await stream.next(), await stream.next()])
        assert told == {ADA: "gone", CHIDI: "row"}
        assert await store.deliveries.update_view(CHIDI, "assigned", 1_800_000_100)
        assert await stream.for_delivery(CHIDI) == ("gone", {"id": CHIDI})


async def test_a_signed_out_session_ends_its_stream(site: Served) -> None:
    site.live.session_check = 0.05
    client = await site.site.signed_in()
    async with site.stream(client) as stream:
        assert await site.site.door.sign_out(client.cookies[SESSION_COOKIE])
        kind, _ = await stream.next()
        assert kind == "signed-out"
        await _wait(stream.ended)
    assert site.live.live.open_count == 0


async def test_streams_past_the_cap_are_refused_in_words(site: Served) -> None:
    site.live.live.max_streams = 1
    client = await site.site.signed_in()
    async with site.stream(client):
        cookie = {"Cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}
        async with httpx.AsyncClient(base_url=site.base) as other:
            answer = await other.get("/console/deliveries/live", headers=cookie)
        assert answer.status_code == 503
        assert answer.text == SHIPPED.say("console_web.live.busy")
        assert answer.headers["content-type"].startswith("text/plain")


async def test_a_stream_refuses_what_the_list_refuses(site: Served) -> None:
    async with httpx.AsyncClient(base_url=site.base) as anonymous:
        answer = await anonymous.get("/console/deliveries/live")
    assert answer.status_code == 303  # to the signed-out page, as every page
    client = await site.site.signed_in()
    cookie = {"Cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}
    async with httpx.AsyncClient(base_url=site.base) as signed:
        answer = await signed.get("/console/deliveries/live?status=lost", headers=cookie)
    assert answer.status_code == 400
    assert "lost" in answer.text and "Traceback" not in answer.text
    assert site.live.live.open_count == 0


async def test_the_server_stopping_ends_every_stream(site: Served) -> None:
    client = await site.site.signed_in()
    async with site.stream(client) as first, site.stream(client) as second:
        assert site.live.live.open_count == 2
        assert site.site.core.console is not None
        site.site.core.console.close_streams()
        await _wait(first.ended)
        await _wait(second.ended)
    assert site.live.live.open_count == 0


async def _wait(event: asyncio.Event) -> None:
    await asyncio.wait_for(event.wait(), WAIT)
