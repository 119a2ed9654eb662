"""Agent API figures: one conversation turn through the JSON API (real HTTP on loopback, uvicorn)
beside the same turn through ``ChatService`` directly, measured side by side in one run.

The turn: a receiver phone the flow cannot read ("12"), which it asks again; it changes nothing,
so the same turn repeats. The paths run the same engine over the same store and sandbox; the
API adds HTTP, the key check and rate limit, the answer's check against the open question, the
prompt as data and the transcript entry; ``HeadlessConversations`` alone (no HTTP) is printed
between them to show where the time goes. Turns alternate between the paths so that all see the
same machine load.

Then the summary's total check (issue 26: an agent confirms with the total the summary
showed): a confirm with a total the summary did not show, refused with the summary again,
through ``HeadlessConversations`` (the check, the capabilities from the cache, the summary
re-asked and kept), and the check alone (``summary_total`` and ``confirms_total``), beside the
re-asked turn above, which is today's cost of a turn the check does not touch.

Prints figures only. Run: ``.venv/bin/python benchmarks/bench_agents.py``.
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from bot.agents import AgentChannel
from bot.agents.agents_wiring import register_agents
from bot.agents.headless import HeadlessConversations
from bot.agents.order_total import confirms_total, summary_total
from bot.bot_core import build_core
from bot.channel_kind import ChannelKind
from bot.channels import ChannelRegistration
from bot.chat_ref import ChatRef
from bot.config import key_hash
from bot.sandbox import Sandbox, default_scenario
from bot.seams import Seams
from bot.settings import AgentsSettings, CoreSettings
from bot.store import Store
from conversations import Prompt, TextAnswer

TURNS = 300
KEY = "bench-key-0123456789abcdef0123"
TO_PHONE: list[dict[str, Any]] = [
    {"kind": "choice", "option": "pickup_delivery"},
    {"kind": "location", "lat": 6.5095, "lng": 3.3711},
    {"kind": "text", "text": "12 Herbert Macaulay Way, Yaba"},
    {"kind": "choice", "option": "saved:loc_unilag_gate"},
    {"kind": "contact", "phone": "08031234567", "first_name": "Ada", "last_name": "Obi"},
    {"kind": "text", "text": "Bola Ahmed"},
]
WRONG_PHONE = {"kind": "text", "text": "12"}
TO_SUMMARY: list[dict[str, Any]] = [
    *TO_PHONE,
    {"kind": "text", "text": "0802 222 3333"},
    {"kind": "text", "text": "A pair of shoes in a box"},
    {"kind": "choice", "option": "small"},
    {"kind": "photos", "urls": ["https://media.swift-lagos.example/parcel.jpg"]},
    {"kind": "choice", "option": "cash_on_delivery"},
]


class NoChats:
    async def send(self, chat: ChatRef, text: str) -> int | None:
        return None

    def otp_link(self, token: str) -> str:
        return f"https://t.me/bench_bot?start=otp_{token}"


def _figures(name: str, seconds: list[float]) -> float:
    median = statistics.median(seconds) * 1000
    p95 = statistics.quantiles(seconds, n=20)[18] * 1000
    print(f"  {name:<32} median {median:6.2f} ms   p95 {p95:6.2f} ms")
    return median


async def main() -> None:
    sandbox = Sandbox(default_scenario())
    with tempfile.TemporaryDirectory() as scratch:
        store = await Store.connect(Path(scratch) / "bot.sqlite3")
        settings = CoreSettings(
            partner_base_url=sandbox.base_url,
            partner_api_key=sandbox.api_key,
            agents=AgentsSettings(channels=(AgentChannel("bench", key_hash(KEY), 1_000_000),)),
        )
        seams = Seams(partner_transport=httpx.ASGITransport(app=sandbox.app))
        core = build_core(settings, store, seams)
        core.register(ChannelRegistration(ChannelKind("bench", lock_tag=9), NoChats()))
        agents = register_agents(core)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        server = uvicorn.Server(uvicorn.Config(core.web_app, log_level="warning", lifespan="off"))
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:  # uvicorn has no startup event
            if serving.done():
                await serving
            await asyncio.sleep(0.01)
        headers = {"Authorization": f"Bearer {KEY}"}
        async with httpx.AsyncClient(base_url=url, headers=headers) as api:
            started = (await api.post("/api/conversations", json={"customer": "bench"})).json()
            path = f"/api/conversations/{started['id']}/answers"
            for answer in TO_PHONE:
                assert (await api.post(path, json={"answer": answer})).status_code == 200
            # The same conversation's chat, driven directly: the same step, the same store.
            direct = await agents.conversations.start("bench", "direct")
            for answer in TO_PHONE:
                direct = await agents.conversations.answer("bench", direct.id, answer)
            chat = await store.agents.get(direct.id, "bench")
            assert chat is not None
            through_api: list[float] = []
            through_chats: list[float] = []
            through_service: list[float] = []
            wrong = TextAnswer(text="12")
            for _ in range(TURNS):
                began = time.perf_counter()
                response = await api.post(path, json={"answer": WRONG_PHONE})
                through_api.append(time.perf_counter() - began)
                assert response.status_code == 200 and response.json()["reask"]
                began = time.perf_counter()
                turn = await core.chats.handle(chat.chat, chat.user, wrong)
                through_chats.append(time.perf_counter() - began)
                assert turn.prompt is not None and turn.prompt.step == "receiver_phone"
                began = time.perf_counter()
                view = await agents.conversations.answer("bench", direct.id, WRONG_PHONE)
                through_service.append(time.perf_counter() - began)
                assert view.reask
        print(f"One re-asked turn, {TURNS} times each, alternating:")
        api_median = _figures("JSON API over loopback HTTP", through_api)
        service_median = _figures("HeadlessConversations (no HTTP)", through_service)
        chats_median = _figures("ChatService.handle", through_chats)
        print(f"  ratio (median): {api_median / chats_median:.2f}x")
        await _total_check(agents.conversations, core.chats.engine.services.catalog, service_median)
        server.should_exit = True
        await serving
        await core.aclose()
        await store.close()
    await sandbox.aclose()


async def _total_check(
    conversations: HeadlessConversations, catalog: Any, turn_median: float
) -> None:
    """The summary's total check, beside the re-asked turn (``turn_median`` ms)."""
    view = await conversations.start("bench", "summary")
    for answer in TO_SUMMARY:
        view = await conversations.answer("bench", view.id, answer)
    assert view.prompt is not None and view.prompt["input"] == "confirm"
    wrong_total = {"kind": "choice", "option": "confirm", "total": {"amount": 1, "currency": "X"}}
    shown = {"step": view.prompt["step"], "version": view.prompt["version"], "text": ""}
    prompt = Prompt.model_validate({**shown, "input": "confirm", "accepts": ["choice"]})
    refused: list[float] = []
    checked: list[float] = []
    for _ in range(TURNS):
        began = time.perf_counter()
        again = await conversations.answer("bench", view.id, wrong_total)
        refused.append(time.perf_counter() - began)
        assert again.refused is not None and again.prompt is not None
        began = time.perf_counter()
        caps, _, _ = await catalog.catalogue()
        total = summary_total(caps, view.id, prompt)
        assert not confirms_total(wrong_total, total)
        checked.append(time.perf_counter() - began)
    print(f"At the summary, {TURNS} times each (issue 26's total check):")
    refused_median = _figures("confirm refused for its total", refused)
    check_median = _figures("the total check alone", checked)
    print(
        f"  beside the re-asked turn above ({turn_median:.2f} ms): the refused confirm is "
        f"{refused_median / turn_median:.2f}x; the check adds {check_median * 1000:.0f} µs "
        "to a confirm"
    )


if __name__ == "__main__":
    asyncio.run(main())
