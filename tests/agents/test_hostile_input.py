"""Hostile input at both agent doors gets an answer, never a traceback (issue #23, point 4).

One table of answers, each sent at the question it aims at, through the JSON API (real HTTP on
loopback) and through the MCP server (the SDK's in-memory client): an answer outside the open
question's published ``answer_schema`` is refused with the reason and the same question, and
nothing changes; text no store can keep (a lone surrogate), an integer beyond 64 bits and NaN
are refused at the door. Then what only one door has: bodies over 64 KiB, nesting, unknown
resources, unbounded tool arguments, and MCP over streamable HTTP. Every case also asserts that
the log holds no ERROR and no traceback. Last, what the transcript keeps of refused answers.
"""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import dataclass
from typing import Any

import httpx
import httpx2
import jsonschema
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from bot.agents import AgentChannel, transcript_bounds
from bot.agents.answer_schema import photo_url_pattern
from bot.agents.mcp_command import mcp_http_app
from bot.agents.mcp_tools import build_mcp_server
from bot.agents.photo_uploads import PhotoUploads
from bot.agents.prompt_data import Refusal, answer_schema, check_answer
from bot.config import key_hash
from bot.partner.models import is_image_url
from bot.web import media_url
from conversations import Prompt

from .conftest import JPEG, SHOP_KEY, TO_SUMMARY, AgentWorld, LoopbackServer

BEFORE_LOCATION = 1  # answers of TO_SUMMARY before the question each case aims at
BEFORE_NAME = 4  # the sender's name: text or a contact
BEFORE_PHOTOS = 9
SURROGATE = "\ud83d"  # half of an emoji


@dataclass(frozen=True)
class Case:
    """An answer sent at the question after ``before`` answers, and why it must be refused."""

    name: str
    before: int
    answer: Any
    api_status: int  # 422 either way: the refused view (same question) or "unprocessable"
    says: str  # in the reason given, at both doors
    mcp_says: str | None = None  # when MCP's reason differs (its SDK parses JSON differently)


CASES = [
    Case("lone surrogate", 0, {"kind": "choice", "option": SURROGATE}, 422, "valid Unicode"),
    Case("surrogate as a key", BEFORE_NAME, {"kind": "text", SURROGATE: "x"}, 422, "Unicode"),
    Case(
        "integer beyond 64 bits",
        0,
        {"kind": "choice", "option": "pickup_delivery", "version": 2**70},
        422,
        "64 bits",
        "earlier question",  # a version no question has
    ),
    Case(
        "NaN latitude",
        BEFORE_LOCATION,
        {"kind": "location", "lat": math.nan, "lng": 3.3},
        422,
        "finite",
        "lat must be of type number",  # the in-memory transport sends NaN as null
    ),
    Case("text of the wrong type", BEFORE_NAME, {"kind": "text", "text": 5}, 422, "type string"),
    Case(
        "latitude off the globe",
        BEFORE_LOCATION,
        {"kind": "location", "lat": 91, "lng": 3.3},
        422,
        "lat must be at most 90",
    ),
    Case(
        "a 40 KB phone number at a name question",
        BEFORE_NAME,
        {"kind": "contact", "phone": "1" * 40_000, "first_name": "Ada"},
        422,
        "phone must be at most 40 characters",
    ),
    Case(
        "a 10 KB text",
        BEFORE_NAME,
        {"kind": "text", "text": "x" * 10_000},
        422,
        "at most 4096 characters",
    ),
    Case(
        "a javascript: photo link",
        BEFORE_PHOTOS,
        {"kind": "photos", "urls": ["javascript:alert(1)"]},
        422,
        "https link",
    ),
    Case(
        "a property the schema lacks",
        BEFORE_NAME,
        {"kind": "text", "text": "Ada", "x": 1},
        422,
        "may only have",
    ),
    Case(
        "a user id in a contact",
        BEFORE_NAME,
        {"kind": "contact", "phone": "08031234567", "user_id": 2**40},
        422,
        "may only have",
    ),
]
# The SDK's client cannot even send a surrogate as a key; over the wire the server answers any
# lone surrogate with JSON-RPC's parse error (the streamable HTTP test below).
MCP_CASES = [case for case in CASES if case.name != "surrogate as a key"]
UNPROCESSABLE = {"lone surrogate", "surrogate as a key", "integer beyond 64 bits", "NaN latitude"}


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [(r.name, r.getMessage()) for r in bad]


def as_json_text(value: Any) -> bytes:
    """``value`` as JSON, lone surrogates escaped and NaN written as Python writes it."""
    return json.dumps(value, ensure_ascii=True).encode()


