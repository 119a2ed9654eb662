"""One business in this process, for tests that run several side by side: its own SQLite
store, its own core (``build_core``), its own in-process sandbox as the Partner API, and one
agent channel over the core's web app (``httpx.ASGITransport``), through which ``order`` runs
a whole pickup & delivery to its create.

``async with business(tmp_path / "shop.sqlite3", metrics=True) as shop:`` builds it (its
media beside the database); ``settings`` changes the ``CoreSettings`` before the core is
built (another business's ``[texts]``, say).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx

from bot.agents import AgentChannel
from bot.agents.agents_wiring import register_agents
from bot.bot_core import BotCore, build_core
from bot.config import key_hash
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from bot.settings import AgentsSettings, CoreSettings
from bot.store import Store
from tests.agents.conftest import JPEG, SHOP_KEY, TO_SUMMARY, TOTAL

# The agents' tests' key and order: the same pickup & delivery, up to the summary, then its
# confirm with the default scenario's fee.
AGENT_KEY = SHOP_KEY
CONFIRM = {"kind": "choice", "option": "confirm", "total": TOTAL}


@dataclasses.dataclass(frozen=True)
class Business:
    """A business's core over its own store, and its agent channel's HTTP client."""

    core: BotCore
    api: httpx.AsyncClient

    async def order(self, customer: str) -> dict[str, Any]:
        """A whole order of ``customer``'s, to its create; the created turn's view."""
        started = await self.api.post("/api/conversations", json={"customer": customer})
        assert started.status_code == 201, started.text
        for answer in (*TO_SUMMARY, CONFIRM):
            answered = await self.api.post(
                f"/api/conversations/{started.json()['id']}/answers", json={"answer": answer}
            )
            assert answered.status_code == 200, (answer, answered.text)
        view: dict[str, Any] = answered.json()
        return view


async def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


async def _public(host: str) -> list[str]:
    return ["93.184.216.34"]


@contextlib.asynccontextmanager
async def business(
    database: Path,
    *,
    metrics: bool,
    settings: Callable[[CoreSettings], CoreSettings] | None = None,
) -> AsyncIterator[Business]:
    """A business over the SQLite file ``database``, ``[metrics] enabled`` or not."""
    sandbox = Sandbox(
        parse_scenario(default_scenario_data()),
        image_transport=httpx.MockTransport(_photo),
        resolver=_public,
    )
    chosen = CoreSettings(
        partner_base_url=sandbox.base_url,
        partner_api_key=sandbox.api_key,
        agents=AgentsSettings(channels=(AgentChannel("shop", key_hash(AGENT_KEY), 10_000),)),
        metrics=metrics,
    )
    if settings is not None:
        chosen = settings(chosen)
    seams = Seams(partner_transport=httpx.ASGITransport(app=sandbox.app))
    async with (
        Store.open(database, synchronous="NORMAL") as store,
        contextlib.AsyncExitStack() as exits,
    ):
        core = build_core(chosen, store, seams)
        exits.push_async_callback(sandbox.aclose)
        exits.push_async_callback(core.aclose)
        register_agents(core)
        api = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=core.web_app),
            base_url="http://bot",
            headers={"Authorization": f"Bearer {AGENT_KEY}"},
        )
        exits.push_async_callback(api.aclose)
        yield Business(core, api)
