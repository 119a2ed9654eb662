"""An agent's confirm carries the total the summary showed: amount and currency, or the
summary's quote_token when the fee is set later. Without it, with another, or after the fee
changed, the confirm is refused with the summary as it is now and nothing is sent. Cancelling a
delivery names it by the short reference the customer was shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client

from bot.agents.mcp_tools import build_mcp_server
from bot.partner.models import Capabilities
from bot.sandbox import default_scenario_data
from conversations.texts import agent_texts

from .conftest import CONFIRM, TO_SUMMARY, AgentWorld, confirm_answer, running_world


async def to_summary(world: AgentWorld, customer: str) -> dict[str, Any]:
    view = await world.start_order(customer)
    for answer in TO_SUMMARY:
        response = await world.answer(view["id"], answer)
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["prompt"]["input"] == "confirm"
    return view


def creates(world: AgentWorld) -> int:
    return world.sandbox.call_counts().get("create_delivery", 0)


async def test_the_summary_shows_its_total_and_its_schema_asks_for_it(world: AgentWorld) -> None:
    summary = await to_summary(world, "total-1")
    prompt = summary["prompt"]
    assert prompt["total"] == {"amount": 1500, "currency": "NGN", "quote_token": None}
    assert agent_texts.HINT_TOTAL in prompt["hints"]
    validator = jsonschema.Draft202012Validator(prompt["answer_schema"])
    assert validator.is_valid(CONFIRM)
    assert not validator.is_valid({"kind": "choice", "option": "confirm"})
    group = next(o["id"] for o in prompt["options"] if o["id"].startswith("change:"))
    assert validator.is_valid({"kind": "choice", "option": group})
    assert validator.is_valid({"kind": "choice", "option": "edit:receiver_phone"})


@pytest.mark.parametrize(
    "total",
    [
        None,
        {},
        {"amount": 1000, "currency": "NGN"},
        {"amount": 1500, "currency": "USD"},
        {"amount": "1500", "currency": "NGN"},
        {"quote_token": "q_invented"},
        "NGN 1,500",
    ],
)
async def test_a_confirm_without_the_total_shown_is_refused_with_the_summary(
    world: AgentWorld, total: object
) -> None:
    summary = await to_summary(world, "total-2")
    confirm = {"kind": "choice", "option": "confirm"}
    if total is not None:
        confirm["total"] = total  # type: ignore[assignment]

    refused = await world.answer(summary["id"], confirm)

    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["refused"] == agent_texts.TOTAL_NOT_SHOWN
    assert body["prompt"]["input"] == "confirm" and body["prompt"]["total"]["amount"] == 1500
    assert creates(world) == 0
    created = (await world.answer(summary["id"], confirm_answer(body))).json()
    assert created["status"] == "created"


async def test_the_summary_shown_again_is_in_the_conversations_language(
    world: AgentWorld,
) -> None:
    started = await world.api.post(
        "/api/conversations", json={"customer": "total-fr", "language": "fr"}
    )
    view = started.json()
    for answer in TO_SUMMARY:
        view = (await world.answer(view["id"], answer)).json()
    assert view["prompt"]["input"] == "confirm"

    refused = await world.answer(view["id"], {"kind": "choice", "option": "confirm"})

    assert refused.status_code == 422
    assert refused.json()["prompt"]["question"] == view["prompt"]["question"]  # French again


async def test_a_fee_changed_since_the_summary_is_refused_with_the_new_total(
    world: AgentWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = await to_summary(world, "total-3")
    assert world.core is not None
    cache = world.core.cache
    caps: Capabilities = await cache.get()
    pricing = caps.publicRequest.model_copy(update={"pricingAmountNgn": 2500})
    refreshed = caps.model_copy(update={"publicRequest": pricing})

    async def get() -> Capabilities:
        return refreshed

    monkeypatch.setattr(cache, "get", get)  # the capabilities were refreshed meanwhile
    refused = await world.answer(summary["id"], confirm_answer(summary))

    assert refused.status_code == 422
    again = refused.json()
    assert again["refused"] == agent_texts.TOTAL_NOT_SHOWN
    assert again["prompt"]["total"]["amount"] == 2500
    assert "2,500" in again["prompt"]["question"]  # the summary as it reads now
    assert creates(world) == 0
    created = (await world.answer(summary["id"], confirm_answer(again))).json()
    assert created["status"] == "created"


async def test_a_fee_set_later_is_confirmed_with_the_summarys_quote_token(tmp_path: Path) -> None:
    data = default_scenario_data()
    data["capabilities"]["publicRequest"]["pricingMode"] = "quote_on_review"  # fee set later
    async with running_world(tmp_path, data) as world:
        await _confirm_with_quote_tokens(world)


async def _confirm_with_quote_tokens(world: AgentWorld) -> None:
    first = await to_summary(world, "quote-1")
    second = await to_summary(world, "quote-2")
    total = first["prompt"]["total"]
    assert total["amount"] is None and total["quote_token"].startswith("q_")
    assert second["prompt"]["total"]["quote_token"] != total["quote_token"]

    with_amount = {**CONFIRM, "total": {"amount": 0, "currency": "NGN"}}
    for wrong in (with_amount, confirm_answer(second)):
        refused = await world.answer(first["id"], wrong)
        assert refused.status_code == 422 and refused.json()["refused"], refused.text
    assert creates(world) == 0

    created = (await world.answer(first["id"], confirm_answer(first))).json()
    assert created["status"] == "created"


async def test_over_mcp_the_confirm_needs_the_total_too(world: AgentWorld) -> None:
    summary = await to_summary(world, "total-4")
    assert world.agents is not None
    server = build_mcp_server(world.agents.conversations, "shop")
    async with Client(server) as client:
        bare = {"kind": "choice", "option": "confirm"}
        refused = await client.call_tool(
            "answer", {"conversation_id": summary["id"], "answer": bare}
        )
        assert refused.is_error and refused.structured_content is not None
        assert refused.structured_content["prompt"]["total"]["amount"] == 1500
        created = await client.call_tool(
            "answer", {"conversation_id": summary["id"], "answer": confirm_answer(summary)}
        )
    assert created.structured_content is not None
    assert created.structured_content["status"] == "created"


async def test_a_delivery_is_cancelled_by_the_reference_the_customer_saw(
    world: AgentWorld,
) -> None:
    created = await world.order("cancel-1")
    delivery = created["delivery"]
    path = "/api/customers/cancel-1/deliveries/{}/cancel"
    reason = {"reason": "Ordered by mistake"}

    by_id = await world.api.post(path.format(delivery["id"]), json=reason)
    assert by_id.status_code == 422
    assert by_id.json()["text"] == agent_texts.CANCEL_BY_REFERENCE
    no_reason = await world.api.post(path.format(delivery["ref"]), json={"reason": ""})
    assert no_reason.status_code == 422
    assert world.sandbox.delivery(delivery["id"])["status"] != "cancelled"

    cancelled = await world.api.post(path.format(delivery["ref"]), json=reason)
    assert cancelled.status_code == 200 and cancelled.json()["outcome"] == "cancelled"
