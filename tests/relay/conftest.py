"""Fixtures for the relay tests: a real SQLite store in tmp_path (reopenable, to play crashes),
a recording channel and relays wired to a fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.channel_kind import NO_CAPABILITIES, ChannelCapabilities
from bot.chat_ref import TELEGRAM, ChatRef
from bot.clocks import Clock
from bot.config import RelayConfig
from bot.partner.client import PartnerClient
from bot.relay import Relay, RelayTuning
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.store import Store
from bot.web import create_web_app
from tests.support.clock import FakeClock
from tests.support.store_fixture import STORE_FILE

from .support import OPERATORS, MakeRelay, OpenStore, RecordingChannel
from .world import BotDoor, MakeWorld, World, image_host, public_resolver


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def channel() -> RecordingChannel:
    return RecordingChannel()


@pytest.fixture
async def open_store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[OpenStore]:
    """``await open_store()``: the same database file, opened afresh (a restarted process)."""
    opened: list[Store] = []

    async def open_() -> Store:
        store = await Store.connect(tmp_path / STORE_FILE, clock=clock, synchronous="NORMAL")
        opened.append(store)
        return store

    yield open_
    for store in opened:
        await store.close()


@pytest.fixture
def store_clock(clock: FakeClock) -> Clock:
    """``store`` (``tests.support.store_fixture``) reads the relay tests' clock; ``open_store``
    opens its file (``tmp_path / STORE_FILE``) again."""
    return clock


def shipped_capabilities(channel: str) -> ChannelCapabilities:
    """What the shipped channel named ``channel`` can do, as its kind declares."""
    kinds = {kind.name: kind.capabilities for kind in SHIPPED_CHANNEL_KINDS}
    return kinds.get(channel, NO_CAPABILITIES)


@pytest.fixture
def make_relay(clock: FakeClock, channel: RecordingChannel) -> MakeRelay:
    """``make_relay(store, **overrides)``: a relay with both operators and the fake clock."""

    def make(store: Store, **overrides: Any) -> Relay:
        options: dict[str, Any] = {
            "operators": [ChatRef(TELEGRAM, chat) for chat in OPERATORS],
            "clock": clock,
            "sleep": clock.sleep,
            "tuning": RelayTuning(),
            # As the scenarios' dashboard switch: the codes come by webhook.
            "settings": RelayConfig.model_validate({"otp_via_webhook": True}),
            # What each shipped channel can do, as its registration says (agents: news as data).
            "capabilities": shipped_capabilities,
        }
        chosen = overrides.pop("channel", channel)
        options.update(overrides)
        return Relay(store, chosen, **options)

    return make


@pytest.fixture
def relay(make_relay: MakeRelay, store: Store) -> Relay:
    return make_relay(store)


@pytest.fixture
async def make_world(
    open_store: OpenStore, make_relay: MakeRelay, clock: FakeClock, channel: RecordingChannel
) -> AsyncIterator[MakeWorld]:
    """``await make_world(scenario edits..., bot_secret=, web_clock_offset=)``: see ``world``.

    ``edit(data)`` changes the default scenario's TOML data before the sandbox is built.
    """
    sandboxes: list[Sandbox] = []
    clients: list[PartnerClient] = []

    async def make(
        edit: Callable[[dict[str, Any]], None] | None = None,
        *,
        bot_secret: str | None = None,
        web_clock_offset: float = 0.0,
    ) -> World:
        data = default_scenario_data()
        if edit is not None:
            edit(data)
        scenario = parse_scenario(data)
        store = await open_store()
        relay = make_relay(store)
        app = create_web_app(
            store=store,
            signing_secrets=[bot_secret or scenario.webhooks[0].secret],
            on_event=relay.wake,
            clock=lambda: clock() + web_clock_offset,
        )
        door = BotDoor(app)
        sandbox = Sandbox(
            scenario,
            clock=clock,
            sleep=clock.sleep,
            webhook_transport=door,
            image_transport=image_host(),
            resolver=public_resolver,
        )
        sandboxes.append(sandbox)
        client = PartnerClient(
            sandbox.base_url,
            sandbox.api_key,
            transport=httpx.ASGITransport(app=sandbox.app),
            clock=clock,
            sleep=clock.sleep,
        )
        clients.append(client)
        return World(sandbox, client, store, relay, channel, door, clock)

    yield make
    for client in clients:
        await client.aclose()
    for sandbox in sandboxes:
        await sandbox.aclose()
