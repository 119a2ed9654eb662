"""An org in process for the ordering tests: the sandbox (default scenario, editable), the real
Partner client and capability cache over ``httpx.ASGITransport``, and a real SQLite store in
``tmp_path``. Package photos are served by a small image host the sandbox downloads from."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.ordering import build_engine
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.options import ClientOptions
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.store import Store
from bot.web import media_url
from conversations import (
    CONFIRM,
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    Engine,
    LocationAnswer,
    PhotosAnswer,
    TextAnswer,
)
from tests.support.clock import FakeClock

START = 1_800_000_000.0
JPEG = b"\xff\xd8\xff\xe0" + b"ordering-test-photo" * 4
# The bot's own public host, on the scenario's image allowlist; photos reach the flows as an
# adapter hands them over: re-hosted there (``bot.web.media_url``).
BOT_HOST = "https://media.swift-lagos.example"
PHOTO_TOKEN = "parcel-photo-token"
PHOTO_URL = media_url(BOT_HOST, PHOTO_TOKEN)
# The test photo is kept that long: whatever a test's clock does, it never expires.
PHOTO_KEPT_SECONDS = 365 * 86_400.0

# A pickup & delivery on the default scenario, answer by answer, up to the summary.
TO_SUMMARY = [
    ChoiceAnswer(option="pickup_delivery"),
    ChoiceAnswer(option="pickup"),
    LocationAnswer(lat=6.5095, lng=3.3711, address="Ozone Cinema, Yaba"),
    ChoiceAnswer(option="saved:loc_unilag_gate"),
    ContactAnswer(phone="08031234567", first_name="Ada", last_name="Obi"),
    CommandAnswer(name="skip"),
    ChoiceAnswer(option="yes"),
    TextAnswer(text="Bola Ahmed"),
    TextAnswer(text="0802 222 3333"),
    TextAnswer(text="A pair of shoes"),
    ChoiceAnswer(option="small"),
    ChoiceAnswer(option="no"),
    PhotosAnswer(urls=[PHOTO_URL]),
    CommandAnswer(name="done"),
    ChoiceAnswer(option="none"),
]
CONFIRM_ANSWER = ChoiceAnswer(option=CONFIRM)


async def public_resolver(host: str) -> list[str]:
    return ["93.184.216.34"]


def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


async def keep_test_photo(store: Store) -> None:
    """Store the test photo as the bot keeps a photo it re-hosted, at ``PHOTO_URL``: the
    engine checks its own photos are still stored before each create (``KeptPhotos``)."""
    if await store.media.get(PHOTO_TOKEN) is not None:
        return  # the same file opened again (a restart)
    kept = await store.media.put(
        JPEG,
        content_type="image/jpeg",
        chat=ChatRef("telegram", 0),
        expires_at=store.clock() + PHOTO_KEPT_SECONDS,
    )
    # put() draws a random token; the flows' answers carry the fixed PHOTO_URL.
    await store._db.execute("UPDATE media SET token = ? WHERE token = ?", (PHOTO_TOKEN, kept.token))


class Org:
    """One business in the sandbox and the bot's view of it (client, cache, store)."""

    def __init__(
        self, data: dict[str, Any], tmp_path: Path, clock: FakeClock, options: ClientOptions
    ) -> None:
        self.clock = clock
        self.sandbox = Sandbox(
            parse_scenario(data),
            clock=clock,
            sleep=clock.sleep,
            image_transport=httpx.MockTransport(_photo),
            resolver=public_resolver,
        )
        self.client = PartnerClient(
            self.sandbox.base_url,
            self.sandbox.api_key,
            options=options,
            transport=httpx.ASGITransport(app=self.sandbox.app),
            clock=clock,
            sleep=clock.sleep,
        )
        self.cache = CapabilityCache.for_client(self.client, clock=clock)
        self.db_path = tmp_path / "bot.sqlite3"
        self.store: Store | None = None

    async def open_store(self) -> Store:
        self.store = await Store.connect(self.db_path, clock=self.clock)
        await keep_test_photo(self.store)
        return self.store

    def engine(self, **kwargs: Any) -> Engine:
        kwargs.setdefault("public_base_url", BOT_HOST)
        return build_engine(self.client, self.cache, **kwargs)

    def calls(self, operation: str) -> int:
        return self.sandbox.call_counts()[operation]

    async def aclose(self) -> None:
        if self.store is not None:
            await self.store.close()
        await self.client.aclose()
        await self.sandbox.aclose()


MakeOrg = Callable[..., Org]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def scenario_data() -> dict[str, Any]:
    """The default scenario as editable data (its image allowlist has the test photo host)."""
    return default_scenario_data()


@pytest.fixture
async def make_org(
    tmp_path: Path, clock: FakeClock, scenario_data: dict[str, Any]
) -> AsyncIterator[MakeOrg]:
    made: list[Org] = []

    def make(data: dict[str, Any] | None = None, **options: Any) -> Org:
        org = Org(data or scenario_data, tmp_path, clock, ClientOptions(**options))
        made.append(org)
        return org

    yield make
    for org in made:
        await org.aclose()


@pytest.fixture
async def org(make_org: MakeOrg) -> Org:
    made = make_org()
    await made.open_store()
    return made
