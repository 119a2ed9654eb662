"""A delivery's actions in the console over real HTTP, on both backends, against the sandbox
Partner API: the rider list, assign, unassign and cancel, done and audited as Telegram's
operator commands are; every refusal (the API's, a reason of the wrong length, a viewer, no
CSRF token, a ref naming no delivery, an oversized form) changing nothing; two dispatchers
assigning at once; the outcome shown by its key only; the map and its CSP."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import AsyncIterator

import httpx
import markupsafe
import pytest

from bot.config import TilesConfig
from bot.staff_console.console_headers import CONTENT_SECURITY_POLICY
from bot.staff_console.console_kit import FORM_LIMIT
from bot.store import Store
from tests.staff_console.dispatch_site import DROPOFF, PICKUP, DispatchSite, dispatch_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_SEEN = re.compile(r'name="seen_rider" value="([^"]*)"')
TILES = TilesConfig(url_template="https://{s}.tiles.example/{z}/{x}/{y}.png")


@pytest.fixture
async def world(store: Store, fake_clock: FakeClock) -> AsyncIterator[DispatchSite]:
    async with dispatch_site(store, fake_clock) as opened:
        yield opened


def _shown(key: str, **values: object) -> str:
    return str(markupsafe.escape(SHIPPED.say(key, **values)))


class Desk:
    """A signed-in staff member's browser on one delivery's page."""

    def __init__(self, client: httpx.AsyncClient, delivery_id: str) -> None:
        self.client = client
        self.page_path = f"/console/deliveries/{delivery_id}"
        self.csrf = ""
        self.seen = ""

    async def read(self, query: str = "") -> httpx.Response:
        page = await self.client.get(self.page_path + query)
        found = _CSRF.search(page.text)
        self.csrf = found.group(1) if found else ""
        seen = _SEEN.search(page.text)
        self.seen = seen.group(1) if seen else ""
        return page

    async def post(self, action: str, **fields: str) -> httpx.Response:
        form = {"csrf": self.csrf, **fields}
        return await self.client.post(f"{self.page_path}/{action}", data=form)

    async def assign(self, rider: str) -> httpx.Response:
        return await self.post("assign", rider=rider, seen_rider=self.seen)


async def _desk(world: DispatchSite, delivery_id: str, role: str = "dispatcher") -> Desk:
    client = await world.site.signed_in(f"Staff {role}", role)  # type: ignore[arg-type]
    desk = Desk(client, delivery_id)
    page = await desk.read()
    assert page.status_code == 200, page.text
    return desk


async def _audit(store: Store, action: str) -> list[tuple[str, str, str, str | None]]:
    return [
        (e.actor, e.subject, e.outcome, e.detail)
        for e in await store.audit.since(0)
        if e.action == action
    ]


async def test_a_dispatcher_sees_the_riders_and_assigns_one(world: DispatchSite) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)
    page = await desk.read()

    panel = page.text[page.text.index('<section class="dispatch"') :]
    riders = re.findall(r'<li data-rider="([^"]+)">', panel)
    assert riders[0] == "rdr_tunde"  # closest to the pickup first, as /riders lists them
    assert "rdr_aisha" not in riders  # an invite not accepted is never listed
    assert re.search(r"\d+\.\d km away", panel) and _shown("ops.fresh_location") in panel
    assert _shown("console_web.actions.no_rider_now") in panel
    assert desk.seen == ""

    answer = await desk.assign("rdr_tunde")
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/console/deliveries/{delivery_id}?done=assigned"
    assert world.sandbox.delivery(delivery_id)["status"] == "matched"
    after = await desk.read("?done=assigned")
    assert _shown("console_web.actions.done_assigned") in after.text
    assert _shown("console_web.actions.rider_now", rider="Tunde Bakare") in after.text
    assert desk.seen == "rdr_tunde"
    [(actor, subject, outcome, detail)] = await _audit(world.store, "assign")
    assert (subject, outcome, detail) == (delivery_id, "done", "rdr_tunde")
    assert actor.startswith("staff:")
    assert "entry-audit" in after.text  # the page's history shows it


async def test_unassign_then_cancel_with_a_reason(world: DispatchSite) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)
    assert (await desk.assign("rdr_tunde")).status_code == 303
    page = await desk.read()
    assert f'action="/console/deliveries/{delivery_id}/unassign"' in page.text

    answer = await desk.post("unassign")
    assert answer.headers["location"].endswith("?done=unassigned")
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"
    page = await desk.read("?done=unassigned")
    assert _shown("console_web.actions.done_unassigned") in page.text
    assert "/unassign" not in page.text  # only while matched

    answer = await desk.post("cancel", reason="Customer called: no longer needed")
    assert answer.headers["location"].endswith("?done=cancelled")
    cancelled = world.sandbox.delivery(delivery_id)
    assert cancelled["status"] == "cancelled"
    assert cancelled["cancellation_reason"] == "Customer called: no longer needed"
    page = await desk.read("?done=cancelled")
    assert _shown("console_web.actions.done_cancelled") in page.text
    assert "/cancel" not in page.text and "/assign" not in page.text  # nothing more to do
    assert [o for _, _, o, _ in await _audit(world.store, "unassign")] == ["done"]
    assert [(o, d) for _, _, o, d in await _audit(world.store, "cancel")] == [
        ("done", "Customer called: no longer needed")
    ]


async def test_the_apis_refusals_are_said_plainly_and_change_nothing(
    world: DispatchSite,
) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)

    unknown = await desk.assign("rdr_nobody")
    assert unknown.status_code == 409
    assert _shown("ops.rider_not_found", rider="rdr_nobody") in unknown.text
    inactive = await desk.assign("rdr_aisha")
    assert inactive.status_code == 409
    assert _shown("ops.rider_not_active", rider="rdr_aisha") in inactive.text
    not_matched = await desk.post("unassign")
    assert not_matched.status_code == 409
    ref = delivery_id[:8].upper()
    delivery = _shown("ops.the_delivery_ref", ref=ref)
    assert _shown("ops.unassign_not_allowed", delivery=html.unescape(delivery)) in (
        not_matched.text
    )
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"

    assert (await desk.assign("rdr_tunde")).status_code == 303
    world.sandbox.mark_paid(delivery_id)
    world.sandbox.advance_status(delivery_id)  # picked up: no rider change any more
    page = await desk.read()
    assert "/assign" not in page.text  # no longer offered; posted anyway:
    desk.seen = "rdr_tunde"
    late = await desk.assign("rdr_emeka")
    assert late.status_code == 409
    assert _shown("ops.assign_not_allowed", delivery=html.unescape(delivery)) in late.text
    assert world.sandbox.delivery(delivery_id)["rider"]["id"] == "rdr_tunde"
    for answer in (unknown, inactive, late):
        [said] = re.findall(r'<p class="refusal" role="alert">(.*?)</p>', answer.text)
        codes = ("rider_not_found", "rider_not_active", "assign_not_allowed", "refused")
        assert not any(code in said for code in codes)  # plain words, never the API's code
    outcomes = [o for _, _, o, _ in await _audit(world.store, "assign")]
    assert outcomes == [
        "refused: rider_not_found",
        "refused: rider_not_active",
        "done",
        "refused: assign_not_allowed",
    ]
    assert [o for _, _, o, _ in await _audit(world.store, "unassign")] == [
        "refused: unassign_not_allowed"
    ]


@pytest.mark.parametrize("reason", ["ab", "  x  ", "y" * 501])
async def test_a_reason_of_the_wrong_length_is_asked_again_keeping_it(
    world: DispatchSite, reason: str
) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)

    answer = await desk.post("cancel", reason=reason)

    assert answer.status_code == 400
    kept = reason.strip()
    assert _shown("console_web.actions.reason_length", count=len(kept), low=3, high=500) in (
        answer.text
    )
    assert f">{kept}</textarea>" in answer.text
    assert world.calls("cancel_delivery") == 0
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"
    assert [o for _, _, o, _ in await _audit(world.store, "cancel")] == ["refused: reason_length"]


async def test_a_viewer_sees_no_action_and_their_post_is_refused(world: DispatchSite) -> None:
    delivery_id = await world.order()
    viewer = await _desk(world, delivery_id, "viewer")
    page = await viewer.read()
    assert '<section class="dispatch"' not in page.text
    assert "/assign" not in page.text and "/cancel" not in page.text
    assert world.calls("list_riders") == 0  # a viewer's page asks the API nothing

    for action, fields in (("assign", {"rider": "rdr_tunde"}), ("unassign", {})):
        refused = await viewer.post(action, **fields)
        assert refused.status_code == 403
        assert _shown("console_web.role.viewer") in refused.text
    refused = await viewer.post("cancel", reason="not wanted")
    assert refused.status_code == 403
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"
    assert world.calls("assign_rider") == world.calls("cancel_delivery") == 0
    denied = [e for e in await world.store.audit.since(0) if e.action == "console_denied"]
    assert len(denied) == 3
    assert all("< dispatcher" in (e.detail or "") for e in denied)


async def test_a_post_without_its_csrf_token_is_refused(world: DispatchSite) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)
    desk.csrf = ""

    refused = await desk.assign("rdr_tunde")
    wrong = await desk.client.post(
        f"{desk.page_path}/cancel", data={"csrf": "x" * 43, "reason": "not wanted"}
    )

    assert (refused.status_code, wrong.status_code) == (403, 403)
    assert world.calls("assign_rider") == world.calls("cancel_delivery") == 0
    csrf = [e.detail for e in await world.store.audit.since(0) if e.action == "console_csrf"]
    assert len(csrf) == 2 and "missing" in (csrf[0] or "") and "wrong" in (csrf[1] or "")


async def test_a_ref_naming_no_delivery_and_an_oversized_form(world: DispatchSite) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)
    form = {"csrf": desk.csrf, "rider": "rdr_tunde"}

    malformed = await desk.client.post("/console/deliveries/zz%3Cb%3E/assign", data=form)
    assert malformed.status_code == 400 and "<b>" not in malformed.text
    unknown = await desk.client.post("/console/deliveries/ffffffff/assign", data=form)
    assert unknown.status_code == 404 and "FFFFFFFF" in unknown.text
    huge = await desk.client.post(
        f"{desk.page_path}/cancel", data={"csrf": desk.csrf, "reason": "r" * FORM_LIMIT}
    )
    assert huge.status_code == 413
    wrong_method = await desk.client.get(f"{desk.page_path}/assign")
    assert wrong_method.status_code == 405

    assert world.calls("assign_rider") == world.calls("cancel_delivery") == 0
    assert [(s, o) for _, s, o, _ in await _audit(world.store, "assign")] == [
        ("zz<b>", "refused: not_a_delivery"),
        ("ffffffff", "refused: not_found"),
    ]


async def test_two_dispatchers_assigning_at_once_one_wins_the_other_is_told(
    world: DispatchSite,
) -> None:
    delivery_id = await world.order()
    first = await _desk(world, delivery_id)
    second = await _desk(world, delivery_id)

    answers = await asyncio.gather(first.assign("rdr_tunde"), second.assign("rdr_emeka"))

    codes = sorted(answer.status_code for answer in answers)
    assert codes == [303, 409]
    won = 0 if answers[0].status_code == 303 else 1
    winner = ("Tunde Bakare", "Emeka Okafor")[won]
    lost = answers[1 - won]
    assert _shown("console_web.actions.rider_changed", rider=winner) in lost.text
    assert world.sandbox.delivery(delivery_id)["rider"]["name"] == winner
    assert world.calls("assign_rider") == 1
    outcomes = sorted(o for _, _, o, _ in await _audit(world.store, "assign"))
    assert outcomes == ["done", "refused: rider_changed"]


async def test_the_outcome_is_said_by_its_key_only(world: DispatchSite) -> None:
    delivery_id = await world.order()
    desk = await _desk(world, delivery_id)
    for query in ("?done=%3Cscript%3Ealert(1)%3C/script%3E", "?done=Hello+there", "?done="):
        page = await desk.read(query)
        assert page.status_code == 200
        assert 'class="outcome"' not in page.text
        assert "<script>alert" not in page.text and "Hello there" not in page.text


async def test_the_map_pins_the_pickup_and_drop_off_on_the_configured_tiles(
    store: Store, fake_clock: FakeClock
) -> None:
    async with dispatch_site(store, fake_clock, tiles=TILES) as world:
        delivery_id = await world.order(placed=True)
        desk = await _desk(world, delivery_id, "viewer")
        page = await desk.read()
        csp = page.headers["content-security-policy"]
        assert "img-src 'self' https://*.tiles.example;" in csp
        assert "script-src 'self';" in csp
        found = re.search(r'<div class="console-map" hidden ([^>]*)>', page.text)
        assert found is not None
        attributes = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', found.group(1)))
        assert attributes["tiles"] == TILES.url_template
        places = json.loads(html.unescape(attributes["places"]))
        assert places == [
            {"lat": PICKUP.latitude, "lng": PICKUP.longitude, "label": "Pickup"},
            {"lat": DROPOFF.latitude, "lng": DROPOFF.longitude, "label": "Drop-off"},
        ]
        assert '<script src="/console/static/console-map.js">' in page.text
        assert f"({PICKUP.latitude}, {PICKUP.longitude})" in page.text  # read without it too
        for path in ("/console/leaflet/leaflet.js", "/console/static/console-map.js"):
            served = await desk.client.get(path)
            assert served.status_code == 200
            assert served.headers["content-security-policy"] == csp
        marker = await desk.client.get("/console/leaflet/images/marker-icon.png")
        assert marker.headers["content-type"] == "image/png"


async def test_without_tiles_there_is_no_map_only_the_coordinates(world: DispatchSite) -> None:
    delivery_id = await world.order(placed=True)
    desk = await _desk(world, delivery_id, "viewer")
    page = await desk.read()
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "console-map" not in page.text and "leaflet" not in page.text
    assert f"({PICKUP.latitude}, {PICKUP.longitude})" in page.text
