"""The Mini App's routes: the page's headers, and every API request's ``initData`` checked
before anything is read or spent."""

from __future__ import annotations

import re

import httpx
import pytest
from starlette.applications import Starlette

from bot.config.webapp_section import WebappConfig
from bot.webapp.init_data import sign_init_data, user_fields
from bot.webapp.routes import WebappEndpoints
from conversations.services import GeocodedPlace
from tests.support.clock import FakeClock
from tests.webapp.page_world import (
    TOKEN,
    USER_ID,
    StubGeocoder,
    StubQuestions,
    business_texts,
    place_question,
)

NOW = 1_800_000_000.0


def _app(
    questions: StubQuestions, geocoder: StubGeocoder, clock: FakeClock, **config: object
) -> httpx.AsyncClient:
    endpoints = WebappEndpoints(
        WebappConfig.model_validate({"enabled": True, **config}),
        bot_token=TOKEN,
        questions=questions,
        geocoder=geocoder,
        clock=clock,
        texts=business_texts(),
    )
    app = Starlette(routes=endpoints.routes())
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bot.test")


def _auth(user_id: int = USER_ID, *, age: float = 0, token: str = TOKEN) -> dict[str, str]:
    fields = user_fields(user_id, auth_date=int(NOW - age))
    return {"Authorization": "tma " + sign_init_data(fields, bot_token=token)}


async def test_the_page_is_served_with_a_strict_policy_and_no_inline_script() -> None:
    async with _app(StubQuestions(), StubGeocoder(), FakeClock(NOW)) as web:
        page = await web.get("/webapp/place", params={"chat": USER_ID})
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy
    assert "default-src 'none'" in policy
    assert "img-src 'self' data: https://tile.openstreetmap.org" in policy
    assert policy.endswith(
        "frame-ancestors https://web.telegram.org https://webk.telegram.org "
        "https://webz.telegram.org"
    )
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page.text, re.S)
    assert scripts and all('src="static/' in attrs and not body for attrs, body in scripts)
    assert 'data-attribution="© OpenStreetMap contributors"' in page.text


async def test_the_map_library_is_served_from_the_bots_own_host() -> None:
    async with _app(StubQuestions(), StubGeocoder(), FakeClock(NOW)) as web:
        leaflet = await web.get("/webapp/static/leaflet/leaflet.js")
        icon = await web.get("/webapp/static/leaflet/images/marker-icon.png")
    assert leaflet.status_code == 200 and "Leaflet 1.9.4" in leaflet.text[:200]
    assert icon.status_code == 200 and icon.content.startswith(b"\x89PNG")


REFUSED = {
    "no initData": {},
    "stale": _auth(age=3601),
    "another user": _auth(USER_ID + 1),
    "another bot's": _auth(token="999:AAE-not-this-bot-at-all-0123456789abc"),
    "not the tma scheme": {"Authorization": _auth()["Authorization"].replace("tma ", "Bearer ")},
}


@pytest.mark.parametrize("headers", REFUSED.values(), ids=REFUSED.keys())
async def test_a_bad_init_data_is_401_and_nothing_is_read(headers: dict[str, str]) -> None:
    questions, geocoder = StubQuestions(place_question()), StubGeocoder()
    async with _app(questions, geocoder, FakeClock(NOW)) as web:
        asked = await web.get("/webapp/api/question", params={"chat": USER_ID}, headers=headers)
        searched = await web.get(
            "/webapp/api/search", params={"chat": USER_ID, "q": "Yaba"}, headers=headers
        )
    assert (asked.status_code, searched.status_code) == (401, 401)
    assert "button in the chat" in asked.json()["error"]
    assert questions.asked == []


async def test_the_question_in_the_customers_language() -> None:
    questions = StubQuestions(place_question())
    fr = {
        "Authorization": "tma "
        + sign_init_data(
            user_fields(USER_ID, auth_date=int(NOW), language_code="fr"), bot_token=TOKEN
        )
    }
    async with _app(questions, StubGeocoder(), FakeClock(NOW)) as web:
        reply = await web.get("/webapp/api/question", params={"chat": USER_ID}, headers=fr)
    body = reply.json()
    assert body["question"]["step"] == "dropoff_place" and body["question"]["version"] == 7
    assert body["texts"]["confirm"] == "Utiliser ce lieu"
    assert "{label}" in body["texts"]["unit_missing"]  # filled in by the page
    assert "10" in body["texts"]["outside"]
    assert questions.asked == [USER_ID]


async def test_no_open_place_question_is_409() -> None:
    async with _app(StubQuestions(None), StubGeocoder(), FakeClock(NOW)) as web:
        reply = await web.get("/webapp/api/question", params={"chat": USER_ID}, headers=_auth())
    assert reply.status_code == 409 and "no longer open" in reply.json()["error"]


async def test_searches_are_rate_limited_per_user() -> None:
    place = GeocodedPlace(address="Yaba, Lagos", lat=6.5, lng=3.37)
    clock = FakeClock(NOW)
    geocoder = StubGeocoder({"yaba": [place]})
    async with _app(StubQuestions(), geocoder, clock, searches_per_minute=2) as web:
        params = {"chat": USER_ID, "q": "Yaba"}
        codes = [
            (await web.get("/webapp/api/search", params=params, headers=_auth())).status_code
            for _ in range(3)
        ]
        other = await web.get(
            "/webapp/api/search", params={**params, "chat": USER_ID + 1}, headers=_auth(USER_ID + 1)
        )
        clock.now += 60
        again = await web.get("/webapp/api/search", params=params, headers=_auth(age=60))
    assert codes == [200, 200, 429]
    assert other.status_code == 200  # another customer's budget is their own
    assert again.status_code == 200 and again.json() == {"places": [place.model_dump()]}


async def test_a_too_short_query_is_refused_without_spending() -> None:
    async with _app(StubQuestions(), StubGeocoder(), FakeClock(NOW), searches_per_minute=1) as web:
        short = await web.get(
            "/webapp/api/search", params={"chat": USER_ID, "q": "Y"}, headers=_auth()
        )
        fine = await web.get(
            "/webapp/api/search", params={"chat": USER_ID, "q": "Yaba"}, headers=_auth()
        )
    assert (short.status_code, fine.status_code) == (400, 200)
