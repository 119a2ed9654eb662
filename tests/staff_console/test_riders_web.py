"""The riders page over real HTTP, its store on both backends: each delivery on its way, oldest
first, with its reference linking to its page, its rider, its status in words and how old the
rider's last fix is; the map pins the riders with a fix and the drop-offs; without tiles or
without any fix the list alone; none of a delivery that is not on its way."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator

import pytest

from bot.config import TilesConfig
from bot.store import Store
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.staff_console.riders_seed import AKOKA, IKOYI, SURULERE, YABA, seed_riders
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

TILES = TilesConfig(url_template="https://{s}.tiles.example/{z}/{x}/{y}.png")
_ROW = re.compile(
    r'<tr data-delivery="([^"]+)">\s*<th scope="row"><a href="([^"]+)">([^<]+)</a></th>\s*'
    r'<td>([^<]*)</td>\s*<td class="status-([a-z_]+)">[^<]*</td>\s*<td>(.*?)</td>'
)
_PLACES = re.compile(r'data-places="([^"]*)"')


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock, tiles=TILES) as opened:
        yield opened


def rows(page: str) -> list[tuple[str, str, str, str, str, str]]:
    """Each row: the delivery, its link, reference, rider, status, and the fix's age in words
    (its markup taken off)."""
    found = _ROW.findall(page)
    return [(*row[:5], html.unescape(re.sub(r"<[^>]+>", "", row[5]))) for row in found]


async def test_each_delivery_on_its_way_is_listed_with_its_rider_and_pinned(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    seeded = await seed_riders(store, fake_clock())
    client = await site.signed_in()

    page = await client.get("/console/riders")

    assert page.status_code == 200
    text = page.text
    assert f'href="/console/riders">{SHIPPED.say("console_web.riders.title")}</a>' in text
    matched, picked, moving = seeded
    assert (
        rows(text)
        == [
            (
                matched.delivery_id,
                f"/console/deliveries/{matched.delivery_id}",
                matched.delivery_id[:8].upper(),
                "Musa Bello",
                "matched",
                SHIPPED.say("console_web.riders.minutes_ago", minutes=2),
            ),
            (
                picked.delivery_id,
                f"/console/deliveries/{picked.delivery_id}",
                picked.delivery_id[:8].upper(),
                "rdr_2",  # no name shown by the service: the rider's id
                "picked_up",
                SHIPPED.say("console_web.riders.no_position"),
            ),
            (
                moving.delivery_id,
                f"/console/deliveries/{moving.delivery_id}",
                moving.delivery_id[:8].upper(),
                "Ife Okon",
                "in_transit",
                SHIPPED.say("console_web.riders.just_now"),
            ),
        ]
    )
    [places] = _PLACES.findall(text)
    pins = [
        (p["lat"], p["lng"], p["label"], p.get("kind")) for p in json.loads(html.unescape(places))
    ]
    first, second, third = (seeded.delivery_id[:8].upper() for seeded in seeded)
    drop = "console_web.riders.dropoff_pin"
    assert pins == [
        (YABA.latitude, YABA.longitude, f"{first}: Musa Bello", None),
        (AKOKA.latitude, AKOKA.longitude, SHIPPED.say(drop, ref=first), "dropoff"),
        (IKOYI.latitude, IKOYI.longitude, SHIPPED.say(drop, ref=second), "dropoff"),
        (SURULERE.latitude, SURULERE.longitude, f"{third}: Ife Okon", None),
    ]


async def test_in_french_the_ages_are_french(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    await seed_riders(store, fake_clock())
    fake_clock.advance(2 * 3600)
    await store.staff.set_language(await store.staff.invited("Bob", "viewer"), "fr")
    client = await site.signed_in("Bob")
    page = await client.get("/console/riders")
    ages = [row[5] for row in rows(page.text)]
    assert ages == ["il y a 2 h", "aucune position", "il y a 2 h"]


async def test_without_tiles_or_without_any_fix_the_page_is_the_list_alone(
    store: Store, fake_clock: FakeClock
) -> None:
    seeded = await seed_riders(store, fake_clock())
    async with console_site(store, fake_clock) as untiled:
        client = await untiled.signed_in()
        page = (await client.get("/console/riders")).text
    assert len(rows(page)) == 3 and "console-map" not in page and "leaflet" not in page
    for on_way in seeded:
        await store.rider_positions.drop(on_way.delivery_id)
    async with console_site(store, fake_clock, tiles=TILES) as tiled:
        client = await tiled.signed_in()
        page = (await client.get("/console/riders")).text
    assert len(rows(page)) == 3 and "console-map" not in page


async def test_nothing_on_its_way_is_said_and_a_stranger_is_sent_to_sign_in(
    site: ConsoleSite,
) -> None:
    client = await site.signed_in()
    page = await client.get("/console/riders")
    assert SHIPPED.say("console_web.riders.none") in page.text and "<table" not in page.text

    stranger = await site.client().get("/console/riders")
    assert (stranger.status_code, stranger.headers["location"]) == (303, "/console/signed-out")
