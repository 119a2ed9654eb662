"""Two instances on one PostgreSQL database answering one agent conversation at the same moment.

Each instance is what ``build_core`` makes of its own ``Store.connect_postgres``, with the JSON
API reached over ``httpx.ASGITransport``; both share the database and one sandbox. An agent's
answer posted to instance A and another posted to instance B at once must run one after the
other (B's waits in the database for the chat's lock that A holds), and B's answer is checked
against the question A's turn left open, as if they had come one after the other.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.agents import AgentChannel
from bot.agents.agents_wiring import register_agents
from bot.bot_core import BotCore, build_core
from bot.channels import ChannelRegistration
from bot.config import key_hash
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.sandbox import Sandbox, default_scenario
from bot.seams import Seams
from bot.settings import AgentsSettings, CoreSettings
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from bot.telegram.telegram_kind import TELEGRAM_KIND
from conversations import Session, Turn
from conversations.dialog import Answer
from conversations.texts.catalogue import Catalogue
from tests.agents.conftest import SHOP_KEY, TO_SUMMARY, RecordingChannel

Node = tuple[Store, BotCore, httpx.AsyncClient]


@pytest.fixture
async def nodes(postgres_server: LocalPostgres, tmp_path: Path) -> AsyncIterator[list[Node]]:
    dsn = await postgres_server.create_database("agents_across_instances")
    sandbox = Sandbox(default_scenario())
    settings = CoreSettings(
        partner_base_url=sandbox.base_url,
        partner_api_key=sandbox.api_key,
        agents=AgentsSettings(channels=(AgentChannel("shop", key_hash(SHOP_KEY), 10_000),)),
    )
    made: list[Node] = []
    try:
        for _ in range(2):
            store = await Store.connect_postgres(
                dsn, media_dir=tmp_path / "media", channels=SHIPPED_CHANNEL_KINDS
            )
            core = build_core(
                settings, store, Seams(partner_transport=httpx.ASGITransport(app=sandbox.app))
            )
            core.register(ChannelRegistration(TELEGRAM_KIND, RecordingChannel()))
            register_agents(core)
            api = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=core.web_app),
                base_url="http://bot.test",
                headers={"Authorization": f"Bearer {SHOP_KEY}"},
            )
            made.append((store, core, api))
        yield made
    finally:
        for store, core, api in made:
            await api.aclose()
            await core.aclose()
            await store.close()
        await sandbox.aclose()


async def waiting_advisory_locks(store: Store) -> int:
    row = await store._db.fetch_one(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    )
    assert row is not None
    return int(row[0])


async def test_two_instances_answering_one_conversation_at_once_run_one_after_the_other(
    nodes: list[Node],
) -> None:
    (store_a, core_a, api_a), (_, core_b, api_b) = nodes
    started = await api_a.post("/api/conversations", json={"customer": "cust-1"})
    assert started.status_code == 201, started.text
    answers_url = f"/api/conversations/{started.json()['id']}/answers"
    order: list[str] = []
    a_runs = asyncio.Event()

    def observed(core: BotCore, name: str) -> None:
        handle = core.chats.engine.handle

        async def observing(
            catalogue: Catalogue, session: Session, answer: Answer, **kwargs: Any
        ) -> Turn:
            order.append(f"{name} begins")
            if name == "a":
                a_runs.set()
                # No event crosses the database: watch it until B's request for the chat
                # queues behind the lock A holds (it never does if B is not held back).
                for _ in range(500):
                    if await waiting_advisory_locks(store_a):
                        break
                    await asyncio.sleep(0.01)
                order.append(f"b waits: {await waiting_advisory_locks(store_a)}")
            turn = await handle(catalogue, session, answer, **kwargs)
            order.append(f"{name} ends")
            return turn

        core.chats.engine.handle = observing  # type: ignore[method-assign]

    observed(core_a, "a")
    observed(core_b, "b")
    # The flow's first question on A; the second question's answer on B at the same moment.
    first = asyncio.create_task(api_a.post(answers_url, json={"answer": TO_SUMMARY[0]}))
    # A's turn running, or A's request over without it (its turn failed before it ran): then
    # the test fails on A's answer rather than waiting for a turn that never comes.
    a_running = asyncio.create_task(a_runs.wait())
    await asyncio.wait({first, a_running}, return_when=asyncio.FIRST_COMPLETED)
    if not a_running.done():
        a_running.cancel()
        response = await first
        raise AssertionError(f"A answered without running its turn: {response.text}")
    second = await api_b.post(answers_url, json={"answer": TO_SUMMARY[1]})
    assert (await first).status_code == 200
    assert second.status_code == 200
    assert order == ["a begins", "b waits: 1", "a ends", "b begins", "b ends"]
    # B's answer met the question A's turn opened, and was taken: both answers are kept.
    assert second.json()["refused"] is None
    transcript = await api_b.get(f"/api/conversations/{started.json()['id']}/transcript")
    kept = [entry["answer"] for entry in transcript.json()["entries"][1:]]
    assert [(answer["kind"], answer.get("option")) for answer in kept] == [
        ("choice", "pickup_delivery"),
        ("location", None),
    ]
