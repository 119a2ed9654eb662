"""A new channel is its own module, one registration line and its config table: nothing else.

The probe (``probe_channel``, a channel that exists only in the tests) is started by the real
runtime over a real SQLite file, with the sandbox as the Partner API and its signed webhooks
posted to the bot's own web app, as the e2e tests run them. Its customer orders a delivery from
start to created, and the delivery's news is relayed to its chat, and to its operator, who is a
probe chat too. What the core knows of the probe (its chat lock tag, what it can do, its words)
comes from its registration alone: a runtime without it knows none of them. And the count: the
probe needed one module of its own, the one line below that registers it, and one config table;
no file of the bot names it.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.channel_kind import NO_CAPABILITIES
from bot.config import Config
from bot.demo.transports import AppSwitch
from bot.runtime import Runtime, StartupError
from bot.runtime.channel_starters import SHIPPED_STARTERS
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from tests.channels import probe_channel
from tests.channels.probe_channel import PROBE_KIND, ProbeChannel, ProbeStarter
from tests.ordering.conftest import (
    BOT_HOST,
    CONFIRM_ANSWER,
    JPEG,
    TO_SUMMARY,
    keep_test_photo,
    public_resolver,
)

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CUSTOMER, OPERATOR = 7, 1


def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


def _config(tmp_path: Path, sandbox: Sandbox, **tables: Any) -> Config:
    """A bot without Telegram or agents: its one ordering channel is the probe, if ``tables``
    gives its ``[channels.probe]``; its operator is a probe chat."""
    data = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key},
        "telegram": {},
        "server": {"public_base_url": BOT_HOST},
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "operators": {"chat_ids": [f"{PROBE_KIND.name}:{OPERATOR}"]},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "geocoding": {"provider": "none"},
        **tables,
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


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


@contextlib.asynccontextmanager
async def running(
    config: Config, sandbox: Sandbox, switch: AppSwitch, *, probe: bool = True
) -> AsyncIterator[Runtime]:
    """The bot of ``config``, built and started as ``deliverybot run`` does, the probe among
    its channels (unless ``probe`` is False)."""
    seams = Seams(partner_transport=httpx.ASGITransport(app=sandbox.app), synchronous="NORMAL")
    starters = (*SHIPPED_STARTERS, ProbeStarter()) if probe else SHIPPED_STARTERS
    runtime = await Runtime.build(config, seams, channels=starters)
    switch.app = runtime.web_app
    try:
        await runtime.start(workers=False)  # the relay runs when the test asks
        yield runtime
    finally:
        await runtime.stop()
        switch.app = None


async def test_the_probe_takes_an_order_to_created_and_hears_its_news(
    tmp_path: Path, sandbox: tuple[Sandbox, AppSwitch]
) -> None:
    partner, switch = sandbox
    config = _config(tmp_path, partner, channels={"probe": {"business": "Swift Lagos"}})
    async with running(config, partner, switch) as runtime:
        probe = runtime.started[PROBE_KIND.name]
        assert isinstance(probe, ProbeChannel)
        await keep_test_photo(runtime.store)

        turn = await probe.start(CUSTOMER)
        for answer in [*TO_SUMMARY, CONFIRM_ANSWER]:
            turn = await probe.answer(CUSTOMER, answer)
        assert turn.status == "created" and turn.delivery is not None

        # The service's signed events, posted to the bot's /hooks/partner and relayed: the
        # operator hears of the new delivery, the customer of its parcel picked up.
        await partner.drain_webhooks()
        await runtime.relay.process_pending()
        assert probe.sender.sent[probe.chat(OPERATOR)]
        partner.mark_paid(turn.delivery.id)
        partner.advance_status(turn.delivery.id)
        await partner.drain_webhooks()
        await runtime.relay.process_pending()

        to_customer = probe.sender.sent[probe.chat(CUSTOMER)]
        assert to_customer and all(turn.delivery.id[:8].upper() in text for text in to_customer)
        assert set(probe.sender.sent) == {probe.chat(CUSTOMER), probe.chat(OPERATOR)}

        # What the core knows of the probe, it knows from the probe's registration.
        core = runtime.core
        assert runtime.store.chat_lock_keys.tag(PROBE_KIND.name) == PROBE_KIND.lock_tag
        assert core.channels.capabilities(PROBE_KIND.name) == PROBE_KIND.capabilities
        greeting = core.texts.business_catalogue().say(
            "probe.greeting", business=probe.section.business
        )
        assert greeting == "Probe here, for Swift Lagos."


async def test_without_its_registration_the_core_knows_nothing_of_the_probe(
    tmp_path: Path, sandbox: tuple[Sandbox, AppSwitch]
) -> None:
    partner, switch = sandbox
    config = _config(tmp_path, partner, agents={"channels": [_AGENT]})
    async with running(config, partner, switch, probe=False) as runtime:
        core = runtime.core
        assert [registration.name for registration in core.channels] == ["log", "agents"]
        assert runtime.store.chat_lock_keys.tag(PROBE_KIND.name) is None
        assert core.channels.capabilities(PROBE_KIND.name) is NO_CAPABILITIES
        with pytest.raises(KeyError):
            core.texts.business_catalogue().say("probe.greeting", business="Swift Lagos")


_AGENT = {"name": "shop", "key": "shop-agent-key-0123456789abcdef"}


async def test_a_bad_probe_table_is_refused_at_start_naming_its_key(
    tmp_path: Path, sandbox: tuple[Sandbox, AppSwitch]
) -> None:
    partner, switch = sandbox
    config = _config(tmp_path, partner, channels={"probe": {"business": "", "colour": "red"}})
    with pytest.raises(StartupError) as refused:
        async with running(config, partner, switch):
            pass
    assert str(refused.value) == (
        "[channels.probe] business: String should have at least 1 character; "
        "[channels.probe] colour: Extra inputs are not permitted"
    )


def test_the_probe_needed_its_module_one_registration_line_and_its_config_table() -> None:
    # Its module: the one file of its own (beside this test and the package's marker).
    assert sorted(path.name for path in HERE.glob("*.py")) == [
        "__init__.py",
        "probe_channel.py",
        "test_probe_channel.py",
    ]
    # Its registration: one line, the runtime's starters with the probe's, here.
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    registering = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == ProbeStarter.__name__
    ]
    assert len(registering) == 1
    # Its config table: [channels.probe], whose keys its own model checks.
    assert list(probe_channel.ProbeSection.model_fields) == ["business"]
    # Nothing of the bot names it: no edit elsewhere was needed.
    named = [
        path.relative_to(ROOT)
        for folder in ("bot", "conversations")
        for path in (ROOT / folder).rglob("*.py")
        if _names(path, PROBE_KIND.name)
    ]
    assert named == []


def _names(path: Path, name: str) -> bool:
    """Whether a string constant of the module at ``path`` is ``name``, or a text id
    (``name.…``) or chat ref (``name:…``) of it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (
            node.value == name
            or node.value.startswith(f"{name}.")
            or node.value.startswith(f"{name}:")
        )
        for node in ast.walk(tree)
    )
