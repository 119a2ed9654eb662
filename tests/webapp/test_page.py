"""The "Pick on the map" page in headless Chromium: what the customer does on it, and what it
sends back with ``Telegram.WebApp.sendData``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Page

from bot.webapp.place_question import CurrentAnswer
from conversations.services import GeocodedPlace
from tests.webapp.page_world import USER_ID, PageWorld, page_world, place_question

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world() -> AsyncIterator[PageWorld]:
    async with page_world() as opened:
        yield opened


@pytest.fixture(autouse=True)
def _fresh(world: PageWorld) -> Iterator[None]:
    world.questions.open = place_question()
    world.tiles.failing = False
    world.geocoder.places = {}
    world.problems.clear()
    yield
    assert world.problems == []  # no script error, nothing the page's CSP had to block


async def search_and_pick(world: PageWorld, query: str, found: GeocodedPlace) -> Page:
    """A page where the customer searched ``query`` and picked ``found`` among the results."""
    world.geocoder.places = {query.casefold(): [found]}
    page = await world.open_page()
    await page.get_by_label("Search an address").fill(query)
    await page.get_by_role("button", name="Search", exact=True).click()
    await page.get_by_role("button", name=found.address).click()
    return page


async def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the browser's viewport now."""
    box = await page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


async def test_the_heading_names_what_it_picks(world: PageWorld) -> None:
    world.questions.open = place_question(step="pickup_place")
    page = await world.open_page()
    assert await page.locator("h1").inner_text() == "Pickup place"
    assert await page.title() == "Pickup place"
    world.questions.open = place_question(step="dropoff_place")
    page = await world.open_page()
    assert await page.locator("h1").inner_text() == "Drop-off place"
    assert await page.title() == "Drop-off place"


async def test_a_saved_place_with_a_list_unit(world: PageWorld) -> None:
    page = await world.open_page()
    await page.locator("#saved-list").get_by_role("button", name="Unilag Hostel").click()
    await world.press_main_button(page)
    # The room is required: nothing is sent until it is given.
    assert await world.sent(page) == []
    assert await page.locator("#unit-error").inner_text() == "Please give the Room first."
    await page.get_by_label("Room", exact=True).select_option("B01")
    await world.press_main_button(page)
    assert await world.sent(page) == [
        {"v": 1, "step": "dropoff_place", "version": 7, "saved": {"id": "hostel-1", "unit": "B01"}}
    ]
    assert world.questions.asked[-1] == USER_ID


async def test_drag_the_pin_and_confirm(world: PageWorld) -> None:
    page = await world.open_page()
    await page.wait_for_selector("body.tiles-loaded", state="attached")
    pin = page.locator(".leaflet-marker-draggable")
    box = await pin.bounding_box()
    assert box is not None
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
    await page.mouse.move(*start)
    await page.mouse.down()
    await page.mouse.move(start[0] + 40, start[1] + 30, steps=8)
    await page.mouse.up()
    await page.get_by_label("Address or landmark, for the rider").fill("Blue gate by the mosque")
    await world.press_main_button(page)
    [sent] = await world.sent(page)
    assert sent["step"] == "dropoff_place" and sent["version"] == 7
    assert sent["pin"]["address"] == "Blue gate by the mosque"
    assert 6.3 < sent["pin"]["lat"] < 6.7 and 3.2 < sent["pin"]["lng"] < 3.6
    assert world.tiles.served > 0


async def test_my_location_when_the_device_allows(world: PageWorld) -> None:
    page = await world.open_page(located_at=(6.5005, 3.3801))
    await page.get_by_role("button", name="My location").click()
    await page.get_by_label("Address or landmark, for the rider").fill("Shop 4, Tejuosho Market")
    await world.press_main_button(page)
    assert await world.sent(page) == [
        {
            "v": 1,
            "step": "dropoff_place",
            "version": 7,
            "pin": {"lat": 6.5005, "lng": 3.3801, "address": "Shop 4, Tejuosho Market"},
        }
    ]


async def test_search_a_known_address(world: PageWorld) -> None:
    found = GeocodedPlace(address="12 Herbert Macaulay Way, Yaba, Lagos", lat=6.509, lng=3.3792)
    page = await search_and_pick(world, "Herbert Macaulay", found)
    await world.press_main_button(page)
    assert await world.sent(page) == [
        {
            "v": 1,
            "step": "dropoff_place",
            "version": 7,
            "pin": {"lat": 6.509, "lng": 3.3792, "address": found.address},
        }
    ]


