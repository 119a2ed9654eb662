"""The in-process wiring: the app switch, the stale capabilities copy, the loopback resolver,
and the offline gazetteer."""

from __future__ import annotations

import httpx
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from bot.demo.gazetteer import offline_geocoder, search
from bot.demo.transports import AppSwitch, StaleCapabilities, loopback_resolver, set_path
from bot.sandbox import Sandbox, default_scenario


async def test_the_switch_forwards_to_the_current_app_and_answers_503_without_one() -> None:
    async def hello(request: object) -> PlainTextResponse:
        return PlainTextResponse("hello")

    switch = AppSwitch()
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=switch), base_url="https://localhost"
    ) as client:
        assert (await client.get("/")).status_code == 503
        switch.app = Starlette(routes=[Route("/", hello)])
        assert (await client.get("/")).text == "hello"


async def test_only_the_first_capabilities_answer_is_stale() -> None:
    sandbox = Sandbox(default_scenario())
    transport = StaleCapabilities(
        httpx.ASGITransport(app=sandbox.app),
        {"pod.enabled": False, "errand.defaultMode": "link"},
    )
    headers = {"Authorization": f"Bearer {sandbox.api_key}"}
    async with httpx.AsyncClient(
        transport=transport, base_url=sandbox.base_url, headers=headers
    ) as client:
        first = (await client.get("/capabilities")).json()["capabilities"]
        assert (await client.get("/warehouses")).status_code == 200
        second = (await client.get("/capabilities")).json()["capabilities"]
    await sandbox.aclose()
    assert first["pod"]["enabled"] is False and first["errand"]["defaultMode"] == "link"
    assert second["pod"]["enabled"] is True and second["errand"]["defaultMode"] == "at_place"
    assert transport.left == 0


def test_set_path_makes_the_tables_on_the_way() -> None:
    data: dict[str, object] = {"a": {"b": 1}}
    set_path(data, "a.c.d", [1])
    set_path(data, "e", "x")
    assert data == {"a": {"b": 1, "c": {"d": [1]}}, "e": "x"}


async def test_localhost_is_loopback() -> None:
    assert await loopback_resolver("localhost") == ["127.0.0.1"]
    assert await loopback_resolver("LOCALHOST.") == ["127.0.0.1"]


def test_the_gazetteer_matches_every_word() -> None:
    assert [p.name for p in search("15 allen avenue")] == [
        "15 Allen Avenue, Ikeja, Lagos",
        "15 Allen Avenue, Bodija, Ibadan, Oyo",
    ]
    assert [p.name for p in search("Allen Avenue, Ikeja")] == ["15 Allen Avenue, Ikeja, Lagos"]
    assert search("Atlantis") == [] and search("  ,, ") == []


async def test_the_offline_geocoder_is_the_real_nominatim_client() -> None:
    geocoder = offline_geocoder()
    try:
        found = await geocoder.geocode("Ozone Cinema")
    finally:
        await geocoder.aclose()
    assert [(p.address, p.lat, p.lng) for p in found] == [
        ("Ozone Cinema, Herbert Macaulay Way, Yaba, Lagos", 6.5095, 3.376)
    ]


async def test_the_offline_geocoder_names_a_pin_after_the_known_place_near_it() -> None:
    geocoder = offline_geocoder()
    try:
        near = await geocoder.reverse(6.60052, 3.35203)  # a few metres from 15 Allen Avenue
        far = await geocoder.reverse(6.5095, 3.3711)  # about 540 m from the Ozone Cinema
    finally:
        await geocoder.aclose()
    assert near is not None and (near.address, near.lat, near.lng) == (
        "15 Allen Avenue, Ikeja, Lagos",
        6.6005,
        3.352,
    )
    assert far is None
