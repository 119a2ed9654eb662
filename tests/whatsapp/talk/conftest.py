"""The running bot with WhatsApp's conversation (``world``), over the sandbox."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bot.demo.transports import AppSwitch
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from tests.ordering.conftest import JPEG, public_resolver
from tests.whatsapp.talk.world import Talk, running, talk_config


def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


@pytest.fixture
async def sandbox() -> AsyncIterator[tuple[Sandbox, AppSwitch]]:
    switch = AppSwitch()  # the bot's web app, once it runs: where the sandbox posts events
    sandbox = Sandbox(
        parse_scenario(default_scenario_data()),
        webhook_transport=httpx.ASGITransport(app=switch),
        image_transport=httpx.MockTransport(_photo),
        resolver=public_resolver,
    )
    try:
        yield sandbox, switch
    finally:
        await sandbox.aclose()


@pytest.fixture
def locale() -> str:
    """The business's locale (``[texts] locale``): English unless a test says French."""
    return "en_NG"


@pytest.fixture
async def talk(
    tmp_path: Path, sandbox: tuple[Sandbox, AppSwitch], locale: str
) -> AsyncIterator[Talk]:
    partner, switch = sandbox
    config = talk_config(tmp_path, partner, texts={"locale": locale})
    async with running(config, partner, switch) as runtime:
        world = runtime.started["whatsapp"]
        assert isinstance(world, Talk)
        yield world
