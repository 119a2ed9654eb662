"""The bot with two agent channels against the in-process sandbox, its web app served over real
HTTP on loopback (uvicorn), and the first channel's webhook receiver recording what it gets.

``AgentWorld.restart`` replaces the whole bot side over the same SQLite file (a redeploy); the
sandbox keeps running. Nothing moves by itself: ``settle`` drains the sandbox's webhooks into
the bot, runs the relay and posts the due agent webhooks.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.agents import AgentChannel, ChannelHook
from bot.agents.agents_wiring import AgentChannels, register_agents
from bot.bot_core import BotCore, build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef
from bot.clocks import Clock, system_clock
from bot.config import key_hash
from bot.config.limits_section import LimitsConfig
from bot.demo.transports import AppSwitch
from bot.partner.signing import verify
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from bot.settings import AgentsSettings, CoreSettings
from bot.store import Store
from bot.telegram.telegram_kind import TELEGRAM_KIND
from tests.support.served import loopback_socket, serve_on, stop_serving

SHOP_KEY = "shop-key-0123456789abcdef0123"
OTHER_KEY = "other-key-0123456789abcdef012"
TINY_KEY = "tiny-key-0123456789abcdef01234"  # a channel allowed 2 requests a minute
HOOK_SECRET = "hook-secret-0123456789abcdef01"
HOOK_URL = "https://agents.shop.example/events"
OPERATOR = 9001
JPEG = b"\xff\xd8\xff\xe0" + b"agent-test-photo" * 4
PHOTO_URL = "https://media.swift-lagos.example/parcel.jpg"

# A pickup & delivery on the default scenario, as an agent answers it, up to the summary.
TO_SUMMARY: list[dict[str, Any]] = [
    {"kind": "choice", "option": "pickup_delivery"},
    {"kind": "location", "lat": 6.5095, "lng": 3.3711},
    {"kind": "text", "text": "12 Herbert Macaulay Way, Yaba"},
    {"kind": "choice", "option": "saved:loc_unilag_gate"},
    {"kind": "contact", "phone": "08031234567", "first_name": "Ada", "last_name": "Obi"},
    {"kind": "text", "text": "Bola Ahmed"},
    {"kind": "text", "text": "0802 222 3333"},
    {"kind": "text", "text": "A pair of shoes in a box"},
    {"kind": "choice", "option": "small"},
    {"kind": "photos", "urls": [PHOTO_URL]},
    # Cash in person is pre-set (beside online checkout): the summary shows it.
]
# The default scenario's fee, "from NGN 1,500": the total the summary shows and the confirm carries.
TOTAL = {"amount": 1500, "currency": "NGN"}
CONFIRM = {"kind": "choice", "option": "confirm", "total": TOTAL}


def confirm_answer(summary: dict[str, Any]) -> dict[str, Any]:
    """The confirm of the summary ``summary`` (a turn's view) shows, with its total."""
    prompt = summary["prompt"]
    assert prompt["input"] == "confirm", prompt
    total = prompt["total"]
    if total["quote_token"] is not None:
        return {
            "kind": "choice",
            "option": "confirm",
            "total": {"quote_token": total["quote_token"]},
        }
    return {
        "kind": "choice",
        "option": "confirm",
        "total": {"amount": total["amount"], "currency": total["currency"]},
    }


class RecordingChannel:
    """The chat channel: records what operators (and any chat) are sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []

    async def send(self, chat: ChatRef, text: str) -> int:
        chat_id = chat.id
        self.sent.append((chat_id, text))
        return len(self.sent)

    def otp_link(self, token: str) -> str:
        return f"https://t.me/shop_bot?start=otp_{token}"


class HookReceiver:
    """The channel's own webhook endpoint: verifies each signature and records the bodies."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.fail_next = 0
        self.app = Starlette(routes=[Route("/events", self._receive, methods=["POST"])])

    async def _receive(self, request: Request) -> Response:
        raw = await request.body()
        verify(raw, request.headers.get("deliverybot-signature"), HOOK_SECRET)
        if self.fail_next:
            self.fail_next -= 1
            return Response(status_code=503)
        self.bodies.append(raw)
        return Response(status_code=204)


class LoopbackServer:
    """An ASGI app served by uvicorn on 127.0.0.1 and a free port."""

    def __init__(self, app: Any, *, lifespan: str = "off") -> None:
        self._socket = loopback_socket()
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        self._app = app
        self._lifespan = lifespan
        self._server: uvicorn.Server | None = None

    async def start(self) -> None:
        self._server = await serve_on(
            self._socket, self._app, log_level="warning", lifespan=self._lifespan
        )

    async def stop(self) -> None:
        if self._server is None:
            self._socket.close()
            return
        await stop_serving(self._server, self._socket)


def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


async def _public_resolver(host: str) -> list[str]:
    return ["93.184.216.34"]


class AgentWorld:
    """The sandbox, the bot (core + agents) on loopback, and HTTP clients for both channels."""

    def __init__(self, tmp_path: Path, scenario_data: dict[str, Any] | None = None) -> None:
        self.switch = AppSwitch()
        data = default_scenario_data() if scenario_data is None else scenario_data
        self.sandbox = Sandbox(
            parse_scenario(data),
            webhook_transport=httpx.ASGITransport(app=self.switch),
            image_transport=httpx.MockTransport(_photo),
            resolver=_public_resolver,
        )
        self.db_path = tmp_path / "bot.sqlite3"
        self.clock: Clock = system_clock  # the store's; a test may swap it before a restart
        self.limits = LimitsConfig()  # ``[limits]``; a test may set its own before ``start``
        self.channel = RecordingChannel()
        self.hooks = HookReceiver()
        self.core: BotCore | None = None
        self.agents: AgentChannels | None = None
        self.store: Store | None = None
        self.server: LoopbackServer | None = None
        self.shop: httpx.AsyncClient | None = None
        self.other: httpx.AsyncClient | None = None

    async def start(self, *, serve: bool = True) -> None:
        self.store = await Store.connect(self.db_path, clock=self.clock, synchronous="NORMAL")
        # Bound first: its URL is the bot's public host for uploaded photos.
        self.server = LoopbackServer(self.switch) if serve else None
        hooks = self.sandbox.scenario.webhooks
        public_base_url = None if self.server is None else self.server.url
        settings = CoreSettings(
            partner_base_url=self.sandbox.base_url,
            partner_api_key=self.sandbox.api_key,
            operators=(ChatRef(TELEGRAM, OPERATOR),),
            signing_secrets=tuple(hook.secret for hook in hooks),
            webhook_path=httpx.URL(hooks[0].url).path,
            agents=AgentsSettings(
                channels=(
                    AgentChannel("shop", key_hash(SHOP_KEY), 10_000),
                    AgentChannel("other", key_hash(OTHER_KEY), 10_000),
                    AgentChannel("tiny", key_hash(TINY_KEY), 2),
                ),
                hooks={"shop": ChannelHook(HOOK_URL, HOOK_SECRET)},
            ),
            public_base_url=public_base_url,
            limits=self.limits,
        )
        seams = Seams(
            partner_transport=httpx.ASGITransport(app=self.sandbox.app),
            agent_webhook_transport=httpx.ASGITransport(app=self.hooks.app),
        )
        self.core = build_core(settings, self.store, seams)
        self.core.register(ChannelRegistration(TELEGRAM_KIND, self.channel))
        self.agents = register_agents(self.core)
        self.switch.app = self.core.web_app
        if self.server is None:
            return
        await self.server.start()
        self.shop = self._client(SHOP_KEY)
        self.other = self._client(OTHER_KEY)

    def _client(self, key: str) -> httpx.AsyncClient:
        assert self.server is not None
        headers = {"Authorization": f"Bearer {key}"}
        return httpx.AsyncClient(base_url=self.server.url, headers=headers, timeout=10)

    async def stop(self) -> None:
        for client in (self.shop, self.other):
            if client is not None:
                await client.aclose()
        if self.server is not None:
            await self.server.stop()
        self.switch.app = None
        if self.core is not None:
            await self.core.aclose()
        if self.store is not None:
            await self.store.close()
        self.core = self.agents = self.store = self.server = self.shop = self.other = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    @property
    def api(self) -> httpx.AsyncClient:
        assert self.shop is not None
        return self.shop

    async def settle(self) -> None:
        assert self.core is not None and self.agents is not None
        await self.sandbox.drain_webhooks()
        await self.core.relay.process_pending()
        await self.agents.webhooks.process_due()

    async def start_order(self, customer: str = "cust-1") -> dict[str, Any]:
        response = await self.api.post("/api/conversations", json={"customer": customer})
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    async def answer(self, conversation_id: str, answer: dict[str, Any]) -> httpx.Response:
        return await self.api.post(
            f"/api/conversations/{conversation_id}/answers", json={"answer": answer}
        )

    async def order(self, customer: str = "cust-1") -> dict[str, Any]:
        """A full order; the created turn's view."""
        started = await self.start_order(customer)
        for answer in [*TO_SUMMARY, CONFIRM]:
            response = await self.answer(started["id"], answer)
            assert response.status_code == 200, (answer, response.text)
        body: dict[str, Any] = response.json()
        return body


MakeWorld = Callable[[], AgentWorld]


@contextlib.asynccontextmanager
async def running_world(
    tmp_path: Path, scenario_data: dict[str, Any] | None = None
) -> AsyncIterator[AgentWorld]:
    """An ``AgentWorld`` on ``scenario_data`` (the default scenario when None), started."""
    made = AgentWorld(tmp_path, scenario_data)
    await made.start()
    try:
        yield made
    finally:
        await made.stop()
        await made.sandbox.aclose()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[AgentWorld]:
    async with running_world(tmp_path) as made:
        yield made