async def test_a_place_outside_the_coverage_is_refused_on_the_page(world: PageWorld) -> None:
    abuja = GeocodedPlace(address="Central Business District, Abuja", lat=9.0579, lng=7.4951)
    page = await search_and_pick(world, "Abuja", abuja)
    status = await page.locator("#status").inner_text()
    assert "10 km" in status  # the chat's own refusal: dialogue.outside_area
    assert await page.evaluate("window.Telegram.WebApp.MainButton.isActive") is False
    await page.locator("#confirm").click()
    assert await world.sent(page) == []


async def test_the_revisit_preselects_the_previous_answer(world: PageWorld) -> None:
    current = CurrentAnswer(kind="saved", saved_id="hostel-1", unit="A02")
    world.questions.open = place_question(current=current, version=12)
    page = await world.open_page()
    assert (
        await page.locator("#saved-list")
        .get_by_role("button", name="Unilag Hostel")
        .get_attribute("aria-pressed")
        == "true"
    )
    assert await page.get_by_label("Room", exact=True).input_value() == "A02"
    await world.press_main_button(page)
    assert await world.sent(page) == [
        {"v": 1, "step": "dropoff_place", "version": 12, "saved": {"id": "hostel-1", "unit": "A02"}}
    ]


async def test_the_fallback_list_when_the_tiles_fail(world: PageWorld) -> None:
    world.tiles.failing = True
    page = await world.open_page()
    failed = page.locator("#map-failed")
    await failed.wait_for(state="visible")
    assert "could not load" in await failed.inner_text()
    assert await page.locator("#map").is_hidden()
    await page.locator("#saved-list").get_by_role("button", name="Yaba Market Gate").click()
    await page.locator("#confirm").click()  # the page's own button works as the main one
    assert await world.sent(page) == [
        {"v": 1, "step": "dropoff_place", "version": 7, "saved": {"id": "gate-2", "unit": ""}}
    ]


async def test_french_and_the_theme(world: PageWorld) -> None:
    page = await world.open_page(language="fr")
    assert await page.locator("#title").inner_text() == "Lieu de livraison"
    assert await page.evaluate("Telegram.WebApp.MainButton.text") == "Utiliser ce lieu"
    background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(28, 28, 29)"  # the stand-in's bg_color


async def test_a_question_no_longer_open_says_so(world: PageWorld) -> None:
    world.questions.open = None
    page = await world.open_page(ready=False)
    status = page.locator("#status")
    await status.wait_for(state="visible")
    assert "no longer open" in await status.inner_text()
    assert await page.locator("#confirm").is_hidden()


async def test_forged_init_data_gets_nothing(world: PageWorld) -> None:
    page = await world.open_page(init_data=world.init_data(user_id=USER_ID + 1), ready=False)
    status = page.locator("#status")
    await status.wait_for(state="visible")
    assert "button in the chat" in await status.inner_text()
    assert (
        await page.locator("#saved-list").get_by_role("button", name="Unilag Hostel").count() == 0
    )


async def test_a_missing_room_is_said_beside_its_field_and_brought_into_view(
    world: PageWorld,
) -> None:
    page = await world.open_page(height=640)  # a small phone: the page is taller than that
    await page.locator("#saved-list").get_by_role("button", name="Unilag Hostel").click()
    await page.evaluate("window.scrollTo(0, 0)")  # back at the map, the Room field below
    assert not await in_view(page, "#unit-select")
    await world.press_main_button(page)
    said = page.locator("#unit-error")
    assert await said.inner_text() == "Please give the Room first."
    # Beside the field it is about, both in view; nothing said at the top of the page.
    assert await page.locator("#unit-section #unit-select + label + input + #unit-error").count()
    assert await in_view(page, "#unit-select") and await in_view(page, "#unit-error")
    assert await page.locator("#status").inner_text() == ""
    room = page.get_by_label("Room", exact=True)
    assert await room.get_attribute("aria-invalid") == "true"
    assert await page.evaluate("document.activeElement.id") == "unit-select"
    # Once the room is chosen, it goes.
    await room.select_option("A02")
    assert await said.is_hidden()
    assert await room.get_attribute("aria-invalid") is None
    assert await world.sent(page) == []


async def test_what_was_said_about_the_room_goes_with_another_place(world: PageWorld) -> None:
    page = await world.open_page()
    await page.locator("#saved-list").get_by_role("button", name="Unilag Hostel").click()
    await page.locator("#confirm").click()
    assert await page.locator("#unit-error").is_visible()
    await page.locator("#saved-list").get_by_role("button", name="Yaba Market Gate").click()
    assert await page.locator("#unit-error").is_hidden()
    await page.locator("#confirm").click()
    assert await world.sent(page) == [
        {"v": 1, "step": "dropoff_place", "version": 7, "saved": {"id": "gate-2", "unit": ""}}
    ]