async def walk(world: AgentWorld, answers: list[dict[str, Any]]) -> dict[str, Any]:
    view = await world.start_order()
    for answer in answers:
        response = await world.answer(view["id"], answer)
        assert response.status_code == 200, response.text
        view = response.json()
    return view


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_the_json_api_refuses_it_and_nothing_changes(
    world: AgentWorld, case: Case, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    before = await walk(world, TO_SUMMARY[: case.before])
    conversation = f"/api/conversations/{before['id']}"
    assert world.store is not None
    stored = await world.store.agents.get(before["id"], "shop")
    assert stored is not None
    entries = len(await world.store.agents.transcript(stored))

    response = await world.api.post(
        conversation + "/answers",
        content=as_json_text({"answer": case.answer}),
        headers={"Content-Type": "application/json"},
    )

    assert response.status_code == case.api_status, response.text
    said = response.json()
    if case.name in UNPROCESSABLE:
        assert said["error"] == "unprocessable"
        assert case.says in said["message"]
        assert len(await world.store.agents.transcript(stored)) == entries  # nothing kept
    else:
        assert case.says in said["refused"]
        assert said["prompt"] == before["prompt"]
    now = (await world.api.get(conversation)).json()
    assert now["prompt"] == before["prompt"]
    if case.name not in UNPROCESSABLE:
        # The refused answer is out of the very schema the question published.
        schema = before["prompt"]["answer_schema"]
        assert not jsonschema.Draft202012Validator(schema).is_valid(case.answer)
    no_traceback(caplog)


@pytest.mark.parametrize("case", MCP_CASES, ids=[case.name for case in MCP_CASES])
async def test_mcp_refuses_it_with_the_same_question(
    world: AgentWorld, case: Case, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    before = await walk(world, TO_SUMMARY[: case.before])
    assert world.agents is not None
    async with Client(build_mcp_server(world.agents.conversations, "shop")) as client:
        result = await client.call_tool(
            "answer", {"conversation_id": before["id"], "answer": case.answer}
        )
    assert result.is_error
    refused = result.structured_content
    assert refused is not None
    assert (case.mcp_says or case.says) in refused["refused"]
    assert refused["prompt"]["question"] == before["prompt"]["question"]
    assert refused["prompt"]["answer_schema"] == before["prompt"]["answer_schema"]
    now = (await world.api.get(f"/api/conversations/{before['id']}")).json()
    assert now["prompt"] == before["prompt"]
    no_traceback(caplog)


# --- what only the JSON API has ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "path", "body", "status", "code"),
    [
        ("surrogate customer", "/api/conversations", b'{"customer": "\\ud83d"}', 422,
         "unprocessable"),
        ("Infinity", "/api/conversations", b'{"customer": "c", "x": Infinity}', 422,
         "unprocessable"),
        ("1e400", "/api/conversations", b'{"customer": "c", "x": 1e400}', 422, "unprocessable"),
        ("nested 30000 deep", "/api/conversations", b'{"a":' + b"[" * 30_000 + b"]" * 30_000
         + b"}", 400, "bad_request"),
        ("100 KB text", "{conversation}/answers",
         json.dumps({"answer": {"kind": "text", "text": "x" * 100_000}}).encode(), 413,
         "too_large"),
        ("surrogate edit step", "{conversation}/edit", b'{"step": "\\udc00"}', 422,
         "unprocessable"),
        ("surrogate cancel reason", "/api/customers/c/deliveries/x/cancel",
         b'{"reason": "\\ud83d\\ud83d\\ud83d"}', 422, "unprocessable"),
    ],
)  # fmt: skip
async def test_the_json_api_refuses_unkeepable_bodies(
    world: AgentWorld,
    caplog: pytest.LogCaptureFixture,
    name: str,
    path: str,
    body: bytes,
    status: int,
    code: str,
) -> None:
    caplog.set_level(logging.INFO)
    started = await world.start_order()
    url = path.format(conversation=f"/api/conversations/{started['id']}")
    response = await world.api.post(url, content=body)
    assert response.status_code == status, response.text
    assert response.json()["error"] == code
    no_traceback(caplog)


# --- what only the MCP server has --------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("my_deliveries", {"customer": "c", "page": 2**70}, "less than or equal"),
        ("delivery_events", {"conversation_id": "conv_x", "after": 2**70}, "less than or equal"),
        ("start_order", {"customer": SURROGATE}, "string_unicode"),
        ("start_order", {"customer": "c" * 201}, "at most 200"),
        ("cancel_delivery", {"customer": "c", "delivery": "x", "reason": SURROGATE * 3},
         "string_unicode"),
        ("answer", {"conversation_id": "c", "answer": {"kind": "text", "text": "x" * 100_000}},
         "over 65536 bytes"),
        ("delivery_events", {"conversation_id": "conv_" + SURROGATE}, "string_unicode"),
    ],
)  # fmt: skip
async def test_mcp_tool_arguments_are_typed_and_bounded(
    world: AgentWorld,
    caplog: pytest.LogCaptureFixture,
    tool: str,
    arguments: dict[str, Any],
    says: str,
) -> None:
    caplog.set_level(logging.INFO)
    assert world.agents is not None
    async with Client(build_mcp_server(world.agents.conversations, "shop")) as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert says in result.content[0].text  # type: ignore[union-attr]
    no_traceback(caplog)


