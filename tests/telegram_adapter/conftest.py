"""Fixtures for the Telegram adapter's blocks: the fake Bot API, PTB's real Bot, a real store,
time the tests move by hand, and a real engine over a tiny in-memory catalog."""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import telegram
from telegram.request import HTTPXRequest

from bot.clocks import Clock
from bot.partner.models import Capabilities, ServiceLocation, Warehouse
from conversations import Engine, Services
from conversations.flows import default_registry
from conversations.outcome import CreateOutcome
from tests.fakes import FakeTelegram, TgChat, TgUser
from tests.support.clock import WaitingClock

from .handler_world import HandlerWorld, handler_world
from .stack_backends import webapp

__all__ = ["webapp"]  # the ``stack``'s ``[webapp]`` (off), for every module of the folder

ALICE = TgUser(1001, "Alice", last_name="Obi", username="alice")
BOB = TgUser(1002, "Bob")
OPERATORS = TgChat.group(-100200, "Operators")
STORE_NOW = 1_700_000_000.0

# PTB builds two httpx clients per Bot and each would load the CA bundle although the fake is
# plain http on loopback; one shared context keeps the suite fast.
_TLS = ssl.create_default_context()


@pytest.fixture
def console() -> dict[str, Any]:
    """The ``stack``'s ``[console]`` table (``stack_backends``): off; a module overrides it."""
    return {}


@pytest.fixture
def manual_time() -> WaitingClock:
    return WaitingClock(1000.0)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram.running() as fake:
        fake.add_chat(ALICE)
        fake.add_chat(BOB)
        fake.add_chat(OPERATORS)
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[telegram.Bot]:
    """PTB's real Bot, talking to the fake, initialized (it knows its username)."""
    ptb = telegram.Bot(
        tg.token,
        base_url=tg.api_base_url,
        base_file_url=tg.file_base_url,
        request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
        get_updates_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
    )
    async with ptb:
        yield ptb


@pytest.fixture
def store_clock() -> Clock:
    """``store`` (``tests.support.store_fixture``) reads a time that stands still."""
    return lambda: STORE_NOW


# --- a real engine over a small org ---------------------------------------------------------

CAPS = Capabilities.model_validate(
    {
        "organization": {"id": "org-1", "name": "Swift Riders", "slug": "swift"},
        "plan": "pro",
        "enabledServiceKinds": ["pickup_delivery", "errand"],
        "defaultServiceKind": "pickup_delivery",
        "paymentCollection": {"onlineCheckout": False, "cashOnDelivery": True},
        "errand": {"enabledModes": ["at_place"], "defaultMode": "at_place"},
    }
)


class _Catalog:
    async def capabilities(self) -> Capabilities:
        return CAPS

    async def warehouses(self) -> list[Warehouse]:
        return []

    async def service_locations(self) -> list[ServiceLocation]:
        return []

    async def catalogue(self) -> tuple[Capabilities, list[Warehouse], list[ServiceLocation]]:
        return await self.capabilities(), await self.warehouses(), await self.service_locations()

    async def refresh(self) -> None:
        return None


class _NoCreate:
    async def create(self, request: object, turn: object = None, *, flow: str) -> CreateOutcome:
        raise AssertionError("these tests never reach the summary")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[HandlerWorld]:
    """The handlers' world on the default scenario; a test file whose business differs (priced
    by staff, manual dispatch) or that times the conversation itself defines its own."""
    async with handler_world(tmp_path) as built:
        yield built


@pytest.fixture
def engine() -> Engine:
    return Engine(default_registry(), Services(catalog=_Catalog(), creator=_NoCreate()))
