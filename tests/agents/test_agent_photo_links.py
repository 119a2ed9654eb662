"""A photo an agent gives as a link on a host the business does not allow: the service refuses
the create (400 ``image_host_rejected``), and that is the customer's to fix, not the operators'.
The photo question comes back with the reason in the bot's words and the channel's way to give
photos, every other answer is kept, and no operator is alerted. Photos the bot re-hosted itself
(an upload) on a host the allowlist misses still alert the operators: that is their setting.

The JSON API is driven over ``httpx.ASGITransport`` into the bot's web app, the MCP server by
the SDK's in-memory client; the in-process sandbox does the refusing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

from bot.agents.mcp_tools import build_mcp_server
from bot.sandbox import default_scenario_data

from .conftest import (
    CONFIRM,
    JPEG,
    OPERATOR,
    PHOTO_URL,
    SHOP_KEY,
    TO_SUMMARY,
    AgentWorld,
    running_world,
)

FOREIGN_PHOTO = "https://elsewhere.example/parcel.jpg"
RAW_WORDS = ("image_host", "allowlist", "elsewhere.example", "packageImages", "[[")


def _with_photo(url: str) -> list[dict[str, Any]]:
    return [{"kind": "photos", "urls": [url]} if a["kind"] == "photos" else a for a in TO_SUMMARY]


@pytest.fixture
async def api(world: AgentWorld) -> AsyncIterator[httpx.AsyncClient]:
    assert world.core is not None
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=world.core.web_app),
        base_url="http://bot.test",
        headers={"Authorization": f"Bearer {SHOP_KEY}"},
    ) as client:
        yield client


async def _answer(api: httpx.AsyncClient, conversation: str, answer: Any) -> dict[str, Any]:
    response = await api.post(f"/api/conversations/{conversation}/answers", json={"answer": answer})
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def _operator_alerts(world: AgentWorld) -> list[str]:
    return [text for chat, text in world.channel.sent if chat == OPERATOR]


async def test_a_refused_link_asks_for_the_photos_again_over_the_json_api(
    world: AgentWorld, api: httpx.AsyncClient
) -> None:
    started = (await api.post("/api/conversations", json={"customer": "links-1"})).json()
    conversation = started["id"]
    for answer in _with_photo(FOREIGN_PHOTO):
        summary = await _answer(api, conversation, answer)
    assert summary["prompt"]["input"] == "confirm"

    refused = await _answer(api, conversation, CONFIRM)

    assert refused["status"] == "open" and refused["delivery"] is None
    assert refused["prompt"]["input"] == "photos"
    said = " ".join(refused["messages"])
    assert "could not fetch the photos from the links given" in said
    assert "/photos route" in said  # the JSON API takes the pictures themselves
    assert not any(word in said for word in RAW_WORDS), said
    assert _operator_alerts(world) == []
    # Only the photos were asked again: the next answer goes straight back to the summary,
    # which still holds every other answer.
    again = await _answer(api, conversation, {"kind": "photos", "urls": [PHOTO_URL]})
    assert again["prompt"]["input"] == "confirm"
    assert again["prompt"]["question"] == summary["prompt"]["question"]
    created = await _answer(api, conversation, CONFIRM)
    assert created["status"] == "created"
    assert world.sandbox.call_counts()["create_delivery"] == 2
    assert _operator_alerts(world) == []
    # The transcript keeps the re-ask as it was said.
    transcript = (await api.get(f"/api/conversations/{conversation}/transcript")).json()
    kept = [" ".join(entry["view"]["messages"]) for entry in transcript["entries"]]
    assert said in kept


async def test_an_uploaded_photo_replaces_a_refused_link(
    world: AgentWorld, api: httpx.AsyncClient
) -> None:
    started = (await api.post("/api/conversations", json={"customer": "links-2"})).json()
    conversation = started["id"]
    for answer in [*_with_photo(FOREIGN_PHOTO), CONFIRM]:
        refused = await _answer(api, conversation, answer)
    assert refused["prompt"]["input"] == "photos"
    uploaded = await api.post(
        f"/api/conversations/{conversation}/photos",
        content=JPEG,
        headers={"Content-Type": "image/jpeg"},
    )
    assert uploaded.status_code == 201, uploaded.text
    summary = await _answer(api, conversation, {"kind": "photos", "urls": [uploaded.json()["url"]]})
    created = await _answer(api, conversation, CONFIRM)
    assert summary["prompt"]["input"] == "confirm" and created["status"] == "created"
    assert _operator_alerts(world) == []


async def test_a_refused_link_asks_for_the_photos_again_over_mcp(world: AgentWorld) -> None:
    assert world.agents is not None
    server = build_mcp_server(world.agents.conversations, "shop")
    async with Client(server) as client:
        started = await client.call_tool("start_order", {"customer": "links-mcp"})
        assert started.structured_content is not None
        conversation = started.structured_content["id"]
        for answer in [*_with_photo(FOREIGN_PHOTO), CONFIRM]:
            result = await client.call_tool(
                "answer", {"conversation_id": conversation, "answer": answer}
            )
            assert not result.is_error, result.content

        view = result.structured_content
        assert view is not None
        assert view["status"] == "open" and view["prompt"]["input"] == "photos"
        said = " ".join(view["messages"])
        assert "could not fetch the photos from the links given" in said
        assert "website the business accepts" in said
        assert "upload" not in said  # MCP takes photos as links only
        assert not any(word in said for word in RAW_WORDS), said
        text = result.content[0]
        assert text.type == "text" and said in text.text
        assert _operator_alerts(world) == []
        again = await client.call_tool(
            "answer",
            {"conversation_id": conversation, "answer": {"kind": "photos", "urls": [PHOTO_URL]}},
        )
        assert again.structured_content is not None
        assert again.structured_content["prompt"]["input"] == "confirm"


@pytest.fixture
async def misconfigured(tmp_path: Path) -> AsyncIterator[AgentWorld]:
    """A business whose image allowlist misses the bot's own host (127.0.0.1 here)."""
    data = default_scenario_data()
    data["images"]["allowlist"] = ["media.swift-lagos.example"]
    async with running_world(tmp_path, data) as made:
        yield made


async def test_an_uploaded_photo_on_a_host_the_allowlist_misses_alerts_the_operators(
    misconfigured: AgentWorld,
) -> None:
    world = misconfigured
    started = await world.start_order("rehosted-1")
    conversation = started["id"]
    uploaded = await world.api.post(
        f"/api/conversations/{conversation}/photos",
        content=JPEG,
        headers={"Content-Type": "image/jpeg"},
    )
    assert uploaded.status_code == 201, uploaded.text
    for answer in [*_with_photo(uploaded.json()["url"]), CONFIRM]:
        response = await world.answer(conversation, answer)
        assert response.status_code == 200, response.text

    refused = response.json()
    # The bot's own setting: the customer keeps the order at the summary, the operators are told.
    assert refused["status"] == "open" and refused["prompt"]["input"] == "confirm"
    said = " ".join(refused["messages"])
    assert "business must fix" in said
    assert not any(word in said for word in RAW_WORDS), said
    (alert,) = _operator_alerts(world)
    assert "image-host allowlist" in alert