async def test_an_unknown_or_another_channels_events_resource_is_not_found(
    world: AgentWorld, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    theirs = await world.start_order("cust-shop")
    assert world.agents is not None
    async with Client(build_mcp_server(world.agents.conversations, "other")) as client:
        for conversation in ("conv_nope", theirs["id"]):
            with pytest.raises(MCPError) as raised:
                await client.read_resource(f"deliverybot://conversations/{conversation}/events")
            assert raised.value.error.code == -32602  # the SDK's resource-not-found
            assert raised.value.error.message == "no such conversation"
    no_traceback(caplog)


async def test_over_streamable_http_bodies_are_capped_and_surrogates_refused(
    world: AgentWorld, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    assert world.agents is not None
    server = build_mcp_server(world.agents.conversations, "shop")
    app = mcp_http_app(server, AgentChannel("shop", key_hash(SHOP_KEY), 60), "127.0.0.1")
    http = LoopbackServer(app, lifespan="on")
    await http.start()
    url = http.url + "/mcp"
    keyed = {"Authorization": f"Bearer {SHOP_KEY}"}
    try:
        async with (
            httpx2.AsyncClient(headers=keyed) as sdk_http,
            Client(streamable_http_client(url, http_client=sdk_http)) as client,
        ):
            started = (await client.call_tool("start_order", {"customer": "h"})).structured_content
            assert started is not None
            wrong_type = {"kind": "choice", "option": "pickup_delivery", "step": 5}
            refused = await client.call_tool(
                "answer", {"conversation_id": started["id"], "answer": wrong_type}
            )
            assert refused.is_error and refused.structured_content is not None
            assert refused.structured_content["prompt"] == started["prompt"]
        headers = {
            **keyed,
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        async with httpx.AsyncClient(headers=headers) as raw:
            session = await mcp_session(raw, url)
            big = tool_call("start_order", '{"customer": "%s"}' % ("x" * 70_000))
            assert (await raw.post(url, content=big, headers=session)).status_code == 413
            surrogate = tool_call("start_order", '{"customer": "\\ud83d"}')
            parse_error = await raw.post(url, content=surrogate, headers=session)
            assert parse_error.status_code == 400
            assert parse_error.json()["error"]["code"] == -32700  # JSON-RPC's parse error
    finally:
        await http.stop()
    no_traceback(caplog)


def tool_call(tool: str, arguments: str) -> bytes:
    params = f'{{"name": "{tool}", "arguments": {arguments}}}'
    return f'{{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {params}}}'.encode()


async def mcp_session(raw: httpx.AsyncClient, url: str) -> dict[str, str]:
    """An initialized session by hand (the SDK's client cannot send what these tests send)."""
    version = "2025-06-18"
    hello = {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    opened = await raw.post(
        url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}
    )
    assert opened.status_code == 200
    session = {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": version}
    ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await raw.post(url, json=ready, headers=session)).status_code == 202
    return session


# --- the published schema is what the bot takes -------------------------------------------------


def photo_prompt() -> Prompt:
    return Prompt(step="package_photos", version=1, text="Photos?", input="photos",
                  accepts=("photos",))  # fmt: skip


@pytest.mark.parametrize(
    "base", ["http://127.0.0.1:8080", "http://localhost:9", "http://[::1]:80", "https://bot.example",
             "https://bot.example:8443/prefix"],
)  # fmt: skip
async def test_the_bots_own_upload_url_fits_the_schema_it_publishes(
    world: AgentWorld, base: str
) -> None:
    assert world.store is not None
    conversation = await world.store.agents.open("shop", "uploads", None)
    uploaded = await PhotoUploads(world.store, base, 60).put(conversation, JPEG)
    answer = {"kind": "photos", "urls": [uploaded.url]}
    jsonschema.validate(answer, answer_schema(photo_prompt()))
    assert is_image_url(uploaded.url)


async def test_an_upload_under_a_loopback_config_is_answered_and_taken(world: AgentWorld) -> None:
    before = await walk(world, TO_SUMMARY[:BEFORE_PHOTOS])
    conversation = f"/api/conversations/{before['id']}"
    uploaded = await world.api.post(conversation + "/photos", content=JPEG)
    url = uploaded.json()["url"]
    assert url.startswith("http://127.0.0.1:")  # the loopback exception, as configured
    answer = {"kind": "photos", "urls": [url]}
    jsonschema.validate(answer, before["prompt"]["answer_schema"])
    response = await world.answer(before["id"], answer)
    assert response.status_code == 200, response.text
    assert response.json()["refused"] is None


@pytest.mark.parametrize(
    "url",
    [
        "https://a.example/p.jpg", "https://a.example", "https://a.example:8443/x?y=1#z",
        "https://[2001:db8::1]/p.jpg", "http://127.0.0.1:1/media/t", "http://localhost/x",
        "http://[::1]:8080/media/t", media_url("https://bot.example/base", "tok-_1"),
        "http://a.example/p.jpg", "http://127.0.0.2/x", "javascript:alert(1)", "ftp://a/b",
        "https://", "https:///p", "https://user@a.example/p", "http://localhost.evil/x",
        "https://[x/p", " https://a.example/p", "https://a b/p", "data:image/png;base64,AA",
    ],
)  # fmt: skip
def test_the_photo_link_pattern_takes_only_what_the_bot_takes(url: str) -> None:
    if re.search(photo_url_pattern(), url):
        assert is_image_url(url)


# --- what the transcript keeps ------------------------------------------------------------------


async def test_a_refused_answer_is_kept_truncated(world: AgentWorld) -> None:
    before = await walk(world, TO_SUMMARY[:BEFORE_NAME])
    huge = {"kind": "text", "text": "x" * 10_000}
    assert (await world.answer(before["id"], huge)).status_code == 422
    entries = (await world.api.get(f"/api/conversations/{before['id']}/transcript")).json()
    kept = entries["entries"][-1]["answer"]
    assert kept["length"] == len(json.dumps(huge))
    assert kept["truncated"] == json.dumps(huge)[: transcript_bounds.REFUSED_ANSWER_CHARS]


async def test_the_transcript_drops_its_oldest_refused_entries_first(
    world: AgentWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    cap = 40_000
    monkeypatch.setattr(transcript_bounds, "TRANSCRIPT_CHARS", cap)
    before = await walk(world, TO_SUMMARY[:BEFORE_NAME])
    for attempt in range(30):
        wrong = {"kind": "choice", "option": f"invented-{attempt}"}
        assert (await world.answer(before["id"], wrong)).status_code == 422
    taken = await world.answer(before["id"], TO_SUMMARY[BEFORE_NAME])
    assert taken.status_code == 200
    last = await world.answer(before["id"], {"kind": "choice", "option": "last"})
    assert last.status_code == 422
    assert world.store is not None
    stored = await world.store.agents.get(before["id"], "shop")
    assert stored is not None
    entries = [json.loads(text) for text in await world.store.agents.transcript(stored)]
    assert sum(len(text) for text in await world.store.agents.transcript(stored)) <= cap
    answers = [entry["answer"] for entry in entries]
    # Every answer taken is kept, and the refused ones kept are the newest.
    taken_kinds = [answer["kind"] for answer in TO_SUMMARY[: BEFORE_NAME + 1]]
    assert answers[0] is None  # the first turn
    refused = [a["option"] for a in answers if a and str(a.get("option")).startswith("invented")]
    assert 0 < len(refused) < 30
    assert refused == [f"invented-{n}" for n in range(30 - len(refused), 30)]
    kept_kinds = [
        a["kind"] for a, e in zip(answers, entries, strict=True) if a and not e["view"]["refused"]
    ]
    assert kept_kinds == taken_kinds
    assert answers[-1]["option"] == "last"


def test_non_finite_numbers_and_surrogates_are_refused_and_kept_escaped() -> None:
    # Over stdio or HTTP the SDK parses NaN into a float (the in-memory client sends null).
    prompt = Prompt(step="pickup", version=1, text="Where?", input="place",
                    accepts=("text", "location"))  # fmt: skip
    for answer in (
        {"kind": "location", "lat": math.nan, "lng": 3.3},
        {"kind": "location", "lat": 6.5, "lng": -math.inf},
    ):
        refused = check_answer(prompt, answer)
        assert isinstance(refused, Refusal) and "finite" in refused.reason
        kept = transcript_bounds.kept_answer(answer)
        assert isinstance(kept, dict) and "truncated" in kept
    surrogate = {"kind": "text", "text": "a" + SURROGATE}
    refused = check_answer(prompt, surrogate)
    assert isinstance(refused, Refusal) and "valid Unicode" in refused.reason
    assert transcript_bounds.kept_answer(surrogate) == {
        "truncated": '{"kind": "text", "text": "a\\ud83d"}',
        "length": len(json.dumps(surrogate, ensure_ascii=False)),
    }
