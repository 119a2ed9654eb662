"""What agents are told is for agents: no message or hint names the Partner API's calls or an
internal id (a delivery's long id), and what to do next is said in the door's own terms, tool
names over MCP and routes over the JSON API."""

from __future__ import annotations

import json
import re
from typing import Any

from mcp import Client

from bot.agents.mcp_tools import build_mcp_server

from .conftest import TO_SUMMARY, AgentWorld, confirm_answer

PARTNER_WORDS = ("/api/v1", "create_delivery", "idempotency", "capabilit", "serviceKind", "[[")
LONG_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-", re.IGNORECASE)
URL = re.compile(r"https?://\S+")


def texts_of(data: Any) -> list[str]:
    """Every sentence in a turn or a desk reply meant to be read (not ids, urls or schemas)."""
    if isinstance(data, dict):
        said = [data[key] for key in ("text", "hint", "refused", "title") if data.get(key)]
        said += list(data.get("messages") or [])
        prompt = data.get("prompt")
        if prompt:
            said += [prompt["question"], *prompt["hints"]]
        return said
    return []


def assert_for_agents(texts: list[str]) -> None:
    for text in texts:
        assert not any(word in text for word in PARTNER_WORDS), text
        assert not LONG_ID.search(URL.sub("", text)), text  # a tracking link may hold one
        assert "the delivery status call" not in text and "the my deliveries call" not in text


async def test_the_json_api_speaks_in_routes(world: AgentWorld) -> None:
    created = await world.order("texts-1")
    ref = created["delivery"]["ref"]
    base = "/api/customers/texts-1/deliveries"
    listed = (await world.api.get(base)).json()
    status = (await world.api.get(f"{base}/{ref}")).json()
    short = (await world.api.post(f"{base}/{ref}/cancel", json={"reason": "no"})).json()
    by_id = (await world.api.post(f"{base}/{created['delivery']['id']}/cancel", json={})).json()
    none_yet = (await world.api.get("/api/customers/nobody/deliveries")).json()
    said = [*texts_of(created), *texts_of(listed), *texts_of(status), *texts_of(short)]
    said += [*texts_of(by_id), *texts_of(none_yet)]
    assert_for_agents(said)
    assert listed["hint"] == f"Send GET {base}/{ref} (or any reference above) for details."
    assert "POST /api/conversations" in none_yet["text"]
    assert "3 to 500 characters (this one has 2)" in short["text"]
    assert "/cancel" not in short["text"] and "I ordered it twice" not in short["text"]


async def test_the_mcp_server_speaks_in_tool_names(world: AgentWorld) -> None:
    assert world.agents is not None
    server = build_mcp_server(world.agents.conversations, "shop")
    said: list[str] = []
    async with Client(server) as client:

        async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(name, arguments)
            data: dict[str, Any] = result.structured_content or {}
            said.extend([*texts_of(data), *(block.text for block in result.content)])  # type: ignore[union-attr]
            return data

        view = await call("start_order", {"customer": "texts-2"})
        for answer in TO_SUMMARY:
            view = await call("answer", {"conversation_id": view["id"], "answer": answer})
        view = await call("answer", {"conversation_id": view["id"], "answer": confirm_answer(view)})
        ref = view["delivery"]["ref"]
        listed = await call("my_deliveries", {"customer": "texts-2"})
        await call("delivery_status", {"customer": "texts-2", "delivery": "NOPE1234"})
        await call("cancel_delivery", {"customer": "texts-2", "delivery": ref, "reason": "x"})
        await call("my_deliveries", {"customer": "nobody"})
    assert_for_agents(said)
    assert listed["hint"] == (
        f"Send a delivery_status call with delivery {ref} (or any reference above) for details."
    )
    joined = json.dumps(said)
    assert "my_deliveries call lists them" in joined and "start_order call" in joined
    assert "GET /api" not in joined and "POST /api" not in joined
