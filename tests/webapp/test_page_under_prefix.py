"""The "Pick on the map" page of a business served under ``/b/acme`` (a host of many
businesses), in headless Chromium: its script, styles and Leaflet load from there, its API
calls (the question, a search) reach the business's routes there, and what the customer picks
is sent back as on a host of one; no script error and nothing the page's CSP had to block."""

from __future__ import annotations

from conversations.services import GeocodedPlace
from tests.webapp.page_world import USER_ID, page_world, place_question


async def test_the_page_under_a_business_prefix() -> None:
    found = GeocodedPlace(lat=6.5101, lng=3.3702, address="Sabo Market, Yaba")
    async with page_world("acme") as world:
        assert world.base_url.endswith("/b/acme")
        world.questions.open = place_question()
        world.geocoder.places = {"sabo": [found]}
        page = await world.open_page()
        assert page.url == f"{world.base_url}/webapp/place?chat={USER_ID}"
        await page.wait_for_selector("body.tiles-loaded", state="attached")
        await page.get_by_label("Search an address").fill("Sabo")
        await page.get_by_role("button", name="Search", exact=True).click()
        await page.get_by_role("button", name=found.address).click()
        await world.press_main_button(page)
        [sent] = await world.sent(page)
        assert sent["pin"] == {"lat": found.lat, "lng": found.lng, "address": found.address}
        assert world.questions.asked == [USER_ID] and world.tiles.served > 0
        assert world.problems == []
